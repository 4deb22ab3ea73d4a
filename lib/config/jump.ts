/**
 * Bastions (jump hosts) in the configuration: the inventory's `jump` field
 * and the single-device `--jump`. A device's `jump` is one of:
 *
 * - the title of another inventory entry, which is then the bastion with its
 *   own host, port, username, password or key, `host_key` pin,
 *   `connect_timeout` and its own `jump` (a chain);
 * - `user@host[:port]` (IPv6 in brackets), a bastion outside the inventory,
 *   which logs in with the device's own `key_filename` and `key_passphrase`
 *   (never its password), as OpenSSH's `ProxyJump` offers the same identity;
 * - a mapping `{host, username, port, password, key_filename,
 *   key_passphrase, host_key, connect_timeout, jump}` for a bastion outside
 *   the inventory with its own credentials.
 *
 * A password is never part of the text form (`user:pw@host` is refused
 * without being shown), so the text that names a bastion (in messages, logs
 * and `router_list_devices`) never holds a secret. A loop of titles is an
 * error naming the entries; a chain has at most {@linkcode MAX_JUMP_HOPS}
 * bastions.
 *
 * @module
 */
import {
  fingerprint,
  line,
  MAX_HOST,
  MAX_NAME,
  MAX_PATH,
  MAX_SECRET,
  MAX_TITLE,
  port,
  str,
  timeout,
} from "./fields.ts";
import { CONTROL } from "./parsers.ts";
import type { SshLogin } from "./login.ts";

/** A bastion, resolved: where it is, how to log in, and its own bastion. */
export interface JumpConfig extends SshLogin {
  /** The bastion this one is reached through. */
  jump?: JumpConfig;
}

/** The `jump` field as written, before titles are resolved. */
export type JumpSpec =
  /** An entry's title, or else `user@host[:port]` (decided once the titles are known). */
  | { kind: "name"; text: string }
  | { kind: "mapping"; bastion: Omit<JumpConfig, "title" | "jump">; jump?: JumpSpec };

/** Most bastions in one chain. */
export const MAX_JUMP_HOPS = 8;

/** A user name: one word of safe characters. */
const WORD = /^[A-Za-z0-9._%~+-]+$/;

/** A host name, an IPv4 address or an IPv6 address (brackets removed). */
const HOST = /^[A-Za-z0-9._%:-]+$/;

/** `user@host:port`, IPv6 in brackets: how messages and listings name an inline bastion. */
export function jumpText(j: { username: string; host: string; port: number }): string {
  const host = j.host.includes(":") ? `[${j.host}]` : j.host;
  return `${j.username}@${host}:${j.port}`;
}

/**
 * `text` with what may be a password hidden (`ops:********@host`), for
 * messages about a value that could not be read.
 */
export function maskJumpText(text: string): string {
  const at = text.lastIndexOf("@");
  const colon = text.indexOf(":");
  if (at < 0 || colon < 0 || colon > at) return text;
  return `${text.slice(0, colon)}:********${text.slice(at)}`;
}

/**
 * Read `user@host[:port]` (port 22 by default, IPv6 in brackets when a port
 * follows). Throws an Error saying the accepted form; its message never
 * shows the text, which may hold a password by mistake.
 */
export function parseJumpText(raw: string): { username: string; host: string; port: number } {
  const text = raw.trim();
  if (CONTROL.test(text) || /\s/.test(text)) {
    throw new Error("must be user@host or user@host:port, without spaces");
  }
  const at = text.lastIndexOf("@");
  if (at < 0) throw new Error("must be user@host or user@host:port");
  const username = text.slice(0, at);
  let rest = text.slice(at + 1);
  if (username.includes(":")) {
    throw new Error(
      "must not hold a password (user:password@host); give the bastion as a mapping with " +
        "key_filename (or password), or as an inventory entry named by its title",
    );
  }
  if (username === "" || !WORD.test(username) || username.length > MAX_NAME) {
    throw new Error(`must start with a user name (user@host), at most ${MAX_NAME} characters`);
  }
  let portText = "22";
  const bracket = /^\[([^\]]+)\](?::(.*))?$/.exec(rest);
  if (bracket) {
    rest = bracket[1];
    if (bracket[2] !== undefined) portText = bracket[2];
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    [rest, portText] = rest.split(":");
  }
  if (rest === "" || rest.length > MAX_HOST || !HOST.test(rest)) {
    throw new Error("must name a host after the @ (a host name, an IPv4 address or [IPv6])");
  }
  return { username, host: rest, port: port(portText) };
}

/** Fields of the mapping form: YAML name -> [config name, check]. */
const MAPPING_FIELDS: Record<string, [keyof JumpConfig, (value: unknown) => unknown]> = {
  host: ["host", line(MAX_HOST)],
  port: ["port", port],
  username: ["username", line(MAX_NAME)],
  password: ["password", str(MAX_SECRET)],
  key_filename: ["keyFilename", line(MAX_PATH)],
  key_passphrase: ["keyPassphrase", str(MAX_SECRET)],
  host_key: ["hostKey", fingerprint],
  connect_timeout: ["connectTimeout", timeout],
};

/**
 * Read the `jump` field (text or mapping) without resolving titles. Throws
 * an Error whose message starts with what is wrong (the caller adds the
 * entry and `field "jump"`) and never shows a secret.
 */
export function readJump(value: unknown, depth = 1): JumpSpec {
  if (depth > MAX_JUMP_HOPS) {
    throw new Error(`makes a chain of more than ${MAX_JUMP_HOPS} bastions`);
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") throw new Error("must not be empty");
    if (CONTROL.test(text)) throw new Error("must not contain control characters or line breaks");
    if (text.length > MAX_TITLE + MAX_HOST + 8) {
      throw new Error("is too long for a title or user@host:port");
    }
    return { kind: "name", text };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(
      "must be an entry's title, user@host[:port], or a mapping with host and username",
    );
  }
  const bastion: Record<string, unknown> = { port: 22 };
  let jump: JumpSpec | undefined;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || v === undefined) {
      throw new Error(`field "${key}" has no value; give one or remove the line`);
    }
    if (key === "jump") {
      try {
        jump = readJump(v, depth + 1);
      } catch (err) {
        throw new Error(`field "jump" ${(err as Error).message}`);
      }
      continue;
    }
    const field = MAPPING_FIELDS[key];
    if (!field) {
      throw new Error(
        `field "${key}" is unknown; known fields: ${
          [...Object.keys(MAPPING_FIELDS), "jump"].join(", ")
        }`,
      );
    }
    try {
      bastion[field[0]] = field[1](v);
    } catch (err) {
      throw new Error(`field "${key}" ${(err as Error).message}`);
    }
  }
  for (const required of ["host", "username"]) {
    if (bastion[required] === undefined) throw new Error(`field "${required}" is required`);
  }
  return {
    kind: "mapping",
    bastion: bastion as Omit<JumpConfig, "title" | "jump">,
    ...(jump ? { jump } : {}),
  };
}

/** An inventory entry as a bastion sees it. */
export interface JumpEntry extends SshLogin {
  /** Its own `jump`, as written. */
  jump?: JumpSpec;
}

/**
 * Resolve a device's `jump`: titles to entries (exact, else ignoring case),
 * down the chain. `path` holds the titles already on the way (the device's
 * first). Throws an Error naming the loop or the unknown title.
 */
export function resolveJump(
  spec: JumpSpec,
  device: { keyFilename?: string; keyPassphrase?: string },
  entries: { byTitle: Map<string, JumpEntry>; byLowerTitle: Map<string, JumpEntry> },
  path: string[],
): JumpConfig {
  if (path.length > MAX_JUMP_HOPS) {
    throw new Error(
      `makes a chain of more than ${MAX_JUMP_HOPS} bastions (${path.join(" \u2192 ")} \u2192 ...)`,
    );
  }
  const next = (inner: JumpSpec | undefined, via: string, owner = device) =>
    inner ? resolveJump(inner, owner, entries, [...path, via]) : undefined;
  if (spec.kind === "mapping") {
    const title = jumpText(spec.bastion);
    const inner = next(spec.jump, title, spec.bastion);
    return { title, ...spec.bastion, ...(inner ? { jump: inner } : {}) };
  }
  const entry = entries.byTitle.get(spec.text) ??
    entries.byLowerTitle.get(spec.text.toLowerCase());
  if (!entry) {
    if (!spec.text.includes("@")) {
      throw new Error(
        `names "${spec.text}", which is no entry's title; name an inventory entry, or give ` +
          `user@host[:port] for a bastion outside the inventory`,
      );
    }
    const { username, host, port } = parseJumpText(spec.text);
    return {
      title: jumpText({ username, host, port }),
      host,
      port,
      username,
      ...(device.keyFilename !== undefined ? { keyFilename: device.keyFilename } : {}),
      ...(device.keyPassphrase !== undefined ? { keyPassphrase: device.keyPassphrase } : {}),
    };
  }
  const seen = path.findIndex((t) => t.toLowerCase() === entry.title.toLowerCase());
  if (seen >= 0) {
    throw new Error(
      `makes a loop: ${[...path.slice(seen), entry.title].join(" \u2192 ")}; a bastion cannot be ` +
        `reached through itself`,
    );
  }
  const { jump, ...own } = entry;
  const inner = next(jump, entry.title, entry);
  return inner ? { ...own, jump: inner } : own;
}

/** The bastions' titles from this server outward (`["jump-0", "jump-1"]`). */
export function jumpChain(jump: JumpConfig | undefined): string[] {
  return jump ? [...jumpChain(jump.jump), jump.title] : [];
}

/** A copy of the chain with every password and passphrase replaced by `mask`. */
export function maskJump(jump: JumpConfig, mask: string): JumpConfig {
  return {
    ...jump,
    ...(jump.password ? { password: mask } : {}),
    ...(jump.keyPassphrase ? { keyPassphrase: mask } : {}),
    ...(jump.jump ? { jump: maskJump(jump.jump, mask) } : {}),
  };
}

/** Every bastion of the chain, nearest to the device first. */
export function* bastionsOf(jump: JumpConfig | undefined): Generator<JumpConfig> {
  for (let j = jump; j; j = j.jump) yield j;
}

/**
 * The device inventory: a YAML (or JSON) list of routers, validated field by
 * field. Every error names the entry, the field and the fix, and never shows
 * a password or passphrase.
 *
 * Every value is read as the text written: YAML's own number and boolean
 * readings are undone, so `port: 0x16` is refused rather than read as 22 and
 * `password: 0123` stays `0123`. Text fields have length limits (a title at
 * most {@linkcode MAX_TITLE} characters), because titles and tags end up in
 * every tool's schema.
 *
 * @module
 */
import { yamlParser } from "./yaml_parser.ts";
import type { SshLogin } from "./login.ts";
import { ConfigError } from "./errors.ts";
import {
  bastionsOf,
  type JumpConfig,
  type JumpEntry,
  type JumpSpec,
  readJump,
  resolveJump,
} from "./jump.ts";
import {
  bool,
  type FieldCheck,
  fingerprint,
  line,
  MAX_HOST,
  MAX_INVENTORY_BYTES,
  MAX_NAME,
  MAX_PATH,
  MAX_SECRET,
  MAX_TITLE,
  port,
  str,
  tags,
  timeout,
} from "./fields.ts";

export {
  MAX_HOST,
  MAX_INVENTORY_BYTES,
  MAX_NAME,
  MAX_PATH,
  MAX_SECRET,
  MAX_TAGS,
  MAX_TITLE,
} from "./fields.ts";

/** One router, as configured. */
export interface DeviceConfig extends SshLogin {
  region?: string;
  tags: string[];
  /** Per-device command timeout in seconds (overrides the global one). */
  commandTimeout?: number;
  /** Refuse write tools on this device. */
  readOnly: boolean;
  /** The bastion the device is reached through (`jump`), with its own chain. */
  jump?: JumpConfig;
}

/** An entry as read, before its `jump` is resolved. */
interface Entry extends DeviceConfig {
  /** Only a bastion for others (`bastion_only`): not a device of the fleet. */
  bastionOnly: boolean;
  /** The `jump` field as written. */
  jumpSpec?: JumpSpec;
}

/** Inventory fields: YAML name -> [config name, check]. */
const FIELDS: Record<string, [keyof Entry, FieldCheck]> = {
  title: ["title", line(MAX_TITLE)],
  host: ["host", line(MAX_HOST)],
  port: ["port", port],
  username: ["username", line(MAX_NAME)],
  password: ["password", str(MAX_SECRET)],
  key_filename: ["keyFilename", line(MAX_PATH)],
  key_passphrase: ["keyPassphrase", str(MAX_SECRET)],
  region: ["region", line(MAX_NAME)],
  tags: ["tags", tags],
  host_key: ["hostKey", fingerprint],
  connect_timeout: ["connectTimeout", timeout],
  command_timeout: ["commandTimeout", timeout],
  read_only: ["readOnly", bool],
  jump: ["jumpSpec", (value) => readJump(value)],
  bastion_only: ["bastionOnly", bool],
};

/** Where an inventory came from, for messages. */
export type InventorySource = "inline" | { file: string };

function where(source: InventorySource): string {
  return source === "inline"
    ? "inventory (--inventory / ROUTER_INVENTORY)"
    : `inventory file ${source.file}`;
}

/** Parse and validate inventory text. */
export function parseInventory(text: string, source: InventorySource): DeviceConfig[] {
  const at = where(source);
  if (new TextEncoder().encode(text).length > MAX_INVENTORY_BYTES) {
    throw new ConfigError(`${at}: larger than ${MAX_INVENTORY_BYTES} bytes; split the fleet`);
  }
  let doc = readYaml(text, at);
  if (doc && typeof doc === "object" && !Array.isArray(doc) && "inventory" in doc) {
    const keys = Object.keys(doc);
    if (keys.length !== 1) {
      throw new ConfigError(
        `${at}: a mapping may only hold the key "inventory" (found ${keys.join(", ")})`,
      );
    }
    doc = (doc as { inventory: unknown }).inventory;
  }
  if (!Array.isArray(doc)) {
    throw new ConfigError(
      `${at}: expected a list of devices (- title: R1\\n  host: 10.0.0.1), or a mapping with an "inventory:" list`,
    );
  }
  if (doc.length === 0) {
    throw new ConfigError(`${at}: the device list is empty; add at least one device`);
  }
  const entries = doc.map((entry, i) => parseEntry(entry, i + 1, at));
  const seen = new Map<string, number>();
  entries.forEach((d, i) => {
    const k = d.title.toLowerCase();
    const first = seen.get(k);
    if (first !== undefined) {
      throw new ConfigError(
        `${at}: entry ${i + 1} ("${d.title}"): title duplicates entry ${first} ("${
          entries[first - 1].title
        }"); titles must be unique, ignoring case`,
      );
    }
    seen.set(k, i + 1);
  });
  resolveJumps(entries, at);
  const devices = entries.filter((e) => !e.bastionOnly).map(({ bastionOnly: _, ...d }) => d);
  if (devices.length === 0) {
    throw new ConfigError(
      `${at}: every entry is bastion_only; add at least one device (an entry without bastion_only)`,
    );
  }
  return devices;
}

/**
 * Resolve every entry's `jump` to its bastion chain. A bastion named the
 * same way twice (an inline `user@host:port`) must be set the same way, since
 * one connection serves both.
 */
function resolveJumps(entries: Entry[], at: string): void {
  const asBastion = (e: Entry): JumpEntry => ({
    title: e.title,
    host: e.host,
    port: e.port,
    username: e.username,
    ...(e.password !== undefined ? { password: e.password } : {}),
    ...(e.keyFilename !== undefined ? { keyFilename: e.keyFilename } : {}),
    ...(e.keyPassphrase !== undefined ? { keyPassphrase: e.keyPassphrase } : {}),
    ...(e.hostKey !== undefined ? { hostKey: e.hostKey } : {}),
    ...(e.connectTimeout !== undefined ? { connectTimeout: e.connectTimeout } : {}),
    ...(e.jumpSpec !== undefined ? { jump: e.jumpSpec } : {}),
  });
  const byTitle = new Map(entries.map((e) => [e.title, asBastion(e)]));
  const byLowerTitle = new Map(entries.map((e) => [e.title.toLowerCase(), asBastion(e)]));
  /** Each bastion's settings by title, and the first entry that used them. */
  const bastions = new Map<string, { settings: string; index: number }>();
  entries.forEach((e, i) => {
    const spec = e.jumpSpec;
    delete e.jumpSpec;
    if (!spec) return;
    const prefix = `${at}: entry ${i + 1} ("${e.title}")`;
    try {
      e.jump = resolveJump(spec, e, { byTitle, byLowerTitle }, [e.title]);
    } catch (err) {
      throw new ConfigError(`${prefix}: field "jump" ${(err as Error).message}`);
    }
    for (const bastion of bastionsOf(e.jump)) {
      const key = bastion.title.toLowerCase();
      const settings = JSON.stringify(bastion);
      const first = bastions.get(key);
      if (!first) bastions.set(key, { settings, index: i + 1 });
      else if (first.settings !== settings) {
        throw new ConfigError(
          `${prefix}: field "jump": bastion "${bastion.title}" is set differently than for entry ` +
            `${first.index} ("${entries[first.index - 1].title}") (another key, password, ` +
            `host_key, timeout or chain); one connection serves both, so define the bastion ` +
            `once as an inventory entry and name it by its title`,
        );
      }
    }
  });
}

/**
 * Parse YAML (or JSON) into plain values where every scalar is the text as
 * written, or null for an empty value: numbers and booleans are left for the
 * field checks to read, in plain decimal and true/false only.
 */
function readYaml(text: string, at: string): unknown {
  const YAML = yamlParser();
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const e = doc.errors[0];
  if (e) {
    const pos = e.linePos?.[0];
    const first = e.message.split("\n")[0].replace(/ at line \d+, column \d+.*$/, "");
    throw new ConfigError(
      `${at}: YAML syntax error${pos ? ` at line ${pos.line}, column ${pos.col}` : ""}: ${first}`,
    );
  }
  YAML.visit(doc, {
    Scalar(_, node) {
      if (node.value !== null && typeof node.value !== "string" && node.source !== undefined) {
        node.value = node.source;
      }
    },
  });
  return doc.toJS();
}

function parseEntry(entry: unknown, index: number, at: string): Entry {
  const rawTitle = entry && typeof entry === "object" && !Array.isArray(entry)
    ? (entry as Record<string, unknown>).title
    : undefined;
  const title = typeof rawTitle === "string" ? rawTitle.trim().replace(/\p{Cc}/gu, " ") : "";
  const name = title === ""
    ? ""
    : ` ("${title.length > MAX_TITLE ? title.slice(0, MAX_TITLE) + "..." : title}")`;
  const prefix = `${at}: entry ${index}${name}`;
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
    throw new ConfigError(`${prefix}: expected a mapping with title and host`);
  }
  const out: Partial<Entry> = {
    port: 22,
    username: "admin",
    password: "",
    tags: [],
    readOnly: false,
    bastionOnly: false,
  };
  for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
    const field = FIELDS[key];
    if (!field) {
      const hint = key === "hostname" || key === "address" ? ' (did you mean "host"?)' : "";
      throw new ConfigError(
        `${prefix}: unknown field "${key}"${hint}; known fields: ${Object.keys(FIELDS).join(", ")}`,
      );
    }
    if (value === null || value === undefined) {
      throw new ConfigError(`${prefix}: field "${key}" has no value; give one or remove the line`);
    }
    try {
      (out as Record<string, unknown>)[field[0]] = field[1](value);
    } catch (err) {
      throw new ConfigError(`${prefix}: field "${key}" ${(err as Error).message}`);
    }
  }
  for (const required of ["title", "host"] as const) {
    if (out[required] === undefined) {
      throw new ConfigError(`${prefix}: field "${required}" is required`);
    }
  }
  return out as Entry;
}

/** Read and parse an inventory file, with clear errors for the usual mistakes. */
export function readInventoryFile(path: string, container: boolean): DeviceConfig[] {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    throw new ConfigError(fileError(path, err as Error, container));
  }
  if (info.isDirectory) {
    throw new ConfigError(
      `inventory file ${path} is a directory, not a file.` +
        (container
          ? " Docker creates an empty directory when the host file named in -v does not exist." +
            " Remove that directory on the host, create the YAML file in its place, then mount it:" +
            ` ${mountExample(path)}`
          : " Point --inventory-file / ROUTER_INVENTORY_FILE at a YAML file."),
    );
  }
  if (info.size > MAX_INVENTORY_BYTES) {
    throw new ConfigError(
      `inventory file ${path} is larger than ${MAX_INVENTORY_BYTES} bytes; is it the right file?`,
    );
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    throw new ConfigError(fileError(path, err as Error, container));
  }
  return parseInventory(text, { file: path });
}

function fileError(path: string, err: Error, container: boolean): string {
  const what = err instanceof Deno.errors.NotFound
    ? "does not exist"
    : err instanceof Deno.errors.PermissionDenied
    ? "cannot be read (permission denied)"
    : `cannot be read (${err.message})`;
  const fix = container
    ? ` Mount it read-only, e.g. ${
      mountExample(path)
    }, and make it readable by the container's user (uid ${containerUid()}).`
    : " Check --inventory-file / ROUTER_INVENTORY_FILE.";
  return `inventory file ${path} ${what}.${fix}`;
}

/**
 * A `docker run -v` option that mounts `inventory.yaml` from the current host
 * directory at the path the container looks for (relative paths resolve
 * against the working directory, /config in the image).
 */
function mountExample(path: string): string {
  let target = path;
  if (!target.startsWith("/")) {
    let cwd = "/config";
    try {
      cwd = Deno.cwd();
    } catch { /* keep the image's working directory */ }
    target = `${cwd.replace(/\/+$/, "")}/${target.replace(/^\.\//, "")}`;
  }
  const name = target.slice(target.lastIndexOf("/") + 1) || "inventory.yaml";
  return `-v "$PWD/${name}:${target}:ro"`;
}

/** The uid the process runs as (65532 in the distroless nonroot image). */
function containerUid(): string {
  try {
    return String(Deno.uid() ?? 65532);
  } catch {
    return "65532";
  }
}

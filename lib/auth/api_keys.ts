/**
 * The API keys file: who may call the HTTP transports and the REST proxy,
 * with which role and on which devices. Keys are stored hashed
 * (`sha256:<hex>` of the key, made by `mcp-server-router auth hash-key`),
 * so the file reveals no key; a presented key is hashed and compared with
 * every entry in constant time.
 *
 * ```yaml
 * keys:
 *   - name: grafana          # in every audit line
 *     hash: sha256:5e88...   # mcp-server-router auth hash-key < key.txt
 *     role: read             # metrics, read, operate or admin
 *     devices: [core-1]      # optional scope: device titles ...
 *     tags: [lab]            # ... and/or tags (a device matching either)
 * ```
 *
 * Every mistake names the file, the entry, the field and the fix, like the
 * inventory's; an entry holding a key in clear is refused.
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { ConfigError } from "../config/errors.ts";
import { type Principal, type Role, ROLES } from "./principal.ts";

/** One key of the file. */
export interface ApiKey {
  name: string;
  /** SHA-256 of the key. */
  digest: Uint8Array;
  role: Role;
  devices?: string[];
  tags?: string[];
}

/** Largest keys file read, in bytes. */
export const MAX_KEYS_FILE_BYTES = 1024 * 1024;
/** Longest key name. */
const MAX_NAME = 64;
const HASH = /^sha256:([0-9a-f]{64})$/;
const FIELDS = ["name", "hash", "role", "devices", "tags"];

/** `sha256:<hex>` of a key, the form the file stores. */
export function hashKey(key: string): string {
  return `sha256:${createHash("sha256").update(key, "utf8").digest("hex")}`;
}

/** A new random key: 32 bytes, base64url (43 characters, fit for a Bearer header). */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The key of `keys` that `presented` is, or undefined. Every entry is
 * compared, in time independent of where (or whether) it matches.
 */
export function findKey(keys: readonly ApiKey[], presented: string): ApiKey | undefined {
  const digest = createHash("sha256").update(presented, "utf8").digest();
  let found: ApiKey | undefined;
  for (const k of keys) {
    if (timingSafeEqual(digest, k.digest) && !found) found = k;
  }
  return found;
}

/** The principal a key authenticates. */
export function keyPrincipal(key: ApiKey): Principal {
  const scoped = key.devices !== undefined || key.tags !== undefined;
  return {
    name: key.name,
    role: key.role,
    ...(scoped ? { scopes: [{ devices: key.devices ?? [], tags: key.tags ?? [] }] } : {}),
  };
}

/**
 * Check the parsed document of a keys file (`source` names it in errors).
 * `doc` is YAML or JSON already parsed into plain values.
 */
export function parseApiKeys(doc: unknown, source: string): ApiKey[] {
  const fail = (message: string): never => {
    throw new ConfigError(`API keys file ${source}: ${message}`);
  };
  const shape = 'expected a mapping with a "keys:" list, such as keys: [{name: ci, hash: ' +
    "sha256:..., role: read}]";
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) fail(shape);
  const root = doc as Record<string, unknown>;
  const extra = Object.keys(root).filter((k) => k !== "keys");
  if (extra.length) fail(`unknown top-level key "${extra[0]}"; ${shape}`);
  if (!Array.isArray(root.keys)) fail(shape);
  const list = root.keys as unknown[];
  const keys = list.map((entry, i) => parseEntry(entry, i + 1, fail));
  const names = new Map<string, number>();
  const hashes = new Map<string, number>();
  keys.forEach((k, i) => {
    const hex = Array.from(k.digest, (b) => b.toString(16).padStart(2, "0")).join("");
    const sameName = names.get(k.name.toLowerCase());
    if (sameName !== undefined) {
      fail(`entry ${i + 1} ("${k.name}"): name duplicates entry ${sameName}; names must be unique`);
    }
    const sameHash = hashes.get(hex);
    if (sameHash !== undefined) {
      fail(
        `entry ${i + 1} ("${k.name}"): field "hash" is the same key as entry ${sameHash}; ` +
          "give each client its own key (mcp-server-router auth new-key)",
      );
    }
    names.set(k.name.toLowerCase(), i + 1);
    hashes.set(hex, i + 1);
  });
  return keys;
}

function parseEntry(entry: unknown, index: number, fail: (m: string) => never): ApiKey {
  const rawName = typeof entry === "object" && entry !== null
    ? (entry as Record<string, unknown>).name
    : undefined;
  const label = typeof rawName === "string" && rawName.trim() !== ""
    ? ` ("${rawName.trim().slice(0, MAX_NAME).replace(/\p{Cc}/gu, "?")}")`
    : "";
  const at = `entry ${index}${label}`;
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return fail(`${at}: expected a mapping with name, hash and role`);
  }
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (key === "key" || key === "secret" || key === "token") {
      fail(
        `${at}: field "${key}" would hold the key in clear; store its hash instead: ` +
          `hash: sha256:... from "mcp-server-router auth hash-key" (the key on stdin)`,
      );
    }
    if (!FIELDS.includes(key)) {
      fail(`${at}: unknown field "${key}"; the fields are ${FIELDS.join(", ")}`);
    }
  }
  const name = typeof e.name === "string" ? e.name.trim() : "";
  if (name === "") fail(`${at}: field "name" is required: who uses the key (it is in audit lines)`);
  if (name.length > MAX_NAME || /[\p{Cc}]/u.test(name)) {
    fail(`${at}: field "name" must be one line of at most ${MAX_NAME} characters`);
  }
  const hash = typeof e.hash === "string" ? e.hash.trim().toLowerCase() : undefined;
  if (hash === undefined) {
    fail(
      `${at}: field "hash" is required: sha256:<64 hex digits> of the key, from ` +
        '"mcp-server-router auth hash-key" (the key on stdin)',
    );
  }
  const m = HASH.exec(hash!);
  if (!m) {
    fail(
      `${at}: field "hash" must be sha256: followed by 64 hex digits, as ` +
        '"mcp-server-router auth hash-key" prints it',
    );
  }
  if (e.role === undefined) fail(`${at}: field "role" is required: ${ROLES.join(", ")}`);
  if (!(ROLES as readonly unknown[]).includes(e.role)) {
    fail(`${at}: field "role" must be one of ${ROLES.join(", ")}, not ${JSON.stringify(e.role)}`);
  }
  const list = (field: "devices" | "tags"): string[] | undefined => {
    const v = e[field];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length === 0 || v.some((s) => typeof s !== "string" || !s.trim())) {
      return fail(
        `${at}: field "${field}" must be a non-empty list of ${
          field === "devices" ? "device titles" : "tags"
        }, such as [core-1, edge-2]; leave it out for every device`,
      );
    }
    return (v as string[]).map((s) => s.trim());
  };
  const devices = list("devices");
  const tags = list("tags");
  if (e.role === "metrics" && (devices || tags)) {
    fail(
      `${at}: a key with the metrics role reads the metrics of the whole fleet, so it takes ` +
        'no "devices" or "tags"; remove them',
    );
  }
  const digest = new Uint8Array(32);
  for (let i = 0; i < 32; i++) digest[i] = parseInt(m![1].slice(i * 2, i * 2 + 2), 16);
  return { name, digest, role: e.role as Role, devices, tags };
}

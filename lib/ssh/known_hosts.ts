/**
 * OpenSSH `known_hosts` files: parsing (plain names, `[host]:port`, wildcard
 * patterns with `!` negation, hashed `|1|salt|hash` names, `@revoked`
 * lines), lookup by host and port, fingerprints and appending new keys.
 *
 * @module
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";

/** One key line of a known_hosts file. */
export interface KnownHostEntry {
  /** 1-based line number, for messages. */
  line: number;
  /** `@revoked` or `@cert-authority`, if the line has a marker. */
  marker?: "revoked" | "cert-authority";
  /** The host patterns field as written (or the hashed name). */
  hosts: string;
  /** Key type as written, e.g. `ssh-ed25519`. */
  keyType: string;
  /** The key blob (SSH wire format). */
  key: Uint8Array;
}

/** A parsed known_hosts file. */
export interface KnownHosts {
  /** The file path, for messages. */
  path: string;
  entries: KnownHostEntry[];
}

/** The name OpenSSH looks up: `host` on port 22, `[host]:port` otherwise. */
export function knownHostName(host: string, port: number): string {
  const h = host.toLowerCase();
  return port === 22 ? h : `[${h}]:${port}`;
}

/** `SHA256:...` fingerprint of a key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(key: Uint8Array): string {
  const digest = createHash("sha256").update(key).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}

/** The key type stored at the start of a key blob (`ssh-ed25519`, ...). */
export function keyTypeOf(key: Uint8Array): string {
  if (key.length < 4) return "unknown";
  const len = new DataView(key.buffer, key.byteOffset, key.byteLength).getUint32(0);
  if (len > key.length - 4 || len > 64) return "unknown";
  return new TextDecoder().decode(key.subarray(4, 4 + len));
}

/** Parse known_hosts text. Lines that cannot be parsed are skipped, as OpenSSH does. */
export function parseKnownHosts(text: string, path: string): KnownHosts {
  const entries: KnownHostEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === "" || raw.startsWith("#")) continue;
    const fields = raw.split(/[ \t]+/);
    let marker: KnownHostEntry["marker"];
    if (fields[0].startsWith("@")) {
      const m = fields.shift();
      if (m === "@revoked") marker = "revoked";
      else if (m === "@cert-authority") marker = "cert-authority";
      else continue;
    }
    if (fields.length < 3) continue;
    const [hosts, keyType, b64] = fields;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) continue;
    const key = new Uint8Array(Buffer.from(b64, "base64"));
    if (keyTypeOf(key) !== keyType) continue;
    entries.push({ line: i + 1, marker, hosts, keyType, key });
  }
  return { path, entries };
}

/** Whether `name` matches an OpenSSH wildcard pattern (`*`, `?`). */
function wildcardMatch(pattern: string, name: string): boolean {
  let re = "^";
  for (const ch of pattern) {
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(re + "$", "i").test(name);
}

function hashedMatch(field: string, name: string): boolean {
  const parts = field.split("|");
  // "|1|salt|hash" splits into ["", "1", salt, hash]
  if (parts.length !== 4 || parts[1] !== "1") return false;
  const salt = Buffer.from(parts[2], "base64");
  const want = Buffer.from(parts[3], "base64");
  const got = createHmac("sha1", salt).update(name).digest();
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Whether an entry's host field names `name` (already in `knownHostName` form). */
export function hostsFieldMatches(field: string, name: string): boolean {
  if (field.startsWith("|")) return hashedMatch(field, name);
  let matched = false;
  for (const pattern of field.split(",")) {
    if (pattern === "") continue;
    const negated = pattern.startsWith("!");
    const p = negated ? pattern.slice(1) : pattern;
    if (wildcardMatch(p, name)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

/** Every entry that names this host and port. */
export function entriesFor(known: KnownHosts, host: string, port: number): KnownHostEntry[] {
  const name = knownHostName(host, port);
  return known.entries.filter((e) => hostsFieldMatches(e.hosts, name));
}

/** Byte-wise equality of two key blobs. */
export function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Read and parse a known_hosts file; a missing file is an empty one. */
export async function readKnownHosts(path: string): Promise<KnownHosts> {
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return parseKnownHosts(text, path);
}

/** The known_hosts line recording `key` for host and port. */
export function knownHostsLine(host: string, port: number, key: Uint8Array): string {
  const b64 = Buffer.from(key).toString("base64");
  return `${knownHostName(host, port)} ${keyTypeOf(key)} ${b64}`;
}

/**
 * Append a key line, creating the file (mode 600) and its directories
 * (mode 700) when missing, and starting on a new line if the file lacks a
 * final newline.
 */
export async function appendKnownHost(
  path: string,
  host: string,
  port: number,
  key: Uint8Array,
): Promise<void> {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  if (dir !== "") await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  let prefix = "";
  try {
    const existing = await Deno.readFile(path);
    if (existing.length > 0 && existing[existing.length - 1] !== 0x0a) prefix = "\n";
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const text = `${prefix}${knownHostsLine(host, port, key)}\n`;
  await Deno.writeTextFile(path, text, { append: true, create: true, mode: 0o600 });
}

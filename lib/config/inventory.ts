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
import { ConfigError } from "./errors.ts";
import { CONTROL } from "./parsers.ts";

/** One router, as configured. */
export interface DeviceConfig {
  title: string;
  host: string;
  port: number;
  username: string;
  password?: string;
  keyFilename?: string;
  keyPassphrase?: string;
  region?: string;
  tags: string[];
  /** Pinned host key fingerprint (`SHA256:...`). */
  hostKey?: string;
  /** Per-device timeouts in seconds (override the global ones). */
  connectTimeout?: number;
  commandTimeout?: number;
  /** Refuse write tools on this device. */
  readOnly: boolean;
}

type FieldCheck = (value: unknown) => unknown;

/** Longest device title (titles are the `device` enum of every tool in fleet mode). */
export const MAX_TITLE = 64;
/** Longest host name (DNS allows 253 characters). */
export const MAX_HOST = 253;
/** Longest user name, region or tag. */
export const MAX_NAME = 64;
/** Longest password or key passphrase. */
export const MAX_SECRET = 1024;
/** Longest key file path. */
export const MAX_PATH = 4096;
/** Most tags on one device. */
export const MAX_TAGS = 32;
/** Largest inventory file or inline inventory, in bytes. */
export const MAX_INVENTORY_BYTES = 4 * 1024 * 1024;

/** Any text up to `max` characters (a password, which may be empty). */
function str(max: number): (value: unknown) => string {
  return (value) => {
    if (typeof value !== "string") throw new Error("must be text, not a list or mapping");
    if (value.length > max) throw new Error(`must be at most ${max} characters`);
    return value;
  };
}

/** Trimmed, non-empty text on one line, up to `max` characters. */
function line(max: number): (value: unknown) => string {
  return (value) => {
    const s = str(Infinity)(value).trim();
    if (s === "") throw new Error("must not be empty");
    if (s.length > max) throw new Error(`must be at most ${max} characters (found ${s.length})`);
    if (CONTROL.test(s)) throw new Error("must not contain control characters or line breaks");
    return s;
  };
}

function port(value: unknown): number {
  const t = typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,5}$/.test(t) || Number(t) < 1 || Number(t) > 65535) {
    throw new Error("must be a port number from 1 to 65535 in plain decimal digits");
  }
  return Number(t);
}

function timeout(value: unknown): number {
  const t = typeof value === "string" ? value.trim() : "";
  const n = Number(t);
  if (!/^\d{1,5}(\.\d{1,9})?$/.test(t) || n < 0.1 || n > 3600) {
    throw new Error(
      "must be a number of seconds from 0.1 to 3600 in plain decimal (like 5 or 2.5)",
    );
  }
  return n;
}

function tags(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((t) => typeof t !== "string")) {
    throw new Error("must be a list of strings, e.g. [core, lab]");
  }
  if (value.length > MAX_TAGS) throw new Error(`must hold at most ${MAX_TAGS} tags`);
  return value.map((t, i) => {
    try {
      return line(MAX_NAME)(t);
    } catch (err) {
      throw new Error(`item ${i + 1} ${(err as Error).message}`);
    }
  });
}

function bool(value: unknown): boolean {
  const t = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (t === "true") return true;
  if (t === "false") return false;
  throw new Error("must be true or false");
}

function fingerprint(value: unknown): string {
  const s = str(100)(value).trim();
  if (!/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(s)) {
    throw new Error("must be an OpenSSH fingerprint like SHA256:abc... (ssh-keygen -lf)");
  }
  return s.replace(/=$/, "");
}

/** Inventory fields: YAML name → [config name, check]. */
const FIELDS: Record<string, [keyof DeviceConfig, FieldCheck]> = {
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
  const devices = doc.map((entry, i) => parseEntry(entry, i + 1, at));
  const seen = new Map<string, number>();
  devices.forEach((d, i) => {
    const k = d.title.toLowerCase();
    const first = seen.get(k);
    if (first !== undefined) {
      throw new ConfigError(
        `${at}: entry ${i + 1} ("${d.title}"): title duplicates entry ${first} ("${
          devices[first - 1].title
        }"); titles must be unique, ignoring case`,
      );
    }
    seen.set(k, i + 1);
  });
  return devices;
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

function parseEntry(entry: unknown, index: number, at: string): DeviceConfig {
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
  const out: Partial<DeviceConfig> = {
    port: 22,
    username: "admin",
    password: "",
    tags: [],
    readOnly: false,
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
  return out as DeviceConfig;
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

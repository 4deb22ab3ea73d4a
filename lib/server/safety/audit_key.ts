/**
 * The audit log's optional key (`--audit-key-file`, `audit verify
 * --key-file`): with it each entry is sealed with HMAC-SHA256 instead of a
 * bare SHA-256, and so is the anchor, so an entry edited and re-sealed by
 * someone without the key no longer verifies.
 *
 * The file holds the key itself: at least 32 bytes (a trailing newline is
 * not part of it), for example `head -c 32 /dev/urandom > FILE` or
 * `openssl rand -hex 32 > FILE`. Anyone who can read it can forge entries,
 * so a file that other users may read or write, or that its group may
 * write, is refused (chmod 600, or 640 for a group of auditors). Its
 * content is never logged or shown: the key is named by its id, the first
 * 16 hex digits of an HMAC of a fixed text.
 *
 * @module
 */

/** A key the log is sealed with. */
export interface AuditKey {
  /** Names the key in the anchor and in messages (not secret). */
  readonly id: string;
  /** HMAC-SHA256 of `text` with the key, lowercase hex. */
  mac(text: string): Promise<string>;
}

/** A key file that cannot be used. */
export class AuditKeyError extends Error {}

/** Fewest bytes a key may have. */
const MIN_BYTES = 32;
/** Most bytes read from a key file (a key is short; a large file is a mistake). */
const MAX_BYTES = 4096;
const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A key from its bytes. */
export async function auditKeyOf(bytes: Uint8Array): Promise<AuditKey> {
  const key = await crypto.subtle.importKey(
    "raw",
    bytes as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = async (text: string) =>
    hex(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
  const id = (await mac("mcp-server-router audit key id")).slice(0, 16);
  return { id, mac };
}

/** `0644` for a file mode. */
function octal(mode: number): string {
  return "0" + (mode & 0o777).toString(8);
}

/**
 * Read a key file, refusing one that others may read or write (its group may
 * read it), one that is not a regular file, and one too short or too long.
 */
export async function readAuditKey(path: string): Promise<AuditKey> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    throw new AuditKeyError(`audit key file ${path} cannot be read: ${(err as Error).message}`);
  }
  if (!info.isFile) throw new AuditKeyError(`audit key file ${path} is not a regular file`);
  if (info.mode !== null && (info.mode & 0o027) !== 0) {
    throw new AuditKeyError(
      `audit key file ${path} may be ${
        info.mode & 0o007 ? "read or written by other users" : "written by its group"
      } (mode ${octal(info.mode)}), so anyone among them could forge the audit log: ` +
        `chmod 600 ${path} (or 640 for a group of auditors)`,
    );
  }
  if (info.size > MAX_BYTES) {
    throw new AuditKeyError(`audit key file ${path} holds ${info.size} bytes; a key is 32 to 4096`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    throw new AuditKeyError(`audit key file ${path} cannot be read: ${(err as Error).message}`);
  }
  let end = bytes.length;
  if (bytes[end - 1] === 0x0a) end--;
  if (bytes[end - 1] === 0x0d) end--;
  if (end < MIN_BYTES) {
    throw new AuditKeyError(
      `audit key file ${path} holds ${end} bytes; a key needs at least ${MIN_BYTES} ` +
        `(e.g. head -c 32 /dev/urandom > ${path}; chmod 600 ${path})`,
    );
  }
  return await auditKeyOf(bytes.subarray(0, end));
}

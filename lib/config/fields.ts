/**
 * The value checks of inventory fields and their limits: each reads a YAML
 * value as the text written and returns it typed, or throws an Error that
 * says the accepted form (the caller adds the entry and the field). Errors
 * never show the value, which may be a secret.
 *
 * @module
 */
import { CONTROL } from "./parsers.ts";

/** A field's check: the YAML value to the typed value, or an Error saying the accepted form. */
export type FieldCheck = (value: unknown) => unknown;

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
export function str(max: number): (value: unknown) => string {
  return (value) => {
    if (typeof value !== "string") throw new Error("must be text, not a list or mapping");
    if (value.length > max) throw new Error(`must be at most ${max} characters`);
    return value;
  };
}

/** Trimmed, non-empty text on one line, up to `max` characters. */
export function line(max: number): (value: unknown) => string {
  return (value) => {
    const s = str(Infinity)(value).trim();
    if (s === "") throw new Error("must not be empty");
    if (s.length > max) throw new Error(`must be at most ${max} characters (found ${s.length})`);
    if (CONTROL.test(s)) throw new Error("must not contain control characters or line breaks");
    return s;
  };
}

/** A TCP port, 1 to 65535, in plain decimal digits. */
export function port(value: unknown): number {
  const t = typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,5}$/.test(t) || Number(t) < 1 || Number(t) > 65535) {
    throw new Error("must be a port number from 1 to 65535 in plain decimal digits");
  }
  return Number(t);
}

/** A timeout in seconds, 0.1 to 3600, in plain decimal. */
export function timeout(value: unknown): number {
  const t = typeof value === "string" ? value.trim() : "";
  const n = Number(t);
  if (!/^\d{1,5}(\.\d{1,9})?$/.test(t) || n < 0.1 || n > 3600) {
    throw new Error(
      "must be a number of seconds from 0.1 to 3600 in plain decimal (like 5 or 2.5)",
    );
  }
  return n;
}

/** A list of tags, each a one-line name. */
export function tags(value: unknown): string[] {
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

/** `true` or `false`. */
export function bool(value: unknown): boolean {
  const t = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (t === "true") return true;
  if (t === "false") return false;
  throw new Error("must be true or false");
}

/** An OpenSSH host key fingerprint, `SHA256:...`, without its padding. */
export function fingerprint(value: unknown): string {
  const s = str(100)(value).trim();
  if (!/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(s)) {
    throw new Error("must be an OpenSSH fingerprint like SHA256:abc... (ssh-keygen -lf)");
  }
  return s.replace(/=$/, "");
}

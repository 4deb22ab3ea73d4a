/**
 * The value parsers of the settings table: each turns a raw flag or
 * environment text into a typed value, or throws an Error whose message
 * says the accepted form (the caller adds which flag or variable it was).
 *
 * Numbers are plain decimal only: `0x10`, `1e3`, `Infinity` and blanks are
 * refused rather than read as something the user did not write.
 *
 * @module
 */

import { parseRelease } from "../routeros/release.ts";

/**
 * What lib/config must know but may not import (the flow runs main.ts ->
 * lib/config -> lib/server -> lib/tools): main.ts passes it in.
 */
export interface Vocabulary {
  /** The toolset names `--toolsets` accepts besides `all`; unchecked when absent. */
  toolsets?: readonly string[];
  /** Throws, saying why, for `--mcp.allowed-hosts` entries the HTTP guard would refuse. */
  checkAllowedHosts?: (entries: readonly string[]) => void;
  /** Throws, saying why, for `--mcp.allowed-origins` entries the HTTP guard would refuse. */
  checkAllowedOrigins?: (entries: readonly string[]) => void;
}

/** A parser's error that names the offending part of a list (`"routingg"` of `ip,routingg`). */
export class BadPart extends Error {
  /** The part of the raw value that is wrong. */
  readonly part: string;
  constructor(part: string, message: string) {
    super(message);
    this.part = part;
  }
}

/** A parser: raw text (and what the caller knows, if anything) to a value. */
export type Parser<T> = (raw: string, known?: Vocabulary) => T;

/** The longest text setting accepted (a host name is at most 253 characters). */
export const MAX_TEXT = 4096;

/** Control characters (line breaks included), which no one-line setting may hold. */
export const CONTROL: RegExp = /\p{Cc}/u;

/** Any text up to {@linkcode MAX_TEXT} characters, empty included (a password may be empty). */
export const text: Parser<string> = (raw) => {
  if (raw.length > MAX_TEXT) throw new Error(`expected at most ${MAX_TEXT} characters`);
  return raw;
};

/** Non-empty text on one line, at most `max` characters, trimmed. */
export function nonEmpty(what: string, max = MAX_TEXT): Parser<string> {
  return (raw) => {
    const t = raw.trim();
    if (t === "") throw new Error(`expected ${what}, not an empty value`);
    if (t.length > max) throw new Error(`expected ${what} of at most ${max} characters`);
    if (CONTROL.test(t)) throw new Error(`expected ${what} without control characters`);
    return t;
  };
}

/** Non-empty text of several lines (an inline YAML document), at most `max` characters. */
export function document(what: string, max: number): Parser<string> {
  return (raw) => {
    if (raw.trim() === "") throw new Error(`expected ${what}, not an empty value`);
    if (raw.length > max) throw new Error(`expected ${what} of at most ${max} characters`);
    return raw;
  };
}

/** A whole number from `min` to `max`, in plain decimal digits. */
export function integer(min: number, max: number): Parser<number> {
  return (raw) => {
    const t = raw.trim();
    if (!/^\d{1,16}$/.test(t) || Number(t) < min || Number(t) > max) {
      throw new Error(`expected a whole number from ${min} to ${max} in plain decimal digits`);
    }
    return Number(t);
  };
}

/** A number of seconds from `min` to `max`, plain decimal (`15`, `7.5`). */
export function seconds(min: number, max: number): Parser<number> {
  return (raw) => {
    const t = raw.trim();
    const n = Number(t);
    if (!/^\d{1,16}(\.\d{1,9})?$/.test(t) || n < min || n > max) {
      throw new Error(
        `expected a number of seconds from ${min} to ${max} in plain decimal (like 15 or 7.5)`,
      );
    }
    return n;
  };
}

/** One of the listed words. */
export function oneOf<const T extends string>(values: readonly T[]): Parser<T> {
  return (raw) => {
    const t = raw.trim();
    if (!(values as readonly string[]).includes(t)) {
      throw new Error(`expected one of: ${values.join(", ")}`);
    }
    return t as T;
  };
}

/** Parse an on/off value from the environment (`1`, `true`, `yes`, `0`, ...). */
export function parseSwitch(raw: string): boolean {
  const t = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(t)) return true;
  if (["0", "false", "no", "off", ""].includes(t)) return false;
  throw new Error("expected true or false (1/0, yes/no, on/off)");
}

/** The non-empty items of a comma-separated list, trimmed. */
export function splitList(raw: string): string[] {
  return raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/** `--toolsets`: `all`, or a comma list of known toolset names (never empty). */
export const toolsetList: Parser<string[]> = (raw, known = {}) => {
  const names = [...new Set(splitList(raw))];
  const form = known.toolsets
    ? `default, all, or a comma list of: ${known.toolsets.join(", ")}`
    : "default, all, or a comma list of toolset names";
  if (names.length === 0) throw new Error(`expected ${form}`);
  for (const alone of ["all", "default"]) {
    if (names.includes(alone)) {
      if (names.length > 1) throw new Error(`"${alone}" stands alone; expected ${form}`);
      return names;
    }
  }
  const unknown = known.toolsets ? names.filter((n) => !known.toolsets!.includes(n)) : [];
  if (unknown.length > 0) throw new BadPart(unknown[0], `no such toolset; expected ${form}`);
  return names;
};

/** A RouterOS release from 6.49 on, such as 6.49.13, 7.16.2 or 7.24. */
export const routerRelease: Parser<string> = (raw) => {
  const r = parseRelease(raw.trim());
  if (!r || r.major < 6 || (r.major === 6 && r.minor < 49)) {
    throw new Error("expected a RouterOS release from 6.49 on, such as 6.49.13, 7.16.2 or 7.24");
  }
  return r.text;
};

/** A comma list checked by the injected check (the HTTP guard's own parser). */
export function checkedList(
  check: (known: Vocabulary) => ((entries: readonly string[]) => void) | undefined,
): Parser<string[]> {
  return (raw, known = {}) => {
    const entries = splitList(raw);
    check(known)?.(entries);
    return entries;
  };
}

/** An absolute http:// or https:// URL without a fragment. */
export const httpUrl: Parser<string> = (raw) => {
  const t = raw.trim();
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    throw new BadPart(t, "expected an absolute URL such as https://auth.example.com");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hash || CONTROL.test(t)) {
    throw new BadPart(t, "expected an http:// or https:// URL without a #fragment");
  }
  return t;
};

/** A comma list of http(s) URLs (never empty). */
export const urlList: Parser<string[]> = (raw) => {
  const urls = splitList(raw).map((u) => httpUrl(u));
  if (urls.length === 0) throw new Error("expected one or more URLs, comma-separated");
  return urls;
};

/** Three OAuth scope names, comma-separated: those of the read, operate and admin roles. */
export const roleScopes: Parser<string[]> = (raw) => {
  const scopes = splitList(raw);
  if (scopes.length !== 3 || new Set(scopes).size !== 3 || scopes.some((s) => /[\s"\\]/.test(s))) {
    throw new Error(
      "expected three different scopes, comma-separated, for the roles read, operate and admin " +
        "(such as routers:read,routers:operate,routers:admin)",
    );
  }
  return scopes;
};

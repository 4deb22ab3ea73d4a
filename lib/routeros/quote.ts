/**
 * The one quoting function and the one allow-list check.
 *
 * Every value that reaches a router goes through {@linkcode quoteValue}; every
 * property name, menu word and item id goes through {@linkcode checkName},
 * {@linkcode checkMenuPath} or {@linkcode checkId}, and every name of a file
 * in the router's storage (in a command or an SFTP path) through
 * {@linkcode checkFileName}. Nothing else builds command text from untrusted
 * input.
 *
 * The rules follow RouterOS's console tokeniser: inside double quotes `$var`,
 * `$[cmd]` and `$(expr)` are still substituted and `?` opens help, so those
 * characters are escaped along with `\` and `"`. Control bytes become `\n`,
 * `\r`, `\t` or `\XX` with uppercase hex. Non-ASCII characters go as
 * uppercase `\XX` per UTF-8 byte, so the exec string is pure ASCII.
 *
 * @module
 */
import { echo } from "../echo.ts";

/** Raised when a name, path or id fails the allow-list. */
export class UnsafeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeInputError";
  }
}

const HEX = "0123456789ABCDEF";
/** Values whose every character is printable ASCII other than `\`, `"`, `$` and `?`. */
const PLAIN = /^[\x20\x21\x23\x25-\x3e\x40-\x5b\x5d-\x7e]*$/;
const encoder = new TextEncoder();

function hexByte(byte: number): string {
  return "\\" + HEX[byte >> 4] + HEX[byte & 0xf];
}

/**
 * Quote an arbitrary string as a RouterOS double-quoted value.
 *
 * The result is ASCII only and safe in any argument position:
 * `quoteValue('a"b$c')` gives `"a\"b\$c"`.
 */
export function quoteValue(value: string): string {
  // Printable ASCII but \ " $ ? stands for itself: no byte to escape.
  if (PLAIN.test(value)) return '"' + value + '"';
  let out = '"';
  for (const byte of encoder.encode(value)) {
    switch (byte) {
      case 0x5c: // backslash
        out += "\\\\";
        break;
      case 0x22: // "
        out += '\\"';
        break;
      case 0x24: // $
        out += "\\$";
        break;
      case 0x3f: // ?
        out += "\\?";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      default:
        out += byte < 0x20 || byte >= 0x7f ? hexByte(byte) : String.fromCharCode(byte);
    }
  }
  return out + '"';
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;
/** Properties may be dotted (`configuration.ssid` of `/interface wifi`). */
const PROPERTY = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$/;
const ID = /^\*[0-9A-F]{1,8}$/;

/** RouterOS's own keys that start with a dot (item id, traceroute round). */
const INTERNAL_KEYS = new Set([".id", ".section"]);

/** True when `name` is a property or menu word RouterOS could have. */
export function isSafeName(name: string): boolean {
  return INTERNAL_KEYS.has(name) || PROPERTY.test(name);
}

/** Throw unless `name` is a safe property name or menu word; return it. */
export function checkName(name: string, what = "name"): string {
  if (!isSafeName(name)) {
    throw new UnsafeInputError(
      `${what} ${echo(name)} is not allowed: use lowercase letters, digits and '-'`,
    );
  }
  return name;
}

/** True when `id` is a RouterOS item id such as `*1A`. */
export function isItemId(id: string): boolean {
  return ID.test(id);
}

/** Throw unless `id` is a RouterOS item id (`*` plus uppercase hex); return it. */
export function checkId(id: string, what = "id"): string {
  if (!isItemId(id)) {
    throw new UnsafeInputError(
      `${what} ${
        JSON.stringify(id)
      } is not a RouterOS item id: expected '*' and uppercase hex, like *1A`,
    );
  }
  return id;
}

/**
 * Check a menu path such as `/ip/address` (or `ip address`) and return its
 * words. Each word must pass {@linkcode checkName}.
 */
export function checkMenuPath(path: string): string[] {
  const words = path.split(/[/ ]+/).filter((w) => w !== "");
  if (words.length === 0) throw new UnsafeInputError(`menu path ${echo(path)} is empty`);
  for (const w of words) {
    if (!NAME.test(w)) {
      throw new UnsafeInputError(
        `menu path ${echo(path)} is not allowed: word ${echo(w)}`,
      );
    }
  }
  return words;
}

/** One folder or file name: a letter, digit or `_` first, then letters, digits, ` ._+-`. */
const FILE_SEGMENT = "[A-Za-z0-9_][A-Za-z0-9 ._+-]*";
/** The pattern of {@linkcode isFileName} (for schemas; the length is checked apart). */
export const FILE_NAME_PATTERN = new RegExp(`^${FILE_SEGMENT}(/${FILE_SEGMENT})*$`);

/** Longest file name with its folders (RouterOS's own limit is about this). */
export const MAX_FILE_NAME = 255;

/**
 * True when `name` is a file name of the router's storage this product will
 * use: folders separated by `/` (`flash/notes.txt`), no leading `/`, no
 * empty, `.` or `..` part (a part cannot start with `.`), no control
 * characters or quotes.
 */
export function isFileName(name: string): boolean {
  return name.length <= MAX_FILE_NAME && FILE_NAME_PATTERN.test(name);
}

/** Throw unless `name` is a safe file name of the router's storage; return it. */
export function checkFileName(name: string, what = "file name"): string {
  if (!isFileName(name)) {
    throw new UnsafeInputError(
      `${what} ${JSON.stringify(name)} is not allowed: ${FILE_NAME_RULE}`,
    );
  }
  return name;
}

/** The rule of {@linkcode isFileName}, for messages. */
export const FILE_NAME_RULE = "use a name such as notes.txt or flash/notes.txt (letters, " +
  "digits, '.', '_', '-', '+' and spaces; folders separated by '/'; no part starting with '.')";

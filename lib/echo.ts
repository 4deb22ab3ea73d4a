/**
 * How an error shows a value a client sent: quoted, and cut to a short
 * excerpt with its full size, so a megabyte of input never comes back as
 * a megabyte of error (`"aaaa...(1048576 bytes)"`). Every error that echoes
 * client input (tool arguments, device names, resource URIs, JSON-RPC
 * requests) goes through here.
 *
 * @module
 */

/** Characters of a value shown before it is cut. */
export const ECHO_CHARS = 80;

const encoder = new TextEncoder();

/**
 * `value` as JSON (a string quoted), at most {@linkcode ECHO_CHARS}
 * characters of it followed by `...(N bytes)` when it is longer.
 */
export function echo(value: unknown, max = ECHO_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cut(text, max);
}

/** Text shown as it is, cut like {@linkcode echo} when it is longer than `max`. */
export function cut(text: string, max = ECHO_CHARS): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}\u2026(${encoder.encode(text).length} bytes)`;
}

/**
 * What a backslash escape means inside a RouterOS string (`routeros-cli.md`:
 * `\n`, `\r`, `\t`, `\a`, `\b`, `\f`, `\v`, `\_` for a space, and `\XX` a
 * byte in hex; any other character after `\` stands for itself), for every
 * reader of quoted RouterOS text: exports and raw console commands. The
 * writing side is `quote.ts`.
 *
 * @module
 */

/** The one-letter escapes and the characters they stand for. */
export const LETTER_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  r: "\r",
  t: "\t",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  _: " ",
};

/** The character that `\` followed by `escape` (one character, or two hex digits) stands for. */
export function unescaped(escape: string): string {
  if (escape.length === 2) return String.fromCharCode(parseInt(escape, 16));
  return LETTER_ESCAPES[escape] ?? escape;
}

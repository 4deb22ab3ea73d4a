/**
 * Command output decoding: UTF-8, with bytes that are not valid UTF-8 kept
 * as Latin-1 characters instead of failing, and `\r\n` normalised to `\n`.
 *
 * @module
 */

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Concatenate chunks into one buffer. */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/**
 * Decode output bytes. Valid UTF-8 decodes as UTF-8; each byte of an invalid
 * sequence becomes the Latin-1 character of that byte (so `0xE9` reads `é`),
 * and the rest of the text is still decoded as UTF-8. `\r\n` becomes `\n`.
 */
export function decodeOutput(chunks: readonly Uint8Array[]): string {
  const bytes = joinChunks(chunks);
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = decodeMixed(bytes);
  }
  return text.replace(/\r\n/g, "\n");
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 if invalid. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1];
    if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
    if (c === 0xed && c1 > 0x9f) return 0; // surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1];
    if (c === 0xf0 && c1 < 0x90) return 0; // overlong
    if (c === 0xf4 && c1 > 0x8f) return 0; // above U+10FFFF
    return 4;
  }
  return 0;
}

function decodeMixed(bytes: Uint8Array): string {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (i > start) parts.push(strictUtf8.decode(bytes.subarray(start, i)));
    parts.push(String.fromCharCode(bytes[i]));
    i += 1;
    start = i;
  }
  if (start < bytes.length) parts.push(strictUtf8.decode(bytes.subarray(start)));
  return parts.join("");
}

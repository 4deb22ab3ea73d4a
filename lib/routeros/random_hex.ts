/**
 * Random hex strings for per-script section markers and change ids: 48 bits
 * from the platform's CSPRNG, so no value a router holds can predict one.
 * Bytes are drawn a few KiB at a time (one `getRandomValues` per script
 * cost a warm call as much as building the script) and never reused.
 *
 * @module
 */

const POOL_BYTES = 4096;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

let pool = new Uint8Array(0);
let at = 0;

/** `bytes` fresh random bytes as lowercase hex (12 characters by default). */
export function randomHex(bytes = 6): string {
  if (at + bytes > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(Math.max(POOL_BYTES, bytes)));
    at = 0;
  }
  let out = "";
  for (const end = at + bytes; at < end; at++) out += HEX[pool[at]];
  return out;
}

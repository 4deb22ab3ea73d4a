/** Random hex for section markers and change ids: shape, and no repeats across pool refills. */
import assert from "node:assert/strict";
import { randomHex } from "../../lib/routeros/random_hex.ts";

Deno.test("randomHex: 12 hex characters by default, other lengths on request, never repeated", () => {
  const seen = new Set<string>();
  // 20,000 draws of 6 bytes cross the 4 KiB pool about 30 times.
  for (let i = 0; i < 20_000; i++) {
    const h = randomHex();
    assert.match(h, /^[0-9a-f]{12}$/);
    seen.add(h);
  }
  assert.equal(seen.size, 20_000);
  assert.match(randomHex(16), /^[0-9a-f]{32}$/);
  assert.match(randomHex(5000), /^[0-9a-f]{10000}$/);
  // Every nibble value turns up (the table covers all 256 bytes).
  const nibbles = new Set([...seen].join(""));
  assert.equal(nibbles.size, 16);
});

/**
 * Property test of the one quoting function, end to end: for arbitrary
 * Unicode strings (with `"`, `\`, `$`, `[`, `]`, `;`, `?`, newlines, control
 * bytes and emoji mixed in), a value stored through the product (an MCP
 * tool over SSH) and read back on the simulator is byte-identical, and no
 * other state changes.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { startSimulator } from "../lib/sim/mod.ts";
import { type Item, ok, startRig } from "./helpers/catalogue.ts";

const SPECIAL = [
  '"',
  "\\",
  "$",
  "[",
  "]",
  ";",
  "?",
  "\n",
  "\r",
  "\t",
  "\x00",
  "\x1b",
  "\x7f",
  "{",
  "}",
  "(",
  ")",
  "=",
  " ",
  "✅",
  "🎉",
  "é",
  "\u2028",
];

/** Strings mixing arbitrary code points with the characters that matter to RouterOS. */
const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...SPECIAL), maxLength: 40 }),
  fc.array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: "binary", maxLength: 4 })), {
    maxLength: 20,
  }).map((parts) => parts.join("")),
).filter((s) => s.isWellFormed());

Deno.test("quoting property: any string stored through a tool reads back byte-identical", async () => {
  const rig = await startRig("7.16", [], (version) => startSimulator({ version }));
  const { sim, session } = rig;
  try {
    const target = sim.items("/ip/address")[0];
    const id = target[".id"];
    const original = target.comment ?? "";
    const rest = (items: Record<string, string>[]) =>
      items.map((i) => i[".id"] === id ? { ...i, comment: "" } : i);
    const config = () => sim.export().replace(/^# .* by RouterOS .*\n/, "");
    await ok(session, "router_update_ip_address", { id, comment: original });
    const initial = config();
    const others = rest(sim.items("/ip/address"));
    await fc.assert(
      fc.asyncProperty(hostileString, async (value) => {
        const r = await ok(session, "router_update_ip_address", { id, comment: value });
        const stored = sim.items("/ip/address").find((i) => i[".id"] === id)!;
        assert.equal(stored.comment, value, "stored byte for byte");
        assert.equal((r.after as Item).comment, value, "read back byte for byte");
        assert.deepEqual(rest(sim.items("/ip/address")), others, "nothing else changed");
        await ok(session, "router_update_ip_address", { id, comment: original });
        assert.equal(config(), initial, "restoring the comment restores the whole router");
      }),
      { numRuns: 100 },
    );
  } finally {
    await rig.close();
  }
});

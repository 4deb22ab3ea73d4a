/**
 * `:serialize` on each simulated release, reached with the real OpenSSH
 * client, answers as the real release does (the per-release command trees
 * and MikroTik's Scripting manual; `../shared/routeros-cli.md`):
 *
 * | releases     | `:serialize to=json`                | `options=json.no-string-conversion` |
 * |--------------|-------------------------------------|-------------------------------------|
 * | up to 7.12   | `bad command name serialize`        | same                                |
 * | 7.13 to 7.15 | `{"number":1234,"string":1234.000000}` | `expected end of command` (no `options`) |
 * | 7.16.x       | same                                | `input does not match any value of options` |
 * | 7.17 and later | same                              | `{"number":1234,"string":"1234"}`   |
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { opensshAvailable, opensshExec } from "./helpers/openssh.ts";

const BUILD = ':local v [:toarray ""]; :set ($v->"string") "1234"; :set ($v->"number") (1234)';

const LINES = [
  `${BUILD}; :put [:serialize to=json value=$v]`,
  `${BUILD}; :put [:serialize to=json value=$v options=json.no-string-conversion]`,
];

const CONVERTED = '{"number":1234,"string":1234.000000}';

/** Expected answer of each line, by release. */
const EXPECTED: Record<string, (string | RegExp)[]> = {
  "6.49.13": [/^bad command name serialize/, /^bad command name serialize/],
  "7.12.2": [/^bad command name serialize/, /^bad command name serialize/],
  "7.13.5": [CONVERTED, /^expected end of command/],
  "7.15.3": [CONVERTED, /^expected end of command/],
  "7.16.2": [CONVERTED, "input does not match any value of options"],
  "7.17": [CONVERTED, '{"number":1234,"string":"1234"}'],
  "7.20.8": [CONVERTED, '{"number":1234,"string":"1234"}'],
  "7.24": [CONVERTED, '{"number":1234,"string":"1234"}'],
};

Deno.test({
  name: "sim: :serialize answers per release through the OpenSSH client",
  ignore: !opensshAvailable(),
  async fn() {
    for (const [version, expected] of Object.entries(EXPECTED)) {
      const sim = await startSimulator({ version });
      try {
        // One exec: newline-separated lines each run, even after an error.
        const out = await opensshExec(sim, LINES.join("\n"));
        const lines = out.replace(/\r/g, "").split("\n").filter((l) => l !== "");
        assert.equal(lines.length, expected.length, `${version}: ${out}`);
        expected.forEach((want, i) => {
          if (typeof want === "string") assert.equal(lines[i], want, `${version} line ${i + 1}`);
          else assert.match(lines[i], want, `${version} line ${i + 1}`);
        });
      } finally {
        await sim.close();
      }
    }
  },
});

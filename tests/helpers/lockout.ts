/**
 * What the lock-out tests check again and again: a write refused by the
 * lock-out guard (it asks for confirm and leaves the router as it was), a
 * write that goes through, and the commands sent checked against the
 * release's real command tree.
 *
 * @module
 */
import assert from "node:assert/strict";
import { inRange, release } from "../../lib/routeros/release.ts";
import { callTool, configOf, type McpSession } from "./mcp.ts";
import { ScriptChecker } from "./script_check.ts";
import { nearestTree, treesAvailable } from "./trees.ts";

/** Refused by the lock-out guard, saying `why` and asking for confirm; the router unchanged. */
export async function lockoutRefused(
  session: McpSession,
  sim: { export(): string },
  tool: string,
  args: Record<string, unknown>,
  why: RegExp,
): Promise<void> {
  const before = configOf(sim);
  const r = await callTool(session, tool, args);
  const text = r.content[0]?.text ?? "";
  assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)} should be refused: ${text}`);
  assert.match(text, /would cut this server's own access to device/, text);
  assert.match(text, why, text);
  assert.match(text, /needs confirm: true\. Nothing was done/, text);
  assert.equal(configOf(sim), before, `${tool} changed the router`);
}

/** The call goes through; its structured result (a write's `item`). */
export async function callOk(
  session: McpSession,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ item: { id: string } }> {
  const r = await callTool(session, tool, args);
  assert.notEqual(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.content[0]?.text}`);
  return r.structuredContent as { item: { id: string } };
}

/** Every command sent exists in the release's real command tree (skipped, saying why, without it). */
export function commandsInTree(version: string, commands: readonly string[]): void {
  if (!treesAvailable()) return console.log("SKIP tree check: ../shared/fidelity is absent");
  const tree = nearestTree(version);
  if (!tree) return console.log(`SKIP tree check: no real command tree of ${version}`);
  const checker = new ScriptChecker(tree);
  // 7.17 takes options=json.no-string-conversion, which the 7.16.2 tree cannot show.
  const newer = (m: string) =>
    inRange(release(version), { from: "7.17" }) &&
    m.startsWith("serialize options=json.no-string-conversion");
  const wrong = commands.flatMap((c) =>
    checker.check(c).filter((m) => !newer(m)).map((m) => `${m} in ${c.slice(0, 120)}`)
  );
  assert.deepEqual(wrong, [], `commands the ${version} tree lacks`);
}

/**
 * `mcp-server-router audit verify FILE`: check an audit log's hash chain and
 * name the first broken line.
 *
 * @module
 */
import { verifyChain } from "./audit_chain.ts";

/** Run the audit subcommand; returns the exit code. */
export async function runAuditCli(args: string[]): Promise<number> {
  const [verb, file, ...rest] = args;
  if (verb !== "verify" || !file || rest.length) {
    console.error("usage: mcp-server-router audit verify FILE");
    return 2;
  }
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    console.error(`error: cannot read audit log ${file}: ${(err as Error).message}`);
    return 2;
  }
  const r = await verifyChain(text);
  if (r.ok) {
    console.log(`${file}: OK, ${r.lines} lines, chain intact`);
    return 0;
  }
  console.log(`${file}: BROKEN at line ${r.brokenLine}: ${r.reason}`);
  return 1;
}

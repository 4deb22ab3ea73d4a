/**
 * `mcp-server-router audit`: check an audit log (`verify FILE`) or accept
 * one as it is (`anchor FILE`). Help goes to stdout with exit 0; a usage
 * error is one line on stderr with exit 2; verify exits 0 only for an
 * intact, anchored log and 1 otherwise.
 *
 * @module
 */
import { log } from "../../log.ts";
import { AnchorError, anchorPath, judgeLog, readAnchor, writeAnchor } from "./audit_anchor.ts";
import { verifyChain } from "./audit_chain.ts";

/** `audit --help`. */
export const AUDIT_HELP = `Usage: mcp-server-router audit <command> FILE

Check an audit log written with --audit-log. Each entry carries the hash of the
one before it (the chain), and FILE.anchor records the entry count and the last
entry's hash, so an edited, deleted, reordered or cut-off entry is found.

Commands:
  verify FILE   check the chain and the anchor; prints "OK, N entries, ...,
                last verified entry #N" and exits 0, or names the broken
                entry or the cut tail and exits 1
  anchor FILE   check the chain, then record its current end in FILE.anchor:
                accepts a log written before anchors existed, or whose
                anchor was lost (only after you have checked the log)

Options:
  -h, --help    show this help`;

/** A bad command line: exit 2, with a pointer to the help. */
class UsageError extends Error {}
/** A FILE that cannot be read: exit 2. */
class InputError extends Error {}

/** Run the audit subcommand with its arguments; resolves to the exit code. */
export async function runAuditCli(args: string[]): Promise<number> {
  if (args.some((a) => a === "-h" || a === "--help") || args[0] === "help") {
    console.log(AUDIT_HELP);
    return 0;
  }
  try {
    const [verb, file, ...rest] = args;
    if (verb === undefined) throw new UsageError("expected a command: verify or anchor");
    if (verb !== "verify" && verb !== "anchor") {
      throw new UsageError(`unknown command ${JSON.stringify(verb)}; expected verify or anchor`);
    }
    if (!file || file.startsWith("-")) throw new UsageError(`${verb} needs a FILE`);
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    return verb === "verify" ? await verify(file) : await anchor(file);
  } catch (err) {
    if (err instanceof InputError) log("error", `audit: ${err.message}`);
    else if (err instanceof UsageError) {
      log("error", `audit: ${err.message} (see: mcp-server-router audit --help)`);
    } else throw err;
    return 2;
  }
}

async function readLog(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new InputError(`cannot read audit log ${file}: ${(err as Error).message}`);
  }
}

async function verify(file: string): Promise<number> {
  const check = await verifyChain(await readLog(file));
  const anchor = await readAnchor(file).catch((err) => {
    if (err instanceof AnchorError) return err;
    throw err;
  });
  const verdict = judgeLog(file, check, anchor);
  console.log(`${file}: ${verdict.message}`);
  return verdict.ok ? 0 : 1;
}

async function anchor(file: string): Promise<number> {
  const check = await verifyChain(await readLog(file));
  if (!check.ok) {
    console.log(`${file}: not anchored: ${judgeLog(file, check, null).message}`);
    return 1;
  }
  const before = await readAnchor(file).catch(() => null);
  const head = check.heads[check.entries];
  await writeAnchor(file, { entries: check.entries, head });
  const replaced = before ? ` (it recorded ${before.entries} entries before)` : "";
  console.log(
    `${file}: anchored ${check.entries} entries in ${anchorPath(file)}${replaced}; ` +
      `audit verify now checks its tail`,
  );
  return 0;
}

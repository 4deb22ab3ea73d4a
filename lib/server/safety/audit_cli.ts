/**
 * `mcp-server-router audit`: check an audit log (`verify FILE`) or accept
 * one as it is (`anchor FILE`), with the key it is sealed with
 * (`--key-file KEY`) if any. Help goes to stdout with exit 0; a usage error
 * is one line on stderr with exit 2; verify exits 0 only for an intact,
 * anchored log (writes interrupted by a stop included: they are reported)
 * and 1 otherwise.
 *
 * @module
 */
import { log } from "../../log.ts";
import { AnchorError, anchorPath, judgeLog, readAnchor, writeAnchor } from "./audit_anchor.ts";
import { verifyChain } from "./audit_chain.ts";
import { type AuditKey, AuditKeyError, readAuditKey } from "./audit_key.ts";

/** `audit --help`. */
export const AUDIT_HELP = `Usage: mcp-server-router audit <command> [--key-file KEY] FILE

Check an audit log written with --audit-log. Each entry carries the hash of the
one before it (the chain), and FILE.anchor records the entry count and the last
entry's hash, so an edited, deleted, reordered or cut-off entry is found. A log
written with --audit-key-file is sealed with HMAC-SHA256: give the same key.

Commands:
  verify FILE   check the chain and the anchor; prints "OK, N entries, ...,
                last verified entry #N" and a line per note (keying, a write
                interrupted by a stop, an anchor a stop left behind) and
                exits 0, or names the broken entry or the cut tail and exits 1
  anchor FILE   check the chain, then record its current end in FILE.anchor:
                accepts a log written before anchors existed, whose anchor
                was lost, or (with --key-file) written before the key was set
                (only after you have checked the log)

Options:
  --key-file KEY  the key the log is sealed with (--audit-key-file's file)
  -h, --help      show this help`;

/** A bad command line: exit 2, with a pointer to the help. */
class UsageError extends Error {}
/** A FILE or KEY that cannot be read: exit 2. */
class InputError extends Error {}

/** Run the audit subcommand with its arguments; resolves to the exit code. */
export async function runAuditCli(args: string[]): Promise<number> {
  if (args.some((a) => a === "-h" || a === "--help") || args[0] === "help") {
    console.log(AUDIT_HELP);
    return 0;
  }
  try {
    const [verb, ...rest] = args;
    if (verb === undefined) throw new UsageError("expected a command: verify or anchor");
    if (verb !== "verify" && verb !== "anchor") {
      throw new UsageError(`unknown command ${JSON.stringify(verb)}; expected verify or anchor`);
    }
    let keyFile: string | undefined;
    const files: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i];
      const inline = /^--key-file=(.*)$/.exec(a);
      if (a === "--key-file" || inline) {
        keyFile = inline ? inline[1] : rest[++i];
        if (!keyFile || keyFile.startsWith("-")) throw new UsageError("--key-file needs a file");
      } else if (a.startsWith("-")) throw new UsageError(`unknown option ${JSON.stringify(a)}`);
      else files.push(a);
    }
    const [file, extra] = files;
    if (!file) throw new UsageError(`${verb} needs a FILE`);
    if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
    const key = keyFile ? await readKey(keyFile) : undefined;
    return verb === "verify" ? await verify(file, key) : await anchor(file, key);
  } catch (err) {
    if (err instanceof InputError) log("error", `audit: ${err.message}`);
    else if (err instanceof UsageError) {
      log("error", `audit: ${err.message} (see: mcp-server-router audit --help)`);
    } else throw err;
    return 2;
  }
}

async function readKey(path: string): Promise<AuditKey> {
  try {
    return await readAuditKey(path);
  } catch (err) {
    if (err instanceof AuditKeyError) throw new InputError(err.message);
    throw err;
  }
}

async function readLog(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new InputError(`cannot read audit log ${file}: ${(err as Error).message}`);
  }
}

async function verify(file: string, key: AuditKey | undefined): Promise<number> {
  const check = await verifyChain(await readLog(file), key);
  const anchor = await readAnchor(file).catch((err) => {
    if (err instanceof AnchorError) return err;
    throw err;
  });
  const verdict = await judgeLog(file, check, anchor, key);
  for (const line of [verdict.message, ...verdict.notes]) console.log(`${file}: ${line}`);
  return verdict.ok ? 0 : 1;
}

async function anchor(file: string, key: AuditKey | undefined): Promise<number> {
  const check = await verifyChain(await readLog(file), key);
  if (!check.ok) {
    console.log(`${file}: not anchored: ${(await judgeLog(file, check, null, key)).message}`);
    return 1;
  }
  const before = await readAnchor(file).catch(() => null);
  const head = check.heads[check.entries];
  await writeAnchor(file, { entries: check.entries, head }, key);
  const replaced = before ? ` (it recorded ${before.entries} entries before)` : "";
  console.log(
    `${file}: anchored ${check.entries} entries in ${anchorPath(file)}${
      key ? `, sealed with key ${key.id}` : ""
    }${replaced}; audit verify now checks its tail`,
  );
  return 0;
}

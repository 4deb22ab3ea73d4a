/**
 * What a failed call did to the router, told from the tool, the commands it
 * ran (in order, reads and writes) and the error: a read changed nothing; a
 * write changed nothing when it failed before any change was sent, was not
 * sent, or was refused by RouterOS; otherwise its outcome is unknown and it
 * must be read back. Never "nothing changed" unless that is certain.
 *
 * @module
 */
import { RouterOsError, type RouterOsErrorKind } from "../../routeros/errors.ts";
import { SshError } from "../../ssh/errors.ts";
import { type CallOutcome, noteOutcome, outcomeOf } from "../errors.ts";
import type { ToolDef } from "../tool.ts";

/** One command a call ran, or a nested write call it completed. */
export interface TrailEntry {
  /** True for a read (changes nothing). */
  read: boolean;
}

/**
 * RouterOS rejects a script with these errors before running any of it
 * (they are found while the script is parsed).
 */
const BEFORE_RUNNING: ReadonlySet<RouterOsErrorKind> = new Set(["bad-command", "syntax"]);

/** The outcome of a call of `tool` that failed with `err` after running `trail`. */
export function callOutcome(
  err: unknown,
  tool: ToolDef,
  dryRun: boolean,
  trail: readonly TrailEntry[],
): CallOutcome {
  if (tool.annotations.readOnlyHint || dryRun) {
    return { kind: "read", what: dryRun ? "dry run" : "read" };
  }
  const inner = outcomeOf(err);
  if (inner?.kind === "stated") return inner;
  // An SSH or RouterOS error of this call's own comes from its last command.
  const own = !inner && (err instanceof SshError || err instanceof RouterOsError);
  const failing = own ? trail.at(-1) : undefined;
  const before = own ? trail.slice(0, -1) : trail;
  const readBack = tool.readBack;
  if (before.some((e) => !e.read)) return { kind: "unknown", readBack, partly: true };
  if (inner && inner.kind !== "read") return inner;
  if (!failing || failing.read) {
    return {
      kind: "unchanged",
      why: err instanceof SshError ? "not-sent" : "failed-before",
    };
  }
  if (err instanceof SshError) {
    return err.outcomeUnknown
      ? { kind: "unknown", readBack }
      : { kind: "unchanged", why: "not-sent" };
  }
  const kind = (err as RouterOsError).kind;
  if (kind === "unparsable") return { kind: "unknown", readBack };
  // A script stops at its first error; an engine write's script makes one change.
  if (BEFORE_RUNNING.has(kind) || tool.crud) return { kind: "unchanged", why: "refused" };
  return { kind: "unknown", readBack, partly: true };
}

/**
 * The reads a guard makes before a write (the lock-out rule's), whose
 * failure changed nothing: the write was not sent, and the error says so.
 */
export async function beforeWrite<T>(reads: Promise<T>): Promise<T> {
  try {
    return await reads;
  } catch (err) {
    if (!outcomeOf(err)) {
      noteOutcome(err, {
        kind: "unchanged",
        why: err instanceof SshError ? "not-sent" : "failed-before",
      });
    }
    throw err;
  }
}

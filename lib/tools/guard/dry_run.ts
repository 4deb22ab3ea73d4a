/**
 * What a dry run reports, as the guard chain returns it: the exact
 * commands, the preview and the problems, every secret masked; and the one
 * line a confirmation question says of it.
 *
 * @module
 */
import type { DryRunResult, ToolResult } from "../tool.ts";
import { maskArgs, maskCommands, maskText } from "./masking.ts";

/** What a dry run would do, in one line (for a confirmation question). */
export function describeDryRun(dry: DryRunResult): string {
  if (dry.problems.length) return `fail: ${dry.problems.join("; ")}`;
  const item = JSON.stringify(dry.preview);
  if (item === "{}") return "change the target";
  return `change ${item.length > 300 ? item.slice(0, 300) + "..." : item}`;
}

/** A dry run's result, secrets masked. */
export function dryRunResult(
  dry: DryRunResult,
  args: Record<string, unknown>,
  secrets: readonly string[],
  raw: readonly string[],
): ToolResult {
  const masked: DryRunResult = {
    commands: maskCommands(dry.commands, secrets),
    preview: maskArgs(dry.preview, secrets, raw),
    problems: dry.problems.map((p) => maskText(p, args, secrets, raw)),
  };
  return {
    structured: { dry_run: masked },
    text: `dry run: nothing was changed.\ncommands:\n${masked.commands.join("\n")}${
      masked.problems.length ? `\nproblems:\n${masked.problems.join("\n")}` : ""
    }`,
  };
}

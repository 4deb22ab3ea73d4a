/**
 * Change safety around every tool call: per-device read-only refusal,
 * destructive-action confirmation, dry runs, and the audit log (fail
 * closed). Read-only tools pass straight through.
 *
 * @module
 */
import * as z from "zod";
import type { DeviceConfig } from "../../config/inventory.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import type { DryRunResult, ToolContext, ToolDef, ToolResult } from "../../tools/tool.ts";
import { SshError } from "../../ssh/errors.ts";
import type { AuditEntry, AuditLog } from "./audit_log.ts";
import { maskArgs, maskCommands } from "./masking.ts";

/** Safety settings of a server. */
export interface SafetyOptions {
  audit?: AuditLog;
}

/** Who is calling (for audit lines). */
export interface Caller {
  client?: { name?: string; version?: string };
  session?: string;
}

/** True for tools that change router state. */
export function isWrite(tool: ToolDef): boolean {
  return !tool.annotations.readOnlyHint;
}

/** Extra input fields the safety layer adds to a tool. */
export function safetyInput(tool: ToolDef): Record<string, z.ZodType> {
  const extra: Record<string, z.ZodType> = {};
  if (!isWrite(tool)) return extra;
  extra.dry_run = z.boolean().optional().describe(
    "Validate and resolve references, and return the exact RouterOS commands this call would send, without changing anything",
  );
  if (tool.annotations.destructiveHint) {
    extra.confirm = z.boolean().optional().describe(
      "Must be true to carry out this destructive action; without it nothing happens and the answer says what would be destroyed",
    );
  }
  return extra;
}

const DRY_RUN_SHAPE = z.object({
  commands: z.array(z.string()).describe("RouterOS commands the call would send"),
  preview: z.record(z.string(), z.unknown()).describe("The item as it would look afterwards"),
  problems: z.array(z.string()).describe("Why the real call would fail, if anything"),
});

/** Output fields of a tool once the safety layer wraps it. */
export function safetyOutput(tool: ToolDef): Record<string, z.ZodType> {
  if (!isWrite(tool)) return tool.output;
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(tool.output)) shape[k] = v.optional();
  shape.dry_run = DRY_RUN_SHAPE.optional().describe("Present when dry_run was true");
  return shape;
}

/** Raised when the safety layer refuses a call. */
export class RefusedError extends Error {}

/** Run one tool call through the guards. */
export async function guardedCall(
  tool: ToolDef,
  rawArgs: Record<string, unknown>,
  ctx: ToolContext,
  device: DeviceConfig | undefined,
  caller: Caller,
  options: SafetyOptions,
): Promise<ToolResult> {
  if (!isWrite(tool)) return tool.handler(rawArgs, ctx);
  const { dry_run: dryRunArg, confirm, ...args } = rawArgs;
  const dryRun = dryRunArg === true;
  const title = device?.title ?? "";
  if (device?.readOnly) {
    throw new RefusedError(
      `device "${title}" is read-only (inventory read_only: true); ${tool.name} is a write and was not sent`,
    );
  }
  const secrets = tool.secretArgs ?? [];
  if (tool.annotations.destructiveHint && confirm !== true && !dryRun) {
    const what = tool.dryRun ? await tool.dryRun(args, ctx) : undefined;
    throw new RefusedError(
      `${tool.name} is destructive and needs confirm: true. Nothing was done.` +
        (what
          ? ` It would ${describe(what)}. Commands: ${
            maskCommands(what.commands, args, secrets).join(" ; ")
          }`
          : ""),
    );
  }
  if (options.audit) await options.audit.checkWritable();
  const sent: string[] = [];
  const recording = { ...ctx, client: ctx.client?.withRecorder((c) => sent.push(c)) };
  const started = performance.now();
  let outcome: AuditEntry["outcome"] = "ok";
  let error: string | undefined;
  try {
    if (dryRun) {
      if (!tool.dryRun) throw new RefusedError(`${tool.name} has no dry run`);
      const dry = await tool.dryRun(args, recording);
      const masked: DryRunResult = {
        ...dry,
        commands: maskCommands(dry.commands, args, secrets),
        preview: maskArgs(dry.preview, secrets),
      };
      sent.length = 0;
      sent.push(...dry.commands);
      return {
        structured: { dry_run: masked },
        text: `dry run: nothing was changed.\ncommands:\n${masked.commands.join("\n")}${
          masked.problems.length ? `\nproblems:\n${masked.problems.join("\n")}` : ""
        }`,
      };
    }
    return await tool.handler(args, recording);
  } catch (err) {
    outcome = err instanceof SshError && err.outcomeUnknown
      ? "unknown"
      : err instanceof RouterOsError
      ? "routeros-error"
      : err instanceof RefusedError
      ? "refused"
      : "error";
    error = err instanceof Error ? err.message : String(err);
    throw err;
  } finally {
    if (options.audit) {
      const entry: AuditEntry = {
        time: new Date().toISOString(),
        device: title,
        tool: tool.name,
        arguments: maskArgs(args, secrets),
        commands: maskCommands(sent, args, secrets),
        dry_run: dryRun,
        outcome,
        ...(error !== undefined ? { error } : {}),
        duration_ms: Math.round(performance.now() - started),
        client: caller.client,
        session: caller.session,
      };
      try {
        await options.audit.append(entry);
      } catch (err) {
        // deno-lint-ignore no-unsafe-finally
        throw new Error(
          `${tool.name} ${
            outcome === "ok" ? "completed" : "failed"
          }, but its audit line could not be written: ${(err as Error).message}`,
        );
      }
    }
  }
}

function describe(dry: DryRunResult): string {
  const item = JSON.stringify(dry.preview);
  return dry.problems.length
    ? `fail: ${dry.problems.join("; ")}`
    : `destroy ${item === "{}" ? "the target" : item}`;
}

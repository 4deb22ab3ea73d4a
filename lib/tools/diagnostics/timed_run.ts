/**
 * A diagnostic that runs on the router for a set time (torch, the sniffer,
 * an IP scan, a bandwidth test): refused before it is sent when it could
 * outlast the probe budget, reported each second as progress (MCP progress
 * notifications: seconds done of the run's seconds), and stopped on the
 * router when the client cancels the call (its SSH channel is closed,
 * which ends the command as Ctrl-C does).
 *
 * @module
 */
import type { Script } from "../../routeros/script.ts";
import type { ToolContext } from "../tool.ts";
import { checkBudget } from "./probe_budget.ts";

/** Seconds a command takes beyond its duration (connecting, the last frame). */
const SLACK_MS = 3000;

/** A command bounded by its own `duration`. */
export interface TimedCommand {
  statement: string;
  seconds: number;
  /** Names the run in messages and progress (`torch on ether1`). */
  what: string;
  /** The command's path, for SSH messages (`/tool/torch`). */
  path: string;
  /**
   * False for a run that must not be sent twice (a bandwidth test loads
   * links): it is recorded as a write and never retried.
   */
  idempotent: boolean;
}

/** Run a bounded command and return what it printed. */
export async function runTimed(ctx: ToolContext, command: TimedCommand): Promise<string> {
  const { statement, seconds, what, path, idempotent } = command;
  checkBudget(ctx, seconds * 1000 + SLACK_MS, what, "lower duration_s");
  const script: Script = await ctx.client.script();
  const section = script.lines(statement);
  const started = performance.now();
  let reported = 0;
  const tick = ctx.progress
    ? setInterval(() => {
      const done = Math.min(seconds, Math.floor((performance.now() - started) / 1000));
      if (done <= reported || done >= seconds) return;
      reported = done;
      ctx.progress!(done, seconds, `${what}: ${done} of ${seconds} s`).catch(() => {});
    }, 250)
    : undefined;
  try {
    const out = await ctx.client.run(script, {
      idempotent,
      what: path,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    // A client that stopped listening for progress does not fail the run.
    await ctx.progress?.(seconds, seconds, `${what}: done`).catch(() => {});
    return out.get(section).join("\n");
  } finally {
    clearInterval(tick);
  }
}

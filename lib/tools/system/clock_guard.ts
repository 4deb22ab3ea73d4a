/**
 * The clock guard: confirm-or-revert trusts the router's own clock (a
 * revert job runs at a router-local date and time), so a write that may
 * move that clock (a field marked `movesClock`: the date, time or time
 * zone, the NTP client, `/ip/cloud` `update-time`) is refused while a
 * change waits for its commit on that device, and inside a change
 * (`router_apply_changes` refuses it by the same data). Setting the date
 * back a year would put the deadline a year away; forward, past it, and
 * the job never runs.
 *
 * @module
 */
import { REVERT_JOB_PREFIX } from "../../routeros/scheduler.ts";
import { armedRevertJobs } from "../changes/revert_job.ts";
import { RefusedError } from "../guard/refusals.ts";
import type { ToolContext, ToolDef } from "../tool.ts";

/** The arguments of a call that may move the router's clock (set to anything but "", false, null). */
export function clockArgsSet(
  tool: Pick<ToolDef, "clockArgs">,
  args: Record<string, unknown>,
): string[] {
  return (tool.clockArgs ?? []).filter((k) =>
    args[k] !== undefined && args[k] !== "" && args[k] !== false && args[k] !== null
  );
}

/** Refuse a call that may move the router's clock while a change on it waits for its commit. */
export async function refuseClockMove(
  tool: Pick<ToolDef, "name" | "clockArgs">,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<void> {
  const set = clockArgsSet(tool, args);
  if (set.length === 0) return;
  const jobs = await armedRevertJobs(ctx.client);
  if (jobs.length === 0) return;
  const ids = jobs.map((j) => String(j.name).slice(REVERT_JOB_PREFIX.length));
  throw new RefusedError(
    "pending-change",
    `${tool.name} sets ${set.join(", ")}, which may move the router's clock, while ` +
      `${ids.length === 1 ? "change" : "changes"} ${ids.join(", ")} ` +
      `${ids.length === 1 ? "waits" : "wait"} for router_commit_changes: a revert job runs by ` +
      "that clock, so moving it would move the deadline or skip it. Commit or roll back first " +
      "(router_list_pending_changes). Nothing was sent.",
  );
}

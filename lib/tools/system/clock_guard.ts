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
 * A field marked `movesClockWith` moves the clock only while another
 * property of its menu is on: `/ip/cloud` `ddns-enabled` turned on while
 * `update-time` is on (its default) lets the cloud service's answer set the
 * clock. It counts when the call's own value of that property is on, or,
 * the call not setting it, the router's (read then; a router that does not
 * show it counts as on).
 *
 * @module
 */
import type { RouterOsClient } from "../../routeros/client.ts";
import { type MenuSchema, readSpecOf, rosName } from "../../routeros/schema/menu.ts";
import { REVERT_JOB_PREFIX } from "../../routeros/scheduler.ts";
import { armedRevertJobs } from "../changes/revert_job.ts";
import { RefusedError } from "../guard/refusals.ts";
import { argName } from "../menu_tools/naming.ts";
import type { ToolContext, ToolDef } from "../tool.ts";

/** What the guard knows of a tool: its clock arguments and its menu. */
export type ClockTool = Pick<ToolDef, "name" | "clockArgs" | "clockArgsWith"> & {
  crud?: { menu: MenuSchema };
};

/** Whether an argument is set to something that turns a setting on (not "", false or null). */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== "" && value !== false && value !== null;
}

/** The arguments of a call that may move the router's clock (set to anything but "", false, null). */
export function clockArgsSet(
  tool: Pick<ToolDef, "clockArgs">,
  args: Record<string, unknown>,
): string[] {
  return (tool.clockArgs ?? []).filter((k) => isSet(args[k]));
}

/** The `movesClockWith` arguments a call turns on, each with the property it depends on. */
function conditionalArgs(tool: ClockTool, args: Record<string, unknown>): [string, string][] {
  return Object.entries(tool.clockArgsWith ?? {}).filter(([k]) => isSet(args[k]));
}

/** A settings menu's property as the router shows it, or undefined when it does not. */
async function routerValue(client: RouterOsClient, menu: MenuSchema, property: string) {
  const dialect = await client.dialect();
  const [item] = await client.read(readSpecOf(menu, dialect.release));
  const field = menu.fields[property];
  return item?.[field ? rosName(field, property, dialect.release) : property];
}

/**
 * The arguments of a call that may move the router's clock: the
 * `movesClock` ones it sets, and the `movesClockWith` ones it turns on
 * while the property they depend on is on (the call's value, else the
 * router's, read only then), named with it (`ddns_enabled (with
 * update_time on)`).
 */
export async function clockArgsMoving(
  tool: ClockTool,
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, "client">,
): Promise<string[]> {
  const moving = clockArgsSet(tool, args);
  for (const [arg, property] of conditionalArgs(tool, args)) {
    const own = args[argName(property)];
    let on: boolean;
    if (own !== undefined && own !== null) on = isSet(own);
    else if (!tool.crud) on = true;
    else {
      const value = await routerValue(ctx.client, tool.crud.menu, property);
      on = value === undefined || value === true || value === "true" || value === "yes";
    }
    if (on) moving.push(`${arg} (with ${argName(property)} on)`);
  }
  return moving;
}

/** Refuse a call that may move the router's clock while a change on it waits for its commit. */
export async function refuseClockMove(
  tool: ClockTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<void> {
  const conditional = conditionalArgs(tool, args);
  if (clockArgsSet(tool, args).length === 0 && conditional.length === 0) return;
  const jobs = await armedRevertJobs(ctx.client);
  if (jobs.length === 0) return;
  const set = await clockArgsMoving(tool, args, ctx);
  if (set.length === 0) return;
  const ids = jobs.map((j) => String(j.name).slice(REVERT_JOB_PREFIX.length));
  const off = [...new Set(conditional.map(([, property]) => argName(property)))];
  throw new RefusedError(
    "pending-change",
    `${tool.name} sets ${set.join(", ")}, which may move the router's clock, while ` +
      `${ids.length === 1 ? "change" : "changes"} ${ids.join(", ")} ` +
      `${ids.length === 1 ? "waits" : "wait"} for router_commit_changes: a revert job runs by ` +
      "that clock, so moving it would move the deadline or skip it. Commit or roll back first " +
      `(router_list_pending_changes)${
        off.length && set.every((s) => / \(with /.test(s))
          ? `, or set ${off.map((p) => `${p}: false`).join(", ")} in the same call`
          : ""
      }. Nothing was sent.`,
  );
}

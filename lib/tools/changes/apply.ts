/**
 * `router_apply_changes`: confirm-or-revert. A revert job is armed on the
 * router before anything changes; each operation then runs through the
 * same guard chain as a direct call (selection, read-only, arguments,
 * confirm, lock-out, masking, audit); health checks follow. The router
 * reverts by itself at the deadline unless `router_commit_changes` disarms
 * the job, even if this server is gone.
 *
 * @module
 */
import * as z from "zod";
import type { Dialect } from "../../routeros/dialect.ts";
import { type Condition, refCondition } from "../../routeros/command.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { randomHex } from "../../routeros/random_hex.ts";
import { echo } from "../../echo.ts";
import { hasWrite, readSpecOf } from "../../routeros/schema/menu.ts";
import {
  addSeconds,
  armJobStatement,
  formatDate,
  formatTime,
  rearmJobStatement,
  revertJobName,
  revertScript,
} from "../../routeros/scheduler.ts";
import { defineTool } from "../define.ts";
import { noteOutcome, outcomeOf } from "../errors.ts";
import { refOf, refOn } from "../menu_tools/read_tools.ts";
import { DESTRUCTIVE, type ToolContext, type ToolDef } from "../tool.ts";
import {
  addedItemConditions,
  type Before,
  inverseStatement,
  IrreversibleError,
} from "./inverse.ts";
import { roleAtLeast } from "../../auth/principal.ts";
import { requiredRole } from "../guard/roles.ts";
import { clockArgsMoving } from "../system/clock_guard.ts";
import {
  defaultRoutes,
  defeatedJob,
  expectSilent,
  healthCheck,
  revertNow,
  roleNote,
  routerTime,
  shownStatement,
} from "./revert_job.ts";

/** Most operations in one change. */
export const MAX_OPERATIONS = 50;

/** One planned operation. */
interface Operation {
  tool: ToolDef;
  /** Arguments as given (confirm included), for the nested call. */
  given: Record<string, unknown>;
  /** Checked arguments. */
  args: Record<string, unknown>;
  before: Before;
  inverse: string;
}

async function readBefore(
  ctx: ToolContext,
  dialect: Dialect,
  tool: ToolDef,
  args: Record<string, unknown>,
): Promise<Before> {
  const { menu, verb } = tool.crud!;
  const spec = readSpecOf(menu, dialect.release);
  if (verb === "add") {
    // The items its properties already find: its undo must leave them (inverse.ts).
    let where: Condition[];
    try {
      where = addedItemConditions(menu, dialect, args);
    } catch (err) {
      if (err instanceof IrreversibleError) return {}; // inverseStatement says why
      throw err;
    }
    return { existing: (await ctx.client.read(spec, where)).map((i) => String(i[".id"])) };
  }
  if (menu.kind === "singleton") return { item: (await ctx.client.read(spec))[0] ?? {} };
  const ref = refOn(menu, refOf(menu, args), dialect.release);
  const [item] = await ctx.client.read(spec, [refCondition(ref)]);
  if (!item) throw new RouterOsError("not-found", `${tool.name}: the item does not exist`, "");
  let nextId: string | undefined;
  if (hasWrite(menu, "move") && (verb === "remove" || verb === "move")) {
    const all = await ctx.client.read(spec);
    const at = all.findIndex((i) => i[".id"] === item[".id"]);
    const next = all[at + 1]?.[".id"];
    if (typeof next === "string") nextId = next;
  }
  return { item, nextId };
}

/** Every operation through the guards and its inverse, before anything is sent. */
async function plan(
  operations: readonly { tool: string; arguments?: Record<string, unknown> }[],
  ctx: ToolContext,
): Promise<{ dialect: Dialect; ops: Operation[] }> {
  const dialect = await ctx.client.dialect();
  const ops: Operation[] = [];
  for (const [i, op] of operations.entries()) {
    const given = op.arguments ?? {};
    const label = `operation ${i + 1} (${op.tool})`;
    if (given.device !== undefined && given.device !== ctx.device) {
      // One device per change: its revert job and lock-out checks are there.
      throw new ArgumentError(
        `${label}: device ${echo(given.device)} is not this change's device ` +
          `(${JSON.stringify(ctx.device)}). A change is applied, checked and reverted on one ` +
          "device: send one router_apply_changes per device",
      );
    }
    const checked = await ctx.check({ name: op.tool, args: given }).catch((err) => {
      if (err instanceof Error) err.message = `${label}: ${err.message}`;
      throw err;
    });
    if (!checked.tool.crud || checked.tool.annotations.readOnlyHint) {
      throw new ArgumentError(
        `${label}: only the add/update/remove/enable/disable/move tools of a menu can be part of a change`,
      );
    }
    const clock = await clockArgsMoving(checked.tool, checked.args, ctx);
    if (clock.length) {
      // The revert job runs by the router's clock: moving it would move the deadline.
      throw new ArgumentError(
        `${label}: ${clock.join(", ")} may move the router's clock, by which this change's ` +
          "revert job runs (setting the date back would put the deadline years away); it " +
          "cannot be part of a change: apply it on its own, with no change pending",
      );
    }
    const before = await readBefore(ctx, dialect, checked.tool, checked.args);
    let inverse: string;
    try {
      const { menu, verb } = checked.tool.crud;
      inverse = inverseStatement(menu, verb, dialect, checked.args, before);
    } catch (err) {
      if (err instanceof IrreversibleError) throw new ArgumentError(`${label}: ${err.message}`);
      throw err;
    }
    ops.push({ tool: checked.tool, given, args: checked.args, before, inverse });
  }
  return { dialect, ops };
}

const OPERATIONS = z.array(z.object({
  tool: z.string().regex(/^router_[a-z0-9_]+$/, "a router_* write tool name").describe(
    "A menu write tool: router_add_*, router_update_*, router_remove_*, router_enable_*, ...",
  ),
  arguments: z.record(z.string(), z.unknown()).optional().describe(
    "Its arguments (confirm: true where that tool needs it); the change's device only",
  ),
})).min(1).max(MAX_OPERATIONS);

/** `router_apply_changes`. */

/**
 * The role committing or rolling back a change needs: the role its
 * operations needed (roles.ts), admin also when one of them writes an item
 * that holds a privilege now (a script, SNMP write access), since its undo
 * restores that privilege, or grants one through another item (a User
 * Manager group); an item that cannot be read counts as holding one.
 */
async function changeRole(
  ops: readonly { tool: ToolDef; args: Record<string, unknown> }[],
  ctx: ToolContext,
): Promise<"admin" | "operate"> {
  for (const o of ops) {
    if (roleAtLeast(requiredRole(o.tool, o.args), "admin")) return "admin";
    for (const read of [o.tool.heldPrivileges, o.tool.grantsThrough]) {
      const held = read ? await read(o.args, ctx).catch(() => ["(unread)"]) : [];
      if (held.length) return "admin";
    }
  }
  return "operate";
}

export const applyChanges = defineTool({
  name: "router_apply_changes",
  title: "Apply changes with automatic revert",
  description:
    "Apply write operations ({tool, arguments}) as one change that the router reverts BY ITSELF " +
    "unless confirmed with router_commit_changes within confirm_within_seconds. A revert job is " +
    "armed before anything changes; each operation passes the same checks as a direct call " +
    "(destructive ones and lock-outs need confirm: true in their arguments); a failed operation " +
    "or health check (fresh SSH login, default route, ping targets) rolls back at once. Returns " +
    "the change id and each operation's result.",
  toolset: "changes",
  readBack: "router_list_pending_changes",
  input: {
    operations: OPERATIONS.describe("Operations, applied in order"),
    confirm_within_seconds: z.number().int().min(10).max(86400).optional().describe(
      "Deadline for router_commit_changes; the router reverts by itself after it (default 120)",
    ),
    ping_targets: z.array(z.string().max(253)).max(10).optional().describe(
      "Addresses the router must still reach (3 pings each) after the change",
    ),
  },
  output: {
    change_id: z.string(),
    job: z.string().describe("Name of the revert job on the router"),
    deadline: z.string().describe("Router-local date and time when the router reverts"),
    operations: z.array(z.object({ tool: z.string(), result: z.record(z.string(), z.unknown()) })),
    health: z.object({
      login: z.boolean(),
      default_route: z.boolean(),
      ping: z.record(z.string(), z.boolean()),
    }),
  },
  annotations: DESTRUCTIVE,
  perDevice: true,
  example: {
    operations: [{
      tool: "router_add_ip_address",
      arguments: { address: "10.77.0.1/24", interface: "ether3" },
    }],
    confirm_within_seconds: 300,
  },
  async dryRun(args, ctx) {
    const { ops } = await plan(args.operations, ctx);
    const commands: string[] = [];
    const problems: string[] = [];
    for (const op of ops) {
      const dry = (await ctx.call({ name: op.tool.name, args: { ...op.given, dry_run: true } }))
        .structured.dry_run as { commands: string[]; problems: string[] };
      commands.push(...dry.commands);
      problems.push(...dry.problems.map((p) => `${op.tool.name}: ${p}`));
    }
    const job = "mcp-revert-<id>";
    const at = { year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0, legacyDate: false };
    // The undo steps hold what the router holds now (a removed item's password, an old script).
    const shown = ops.map((o) => shownStatement(o.inverse, ctx.scriptText));
    return {
      commands: [
        `(arm) ${armJobStatement(job, at, revertScript(job, shown), "deadline")}`,
        ...commands,
      ],
      preview: {
        operations: ops.map((o, i) => ({ tool: o.tool.name, inverse: shown[i] })),
      },
      problems,
    };
  },
  maskNested: (args, mask) => ({
    ...args,
    operations: args.operations.map((op) => ({
      ...op,
      ...(op.arguments ? { arguments: mask(op.tool, op.arguments) } : {}),
    })),
  }),
  async handler(args, ctx) {
    const { client } = ctx;
    const { dialect, ops } = await plan(args.operations, ctx);
    const seconds = args.confirm_within_seconds ?? 120;
    const id = randomHex();
    const job = revertJobName(id);
    const deadline = addSeconds(await routerTime(client), seconds);
    const hadDefaultRoute = (await defaultRoutes(client)) > 0;
    const inverses = ops.map((o) => o.inverse);
    const at = `${formatDate(deadline)} ${formatTime(deadline)}`;
    const role = await changeRole(ops, ctx);
    await expectSilent(
      client,
      armJobStatement(
        job,
        deadline,
        revertScript(job, []),
        `mcp-server-router change ${id}: reverts at ${at} unless committed${roleNote(role)}`,
      ),
      "arm the revert job",
    );
    const applied: { tool: string; result: Record<string, unknown> }[] = [];
    for (const [i, op] of ops.entries()) {
      try {
        if (i > 0 && op.tool.crud!.verb === "add") {
          // The operations before it may have made items its properties find
          // (the same add twice): its undo leaves those to their own undo.
          const before = await readBefore(ctx, dialect, op.tool, op.args);
          inverses[i] = inverseStatement(op.tool.crud!.menu, "add", dialect, op.args, before);
        }
        // The job holds the inverses of the applied operations plus this one.
        await expectSilent(
          client,
          rearmJobStatement(job, revertScript(job, inverses.slice(0, i + 1))),
          "update the revert job",
        );
        const result = await ctx.call({ name: op.tool.name, args: op.given });
        applied.push({ tool: op.tool.name, result: result.structured });
        const crud = op.tool.crud!;
        const newId = crud.verb === "add"
          ? (result.structured.item as { id?: string } | undefined)?.id
          : undefined;
        if (newId) {
          inverses[i] = inverseStatement(crud.menu, "add", dialect, op.args, {}, newId);
          await expectSilent(
            client,
            rearmJobStatement(job, revertScript(job, inverses.slice(0, i + 1))),
            "update the revert job",
          );
        }
      } catch (err) {
        // An operation that may have been applied is undone with the others,
        // as the job would at the deadline (a removal is not re-added: it
        // may not have happened, and a second item would be worse).
        const outcome = outcomeOf(err);
        const unknown = outcome?.kind === "unknown";
        const undoIt = unknown && op.tool.crud?.verb !== "remove";
        const undone = await revertNow(
          client,
          job,
          inverses.slice(0, undoIt ? i + 1 : i),
          undoIt
            ? `Its outcome is unknown: it and the ${i} operation(s) applied before it were`
            : undefined,
        );
        const left = unknown && !undoIt
          ? ` Its outcome is unknown and it was not undone: read it back with ${
            op.tool.readBack ?? "its list tool"
          } and re-add the item if it is gone.`
          : "";
        const message = (err instanceof Error ? err.message : String(err)).replace(/\.$/, "");
        const failed = new RouterOsError(
          err instanceof RouterOsError ? err.kind : "failure",
          `operation ${i + 1} (${op.tool.name}) failed: ${message}.${left} ${undone}`,
          err instanceof RouterOsError ? err.routerMessage : "",
        );
        noteOutcome(failed, { kind: "stated" });
        throw failed;
      }
    }
    /** Every operation applied is reverted now, and the call fails saying `why`. */
    const revertAllAndFail = async (why: string): Promise<never> => {
      const undone = await revertNow(
        client,
        job,
        inverses.slice(),
        `The ${inverses.length} operation(s) were`,
      );
      const failed = new RouterOsError("failure", `${why}. ${undone}`, "");
      noteOutcome(failed, { kind: "stated" });
      throw failed;
    };
    // An operation may have removed or disabled the job (a scheduler write): then revert now.
    const defeated = await defeatedJob(client, job, deadline, seconds);
    if (defeated) await revertAllAndFail(`the change would not revert by itself: ${defeated}`);
    const health = await healthCheck(client, args.ping_targets);
    const routeOk = !hadDefaultRoute || (await defaultRoutes(client)) > 0;
    const pingOk = Object.values(health.ping).every(Boolean);
    if (!health.login || !routeOk || !pingOk) {
      await revertAllAndFail(
        `health check failed after the change (login: ${health.login}, default route: ${routeOk}, ` +
          `ping: ${JSON.stringify(health.ping)})`,
      );
    }
    return {
      structured: {
        change_id: id,
        job,
        deadline: at,
        operations: applied,
        health: { ...health, default_route: routeOk },
      },
      text: `change ${id} applied (${applied.length} operations). The router reverts it at ${at} ` +
        `(router time) unless you call router_commit_changes with change_id ${id}.`,
    };
  },
});

/**
 * Confirm-or-revert changes: `router_apply_changes` arms a revert job on the
 * router before it changes anything, then applies the operations, checks
 * the router's health, and returns a change id. `router_commit_changes`
 * disarms the job, `router_rollback_changes` reverts now, and
 * `router_list_pending_changes` shows armed jobs. With no confirmation the
 * router reverts by itself at the deadline, even if this server is gone.
 *
 * @module
 */
import * as z from "zod";
import type { RouterOsClient } from "../../routeros/client.ts";
import type { Condition } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { quoteValue } from "../../routeros/quote.ts";
import {
  addSeconds,
  armJobStatement,
  formatDate,
  formatTime,
  parseRouterTime,
  rearmJobStatement,
  removeJobStatement,
  REVERT_JOB_PREFIX,
  revertJobName,
  revertScript,
  type RouterTime,
} from "../../routeros/scheduler.ts";
import { dialectRef, readSpec, refOf } from "../engine.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, type ToolDef, WRITE } from "../tool.ts";
import { type Before, inverseStatement, IrreversibleError } from "./inverse.ts";

/** Most operations in one change. */
export const MAX_OPERATIONS = 50;

const CHANGE_ID = z.string().regex(/^[0-9a-f]{12}$/, "a change id from router_apply_changes");

const SCHEDULER = {
  path: "/system/scheduler",
  keys: [
    "name",
    "start-date",
    "start-time",
    "interval",
    "on-event",
    "comment",
    "disabled",
    "next-run",
    "run-count",
  ],
};
const CLOCK = {
  path: "/system/clock",
  keys: ["time", "date", "gmt-offset", "time-zone-name"],
  singleton: true,
};
const DEFAULT_ROUTE = {
  path: "/ip/route",
  keys: ["dst-address", "gateway", "distance", "disabled", "active"],
};

function newChangeId(): string {
  return [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

async function routerTime(client: RouterOsClient): Promise<RouterTime> {
  const [clock] = await client.read(CLOCK);
  const at = clock && parseRouterTime(String(clock.date ?? ""), String(clock.time ?? ""));
  if (!at) throw new RouterOsError("unparsable", "the router's clock could not be read", "");
  return at;
}

async function defaultRoutes(client: RouterOsClient): Promise<number> {
  const routes = await client.read(DEFAULT_ROUTE, [{ key: "dst-address", value: "0.0.0.0/0" }]);
  return routes.filter((r) => r.disabled !== true && r.disabled !== "true").length;
}

/** One planned operation. */
interface Operation {
  tool: ToolDef;
  args: Record<string, unknown>;
  before: Before;
  inverse: string;
}

async function readBefore(
  client: RouterOsClient,
  dialect: Dialect,
  tool: ToolDef,
  args: Record<string, unknown>,
): Promise<Before> {
  const { menu, verb } = tool.crud!;
  if (verb === "add") return {};
  const spec = readSpec(menu, dialect);
  if (menu.singleton) return { item: (await client.read(spec))[0] ?? {} };
  const ref = dialectRef(menu, dialect, refOf(menu, args));
  const cond: Condition = ref.id !== undefined ? { key: ".id", value: ref.id } : ref.key!;
  const [item] = await client.read(spec, [cond]);
  if (!item) throw new RouterOsError("not-found", `${tool.name}: the item does not exist`, "");
  let nextId: string | undefined;
  if (menu.verbs.includes("move") && (verb === "remove" || verb === "move")) {
    const all = await client.read(spec);
    const at = all.findIndex((i) => i[".id"] === item[".id"]);
    const next = all[at + 1]?.[".id"];
    if (typeof next === "string") nextId = next;
  }
  return { item, nextId };
}

/** The change tools over the engine-made write tools in `tools`. */
export function changeTools(tools: readonly ToolDef[]): ToolDef[] {
  const writes = new Map(
    tools.filter((t) => t.crud && !t.annotations.readOnlyHint && t.perDevice).map((
      t,
    ) => [t.name, t]),
  );
  const names = [...writes.keys()] as [string, ...string[]];
  if (names.length === 0) return [];

  async function plan(args: Record<string, unknown>, ctx: ToolContext) {
    const list = args.operations as { tool: string; arguments?: Record<string, unknown> }[];
    const client = ctx.client;
    const dialect = await client.dialect();
    const ops: Operation[] = [];
    for (const [i, op] of list.entries()) {
      const tool = writes.get(op.tool)!;
      const parsed = z.object(tool.input).strict().safeParse(op.arguments ?? {});
      if (!parsed.success) {
        throw new RouterOsError(
          "invalid-value",
          `operation ${i + 1} (${op.tool}): ${
            parsed.error.issues.map((x) => `${x.path.join(".") || "(root)"}: ${x.message}`).join(
              "; ",
            )
          }`,
          "",
        );
      }
      const before = await readBefore(client, dialect, tool, parsed.data);
      let inverse: string;
      try {
        inverse = inverseStatement(tool.crud!.menu, tool.crud!.verb, dialect, parsed.data, before);
      } catch (err) {
        if (err instanceof IrreversibleError) {
          throw new RouterOsError(
            "invalid-value",
            `operation ${i + 1} (${op.tool}): ${err.message}`,
            "",
          );
        }
        throw err;
      }
      ops.push({ tool, args: parsed.data, before, inverse });
    }
    return { dialect, ops };
  }

  const apply: ToolDef = {
    name: "router_apply_changes",
    title: "Apply changes with automatic revert",
    description:
      "Apply a list of write operations ({tool, arguments}, using router_add_*/router_update_*/router_remove_*/router_enable_*/router_disable_*/router_move_* tools) as one change that the router reverts BY ITSELF unless confirmed with router_commit_changes within confirm_within_seconds. A revert job is armed on the router before anything changes; if an operation fails, the ones already applied are rolled back at once. After applying, health checks run (a fresh SSH login, the default route, optional ping targets); a failed check rolls back at once. Returns a change id and the before/after of each operation.",
    toolset: "system",
    input: {
      operations: z.array(z.object({
        tool: z.enum(names).describe("A write tool made from a menu"),
        arguments: z.record(z.string(), z.unknown()).optional().describe(
          "Its arguments (without device, dry_run or confirm)",
        ),
      })).min(1).max(MAX_OPERATIONS).describe("Operations, applied in order"),
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
      operations: z.array(
        z.object({ tool: z.string(), result: z.record(z.string(), z.unknown()) }),
      ),
      health: z.object({
        login: z.boolean(),
        default_route: z.boolean(),
        ping: z.record(z.string(), z.boolean()),
      }),
    },
    annotations: WRITE,
    perDevice: true,
    example: {
      operations: [{
        tool: "router_add_ip_address",
        arguments: { address: "10.77.0.1/24", interface: "ether3" },
      }],
      confirm_within_seconds: 300,
    },
    async dryRun(args, ctx) {
      const { ops } = await plan(args, ctx);
      const commands: string[] = [];
      const problems: string[] = [];
      for (const op of ops) {
        const dry = await op.tool.dryRun!(op.args, ctx);
        commands.push(...dry.commands);
        problems.push(...dry.problems.map((p) => `${op.tool.name}: ${p}`));
      }
      return {
        commands: [
          `(arm) ${
            armJobStatement(
              "mcp-revert-<id>",
              { year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0, legacyDate: false },
              revertScript(
                "mcp-revert-<id>",
                ops.map((o) => o.inverse).reverse(),
              ),
              "deadline",
            )
          }`,
          ...commands,
        ],
        preview: { operations: ops.map((o) => ({ tool: o.tool.name, inverse: o.inverse })) },
        problems,
      };
    },
    async handler(args, ctx) {
      const { client } = ctx;
      const { dialect, ops } = await plan(args, ctx);
      const seconds = (args.confirm_within_seconds as number | undefined) ?? 120;
      const id = newChangeId();
      const job = revertJobName(id);
      const now = await routerTime(client);
      const deadline = addSeconds(now, seconds);
      const hadDefaultRoute = (await defaultRoutes(client)) > 0;
      const inverses = ops.map((o) => o.inverse);
      const comment = `mcp-server-router change ${id}: reverts at ${formatDate(deadline)} ${
        formatTime(deadline)
      } unless committed`;
      await expectSilent(
        client,
        armJobStatement(job, deadline, revertScript(job, []), comment),
        "arm the revert job",
      );
      const applied: { tool: string; result: Record<string, unknown> }[] = [];
      for (const [i, op] of ops.entries()) {
        try {
          // The job holds the inverses of the applied operations plus this one.
          await expectSilent(
            client,
            rearmJobStatement(job, revertScript(job, inverses.slice(0, i + 1).reverse())),
            "update the revert job",
          );
          const result = await op.tool.handler(op.args, ctx);
          applied.push({ tool: op.tool.name, result: result.structured });
          if (op.tool.crud!.verb === "add") {
            const newId = (result.structured.item as { id?: string } | undefined)?.id;
            if (newId) {
              inverses[i] = inverseStatement(
                op.tool.crud!.menu,
                "add",
                dialect,
                op.args,
                {},
                newId,
              );
              await expectSilent(
                client,
                rearmJobStatement(job, revertScript(job, inverses.slice(0, i + 1).reverse())),
                "update the revert job",
              );
            }
          }
        } catch (err) {
          const undone = await revertNow(client, job, inverses.slice(0, i).reverse());
          throw new RouterOsError(
            err instanceof RouterOsError ? err.kind : "failure",
            `operation ${i + 1} (${op.tool.name}) failed: ${
              err instanceof Error ? err.message : String(err)
            }. ${undone}`,
            err instanceof RouterOsError ? err.routerMessage : "",
          );
        }
      }
      const health = await healthCheck(client, args.ping_targets as string[] | undefined);
      const routeOk = !hadDefaultRoute || (await defaultRoutes(client)) > 0;
      const pingOk = Object.values(health.ping).every(Boolean);
      if (!health.login || !routeOk || !pingOk) {
        const undone = await revertNow(client, job, inverses.slice().reverse());
        throw new RouterOsError(
          "failure",
          `health check failed after the change (login: ${health.login}, default route: ${routeOk}, ping: ${
            JSON.stringify(health.ping)
          }). ${undone}`,
          "",
        );
      }
      const at = `${formatDate(deadline)} ${formatTime(deadline)}`;
      return {
        structured: {
          change_id: id,
          job,
          deadline: at,
          operations: applied,
          health: { ...health, default_route: routeOk },
        },
        text:
          `change ${id} applied (${applied.length} operations). The router reverts it at ${at} (router time) unless you call router_commit_changes with change_id ${id}.`,
      };
    },
  };

  const commit = pendingChangeTool({
    name: "router_commit_changes",
    title: "Commit a change",
    description:
      "Keep a change made by router_apply_changes: disarm its revert job before the deadline.",
    done: "committed",
    what: "disarm the revert job",
    script: (job) => removeJobStatement(String(job.name)),
  });

  const rollback = pendingChangeTool({
    name: "router_rollback_changes",
    title: "Roll back a change now",
    description:
      "Revert a pending change made by router_apply_changes now, instead of waiting for its deadline.",
    done: "rolled_back",
    what: "run the revert script",
    // The job's own script: the inverses, then the job removes itself.
    script: (job) => String(job["on-event"] ?? ""),
  });

  const pending: ToolDef = {
    name: "router_list_pending_changes",
    title: "List pending changes",
    description:
      "List changes made by router_apply_changes that are not committed yet, with the deadline at which the router reverts each.",
    toolset: "system",
    input: {},
    output: {
      items: z.array(
        z.object({
          change_id: z.string(),
          job: z.string(),
          deadline: z.string(),
          comment: z.string(),
        }),
      ),
    },
    annotations: READ,
    perDevice: true,
    async handler(_args, { client }) {
      const jobs = (await client.read(SCHEDULER)).filter((j) =>
        String(j.name ?? "").startsWith(REVERT_JOB_PREFIX)
      );
      const items = jobs.map((j) => ({
        change_id: String(j.name).slice(REVERT_JOB_PREFIX.length),
        job: String(j.name),
        deadline: `${j["start-date"] ?? ""} ${j["start-time"] ?? ""}`.trim(),
        comment: String(j.comment ?? ""),
      }));
      return {
        structured: { items },
        text: renderTable(items, ["change_id", "deadline", "comment"]),
      };
    },
  };

  return [apply, commit, rollback, pending];
}

/** A tool that acts on one pending change by running one script for its job. */
function pendingChangeTool(o: {
  name: string;
  title: string;
  description: string;
  done: "committed" | "rolled_back";
  what: string;
  script: (job: RawItem) => string;
}): ToolDef {
  return {
    name: o.name,
    title: o.title,
    description: o.description,
    toolset: "system",
    input: { change_id: CHANGE_ID },
    output: { change_id: z.string(), [o.done]: z.boolean() },
    annotations: WRITE,
    perDevice: true,
    async dryRun(args, { client }) {
      const job = await findJob(client, String(args.change_id));
      return {
        commands: [o.script(job)],
        preview: { change_id: args.change_id, [o.done]: true },
        problems: [],
      };
    },
    async handler(args, { client }) {
      const job = await findJob(client, String(args.change_id));
      await expectSilent(client, o.script(job), o.what);
      return {
        structured: { change_id: args.change_id, [o.done]: true },
        text: `change ${args.change_id} ${o.done.replace("_", " ")}`,
      };
    },
  };
}

async function findJob(client: RouterOsClient, changeId: string): Promise<RawItem> {
  const name = revertJobName(CHANGE_ID.parse(changeId));
  const [job] = await client.read(SCHEDULER, [{ key: "name", value: name }]);
  if (!job) {
    throw new RouterOsError(
      "not-found",
      `no pending change ${changeId}: it was committed, rolled back, or its deadline passed (see router_list_pending_changes)`,
      "",
    );
  }
  return job;
}

/** Run a write that must print nothing; any output is the router's error. */
async function expectSilent(client: RouterOsClient, command: string, what: string) {
  const out = await client.run(command, "/system scheduler", false);
  if (out.trim() !== "") {
    throw new RouterOsError("failure", `could not ${what}: ${out.trim()}`, out.trim());
  }
}

/** Revert applied operations now and disarm the job; say what happened. */
async function revertNow(client: RouterOsClient, job: string, inverses: string[]): Promise<string> {
  try {
    const out = await client.run(revertScript(job, inverses), "/system scheduler", false);
    return out.trim() === ""
      ? `The ${inverses.length} operation(s) applied before it were rolled back.`
      : `Rolling back reported: ${out.trim()}. The revert job ${job} stays armed as a fallback.`;
  } catch (err) {
    return `Rolling back failed (${
      (err as Error).message
    }); the revert job ${job} on the router will revert at its deadline.`;
  }
}

/** Health after a change: a fresh login, and ping targets. */
async function healthCheck(client: RouterOsClient, targets: string[] = []) {
  const login = await client.probeLogin().then(() => true, () => false);
  const ping: Record<string, boolean> = {};
  for (const t of targets) {
    const out = await client.run(`:put [/ping address=${quoteValue(t)} count=3]`, "/ping", true)
      .catch(() => "0");
    ping[t] = Number(out.trim()) > 0;
  }
  return { login, default_route: true, ping };
}

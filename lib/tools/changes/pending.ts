/**
 * Pending changes of `router_apply_changes`: commit (disarm the revert
 * job), roll back now (run its script), and list the armed jobs.
 *
 * @module
 */
import * as z from "zod";
import type { RawItem } from "../../routeros/parse_json.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { scheduler } from "../../routeros/schema/menus/services.ts";
import { removeJobStatement, REVERT_JOB_PREFIX } from "../../routeros/scheduler.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, type ToolDef, WRITE } from "../tool.ts";
import { noteOutcome } from "../errors.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { expectSilent, findJob, incompleteRevert } from "./revert_job.ts";

const CHANGE_ID = z.string().regex(/^[0-9a-f]{12}$/, "a change id from router_apply_changes");

/** A tool that acts on one pending change by running one script for its job. */
function pendingChangeTool(o: {
  name: string;
  title: string;
  description: string;
  done: "committed" | "rolled_back";
  what: string;
  script: (job: RawItem) => string;
  /** After the script ran: raise what it left undone. */
  check?: (ctx: ToolContext, job: string) => Promise<void>;
}): ToolDef {
  return defineTool({
    name: o.name,
    title: o.title,
    description: o.description,
    toolset: "changes",
    readBack: "router_list_pending_changes",
    input: { change_id: CHANGE_ID },
    output: { change_id: z.string(), [o.done]: z.boolean() } as Record<string, z.ZodType>,
    annotations: WRITE,
    perDevice: true,
    async dryRun(args, ctx) {
      const job = await findJob(ctx.client, args.change_id);
      return {
        commands: [o.script(job)],
        preview: { change_id: args.change_id, [o.done]: true },
        problems: [],
      };
    },
    async handler(args, ctx) {
      const job = await findJob(ctx.client, args.change_id);
      await expectSilent(ctx.client, o.script(job), o.what);
      await o.check?.(ctx, String(job.name));
      return {
        structured: { change_id: args.change_id, [o.done]: true },
        text: `change ${args.change_id} ${o.done.replace("_", " ")}`,
      };
    },
  });
}

/** `router_commit_changes`. */
export const commitChanges = pendingChangeTool({
  name: "router_commit_changes",
  title: "Commit a change",
  description:
    "Keep a change made by router_apply_changes: disarm its revert job before the deadline.",
  done: "committed",
  what: "disarm the revert job",
  script: (job) => removeJobStatement(String(job.name)),
});

/** `router_rollback_changes`. */
export const rollbackChanges = pendingChangeTool({
  name: "router_rollback_changes",
  title: "Roll back a change now",
  description:
    "Revert a pending change made by router_apply_changes now, instead of waiting for its deadline.",
  done: "rolled_back",
  what: "run the revert script",
  // The job's own script: the undo steps, then the job removes itself.
  script: (job) => String(job["on-event"] ?? ""),
  async check(ctx, job) {
    const incomplete = await incompleteRevert(ctx.client, job);
    if (incomplete) {
      const err = new RouterOsError("failure", `rolled back, except: ${incomplete}`, "");
      // Every step ran; the job's record says which failed.
      noteOutcome(err, { kind: "stated" });
      throw err;
    }
  },
});

/** `router_list_pending_changes`. */
export const listPendingChanges = defineTool({
  name: "router_list_pending_changes",
  title: "List pending changes",
  description:
    "List changes made by router_apply_changes that are not committed yet, with the deadline at " +
    "which the router reverts each.",
  toolset: "changes",
  input: {},
  output: {
    items: z.array(z.object({
      change_id: z.string(),
      job: z.string(),
      deadline: z.string(),
      comment: z.string(),
    })),
  },
  annotations: READ,
  perDevice: true,
  async handler(_args, ctx) {
    const dialect = await ctx.client.dialect();
    const jobs = (await ctx.client.read(readSpecOf(scheduler, dialect.release)))
      .filter((j) => String(j.name ?? "").startsWith(REVERT_JOB_PREFIX));
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
});

/**
 * Pending changes of `router_apply_changes` and `router_import_script`:
 * commit (disarm the revert job; an import's backup file goes too), roll
 * back now (run the job's script: an import's loads its backup, in the
 * background, and the router reboots), and list the armed jobs.
 *
 * Committing or rolling back a change needs the role that made it, checked
 * by the role guard once the job is read: an import's is
 * `router_import_script`'s (admin; its rollback reboots the router), a
 * change whose operations needed admin says so in its job's comment.
 *
 * @module
 */
import * as z from "zod";
import { cmd } from "../../routeros/command.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { scheduler } from "../../routeros/schema/menus/services.ts";
import { removeJobStatement, REVERT_JOB_PREFIX } from "../../routeros/scheduler.ts";
import { revertBackupOf, runInBackground } from "../../routeros/import_revert.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, type ToolDef, WRITE } from "../tool.ts";
import { noteOutcome } from "../errors.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import {
  expectSilent,
  findJob,
  incompleteRevert,
  notedRole,
  shownStatement,
} from "./revert_job.ts";
import { requiredRole } from "../guard/roles.ts";
import { importScript } from "./import_script.ts";
import { exportBefore, revertImportNow } from "./import_revert.ts";

const CHANGE_ID = z.string().regex(
  /^[0-9a-f]{12}$/,
  "a change id from router_apply_changes or router_import_script",
);

/** A failure whose message states what it left on the router. */
function stated(message: string): RouterOsError {
  const err = new RouterOsError("failure", message, "");
  noteOutcome(err, { kind: "stated" });
  return err;
}

/**
 * The pending change `changeId` (its job), once the caller is known to
 * hold the role that made it (the role guard's own check).
 */
async function authorizedJob(ctx: ToolContext, changeId: string): Promise<RawItem> {
  const job = await findJob(ctx.client, changeId);
  if (revertBackupOf(String(job["on-event"] ?? ""))) {
    ctx.authorizeRole(
      requiredRole(importScript),
      `acts on change ${changeId}, an import by ${importScript.name} (its rollback loads a ` +
        "backup and reboots the router)",
    );
  }
  const noted = notedRole(String(job.comment ?? ""));
  if (noted) {
    ctx.authorizeRole(
      noted,
      `acts on change ${changeId}, whose operations needed the ${noted} role`,
    );
  }
  return job;
}

/** A tool that acts on one pending change by running one script for its job. */
function pendingChangeTool(o: {
  name: string;
  title: string;
  description: string;
  done: "committed" | "rolled_back";
  what: string;
  /** The script this tool runs for a job (what its dry run shows). */
  script: (job: RawItem) => string;
  /** Run it and say what else happened (default: the script, which prints nothing). */
  act?: (ctx: ToolContext, job: RawItem, changeId: string) => Promise<string | undefined>;
}): ToolDef {
  return defineTool({
    name: o.name,
    title: o.title,
    description: o.description,
    toolset: "changes",
    // The router reverts the change by itself at its deadline: never behind other calls.
    urgent: true,
    readBack: "router_list_pending_changes",
    input: { change_id: CHANGE_ID },
    output: {
      change_id: z.string(),
      [o.done]: z.boolean(),
      detail: z.string().optional().describe("What else happened (an import's reboot)"),
    } as Record<string, z.ZodType>,
    annotations: WRITE,
    perDevice: true,
    async dryRun(args, ctx) {
      const job = await authorizedJob(ctx, args.change_id);
      return {
        // A rollback's script holds the undo steps: old values the caller may not read.
        commands: [shownStatement(o.script(job), ctx.scriptText)],
        preview: { change_id: args.change_id, [o.done]: true },
        problems: [],
      };
    },
    async handler(args, ctx) {
      const job = await authorizedJob(ctx, args.change_id);
      const detail = o.act
        ? await o.act(ctx, job, args.change_id)
        : await expectSilent(ctx.client, o.script(job), o.what).then(() => undefined);
      return {
        structured: { change_id: args.change_id, [o.done]: true, ...(detail ? { detail } : {}) },
        text: `change ${args.change_id} ${o.done.replace("_", " ")}${detail ? `. ${detail}` : ""}`,
      };
    },
  });
}

/** `router_commit_changes`. */
export const commitChanges = pendingChangeTool({
  name: "router_commit_changes",
  title: "Commit a change",
  description:
    "Keep a change made by router_apply_changes or router_import_script: disarm its revert job " +
    "before the deadline (an import's backup file on the router is removed too).",
  done: "committed",
  what: "disarm the revert job",
  script: (job) => {
    const backup = revertBackupOf(String(job["on-event"] ?? ""));
    return [
      removeJobStatement(String(job.name)),
      ...(backup ? [cmd("/file", "remove", { find: [{ key: "name", value: backup }] })] : []),
    ].join("; ");
  },
});

/** `router_rollback_changes`. */
export const rollbackChanges = pendingChangeTool({
  name: "router_rollback_changes",
  title: "Roll back a change now",
  description:
    "Revert a pending change made by router_apply_changes or router_import_script now, instead " +
    "of waiting for its deadline. An import's revert loads its backup: the router reboots, and " +
    "this waits for it (up to 300 s) and compares its configuration with the one before.",
  done: "rolled_back",
  what: "run the revert script",
  // The job's own script: the undo steps, then the job removes itself; an
  // import's loads its backup in the background (a console would ask first).
  script: (job) => {
    const script = String(job["on-event"] ?? "");
    return revertBackupOf(script) ? runInBackground(script) : script;
  },
  async act(ctx, job, changeId) {
    const name = String(job.name);
    const onEvent = String(job["on-event"] ?? "");
    const backupFile = revertBackupOf(onEvent);
    if (backupFile) {
      const before = await exportBefore(ctx, changeId);
      const r = await revertImportNow(ctx, { job: name, onEvent, backupFile, before });
      if (!r.reverted) throw stated(r.sentence);
      return r.sentence;
    }
    await expectSilent(ctx.client, onEvent, "run the revert script");
    const incomplete = await incompleteRevert(ctx.client, name);
    // Every step ran; the job's record says which failed.
    if (incomplete) throw stated(`rolled back, except: ${incomplete}`);
    return undefined;
  },
});

/** `router_list_pending_changes`. */
export const listPendingChanges = defineTool({
  name: "router_list_pending_changes",
  title: "List pending changes",
  description:
    "List changes made by router_apply_changes or router_import_script that are not committed " +
    "yet, with the deadline at which the router reverts each (its comment says how).",
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

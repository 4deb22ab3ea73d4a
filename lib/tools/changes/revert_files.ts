/**
 * The files a pending change's revert needs: an import's revert job loads
 * the backup saved just before the import (`mcp-revert-<id>.backup`).
 * While the change waits for `router_commit_changes`, removing or
 * replacing that file would leave the router nothing to revert to at the
 * deadline (the import would stay although nobody committed it), so a
 * write that would is refused before anything is sent, dry runs included,
 * as the clock guard refuses a clock move (`lib/tools/system/clock_guard.ts`;
 * refusal kind `pending-change`, which the REST proxy answers 409
 * `pending_change`). Committing the change removes the backup with it;
 * rolling it back loads it.
 *
 * @module
 */
import type { RouterOsClient } from "../../routeros/client.ts";
import { revertBackupOf } from "../../routeros/import_revert.ts";
import { REVERT_JOB_PREFIX } from "../../routeros/scheduler.ts";
import { RefusedError } from "../guard/refusals.ts";
import type { ToolContext } from "../tool.ts";
import { armedRevertJobs } from "./revert_job.ts";

/**
 * A file name as compared with a revert's backup: without a leading `/`,
 * in lower case (a name in other letters is refused too: fail closed).
 */
function comparable(name: string): string {
  return name.replace(/^\/+/, "").toLowerCase();
}

/** The backup files the armed revert jobs load, each with the id of its change. */
export async function revertBackups(client: RouterOsClient): Promise<Map<string, string>> {
  const needed = new Map<string, string>();
  for (const job of await armedRevertJobs(client)) {
    const backup = revertBackupOf(String(job["on-event"] ?? ""));
    if (backup) {
      needed.set(comparable(backup), String(job.name).slice(REVERT_JOB_PREFIX.length));
    }
  }
  return needed;
}

/**
 * Refuse `tool` when it would `act` on (remove, replace) a file a pending
 * change's revert loads. `names` gives the files it acts on, asked only
 * when a change is pending (resolving an id costs a read).
 */
export async function refuseRevertFileWrite(
  tool: string,
  act: "remove" | "replace",
  names: () => Promise<readonly string[]> | readonly string[],
  ctx: Pick<ToolContext, "client">,
): Promise<void> {
  const needed = await revertBackups(ctx.client);
  if (needed.size === 0) return;
  for (const name of await names()) {
    const change = needed.get(comparable(name));
    if (!change) continue;
    throw new RefusedError(
      "pending-change",
      `${tool} would ${act} ${name}, the backup that the revert job of change ${change} loads, ` +
        `while change ${change} waits for router_commit_changes: without it the router could ` +
        "not revert the import at its deadline. Commit it (router_commit_changes removes the " +
        "backup with it) or roll it back first (router_list_pending_changes). Nothing was sent.",
    );
  }
}

/**
 * The router side of an import under confirm-or-revert: the configuration
 * as an export (secrets hidden), the backup saved before the import, and a
 * revert now (a failed import or health check, `router_rollback_changes`):
 * the job's script runs in the background, the router loads the backup and
 * reboots, this server waits for it to answer again, then compares its
 * configuration with the export taken before the import and removes the
 * backup file.
 *
 * @module
 */
import { cmd } from "../../routeros/command.ts";
import type { RouterOsClient } from "../../routeros/client.ts";
import {
  type ConfigDiff,
  diffExports,
  renderDiff,
  sameConfiguration,
} from "../../routeros/config_diff.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { type ParsedExport, parseExport } from "../../routeros/export_parse.ts";
import { backupSaveStatement, runInBackground } from "../../routeros/import_revert.ts";
import { REVERT_INCOMPLETE_MARK } from "../../routeros/scheduler.ts";
import { maskExportSecrets } from "../../routeros/export_secrets.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { resource } from "../../routeros/schema/menus/system.ts";
import { durationMs, expectOnly } from "../../routeros/values.ts";
import { SshError } from "../../ssh/errors.ts";
import type { ToolContext } from "../tool.ts";
import { SnapshotStore } from "../operations/snapshot_store.ts";
import { expectSilent, schedulerJob } from "./revert_job.ts";

/** How long a revert waits for the router to answer again after loading the backup. */
export const REBOOT_WAIT_MS = 300_000;

/** The note of the snapshot taken before an import (found again by a rollback). */
export function snapshotNote(changeId: string): string {
  return `before router_import_script, change ${changeId}`;
}

/**
 * The whole configuration as `/export` prints it, secrets hidden (6.x shows
 * them unless told), and the passwords in its scripts masked (a pending
 * change's revert job holds its backup's one-time password).
 */
export async function hiddenExport(client: RouterOsClient): Promise<string> {
  const script = await client.script();
  const switches = script.dialect.major < 7 ? ["hide-sensitive"] : [];
  const exported = script.lines(cmd("/", "export", { switches }));
  const out = await client.run(script, { idempotent: true, what: "/export" });
  return maskExportSecrets(out.get(exported).join("\n") + "\n");
}

/**
 * An export without the revert job `job` of the change compared, which is
 * not the configuration it made. Other changes' revert jobs stay: a script
 * that removes them shows in the diff.
 */
function withoutRevertJob(text: string, job: string): ParsedExport {
  const parsed = parseExport(text);
  const jobs = parsed.menus.get("/system/scheduler");
  if (jobs) {
    const kept = jobs.filter((c) => c.values.name !== job);
    if (kept.length) parsed.menus.set("/system/scheduler", kept);
    else parsed.menus.delete("/system/scheduler");
  }
  return parsed;
}

/** What changed from one export to another, the revert job `job` of the change left out. */
export function changesBetween(before: string, after: string, job: string): ConfigDiff {
  return diffExports(withoutRevertJob(before, job), withoutRevertJob(after, job));
}

/** A diff as text, cut to `max` characters. */
export function diffText(diff: ConfigDiff, max = 4000): string {
  const text = renderDiff(diff);
  return text.length > max
    ? `${text.slice(0, max)}\n... (${text.length - max} more characters)`
    : text;
}

/** `/system backup save` prints these on success. */
const SAVED = [/^Saving system configuration$/, /^Configuration backup saved$/];

/** Save the backup `name`.backup (encrypted with `password`) and check that it is there. */
export async function saveBackup(client: RouterOsClient, name: string, password: string) {
  const script = await client.script();
  const saved = script.lines(backupSaveStatement(name, password));
  const file = script.read(readSpecOf(files, script.dialect.release), [
    { key: "name", value: `${name}.backup` },
  ]);
  const out = await client.run(script, { idempotent: false, what: "/system/backup" });
  expectOnly(out.get(saved).join("\n"), SAVED);
  if (out.get(file).items.length === 0) {
    throw new RouterOsError("failure", `the backup ${name}.backup was not saved`, "");
  }
}

/** Remove files from the router's storage; whether that worked. */
export async function removeFiles(client: RouterOsClient, names: readonly string[]) {
  if (names.length === 0) return true;
  try {
    const script = await client.script();
    for (const name of names) {
      script.do(cmd("/file", "remove", { find: [{ key: "name", value: name }] }));
    }
    await client.run(script, { idempotent: false, what: "/file" });
    return true;
  } catch {
    return false;
  }
}

/** The router's uptime in ms, or undefined when it does not answer. */
async function uptime(client: RouterOsClient): Promise<number | undefined> {
  try {
    const dialect = await client.dialect();
    const [raw] = await client.read(readSpecOf(resource, dialect.release));
    return durationMs(raw?.uptime);
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}

/** What the revert job of `job` says when its load failed (it stays, disabled, with that comment). */
async function loadFailed(client: RouterOsClient, job: string): Promise<string | undefined> {
  try {
    const left = await schedulerJob(client, job);
    const comment = String(left?.comment ?? "");
    const at = comment.indexOf(REVERT_INCOMPLETE_MARK);
    return at >= 0 ? comment.slice(at) : undefined;
  } catch {
    return undefined;
  }
}

/** How a revert now went. */
export interface ImportRevert {
  /** The router came back from loading the backup. */
  reverted: boolean;
  /** Seconds from the load to the router answering again. */
  seconds?: number;
  /** Its configuration matches the export taken before the import (when one was at hand). */
  matches?: boolean;
  /** A sentence for the agent. */
  sentence: string;
}

/** Whether the revert job `job` is still on the router (undefined: the router did not say). */
async function jobThere(client: RouterOsClient, job: string): Promise<boolean | undefined> {
  try {
    return (await schedulerJob(client, job)) !== undefined;
  } catch {
    return undefined;
  }
}

/** One load of the backup: the router rebooted (after `elapsed` ms), or a sentence why not. */
async function loadOnce(
  ctx: ToolContext,
  o: { job: string; onEvent: string; backupFile: string },
): Promise<{ elapsed: number } | { sentence: string }> {
  const { client } = ctx;
  let up = await uptime(client) ?? 0;
  // A reboot shows as an uptime shorter than the old one has grown to; give it 2 s to show.
  if (up < 2000) {
    await sleep(2000 - up, ctx.signal);
    up = await uptime(client) ?? 2000;
  }
  const at = performance.now();
  try {
    await expectSilent(client, runInBackground(o.onEvent), "load the backup");
  } catch (err) {
    // The router reboots: the connection may end before the answer does.
    if (!(err instanceof SshError)) {
      return {
        sentence: `Loading ${o.backupFile} failed (${(err as Error).message}); the revert job ` +
          `${o.job} will try again at its deadline.`,
      };
    }
  }
  const deadline = at + REBOOT_WAIT_MS;
  for (let wait = 250; performance.now() < deadline && !ctx.signal?.aborted;) {
    await sleep(wait, ctx.signal);
    wait = Math.min(wait * 2, 1000);
    const elapsed = performance.now() - at;
    await ctx.progress?.(elapsed, REBOOT_WAIT_MS, `waiting for the router to load ${o.backupFile}`)
      .catch(() => {});
    const now = await uptime(client);
    if (now === undefined) continue;
    if (now + 1000 <= up + elapsed) return { elapsed };
    const failed = await loadFailed(client, o.job);
    if (failed) {
      return {
        sentence: `The router did not load the backup: ${failed}. The change is still applied; ` +
          `read it back, and restore ${o.backupFile} by hand if needed.`,
      };
    }
  }
  return {
    sentence: `The router did not answer within ${REBOOT_WAIT_MS / 1000} s after it was told ` +
      `to load ${o.backupFile}; check it by hand (the revert job ${o.job}, if still there, ` +
      "runs at its deadline).",
  };
}

/**
 * Revert an import now: run its revert job's script in the background (the
 * router loads the backup and reboots), wait until the router's uptime
 * shows the reboot (or the job records that the load failed), check that
 * the job is gone (the restored configuration was saved before the job
 * existed: a job still there means the router rebooted for another reason,
 * a script's own `/system reboot`, and the load is tried once more),
 * compare the configuration with `before`, and remove the backup file.
 */
export async function revertImportNow(
  ctx: ToolContext,
  o: { job: string; onEvent: string; backupFile: string; before?: string },
): Promise<ImportRevert> {
  for (let attempt = 1;; attempt++) {
    const r = await loadOnce(ctx, o);
    if ("sentence" in r) return { reverted: false, sentence: r.sentence };
    const there = await jobThere(ctx.client, o.job);
    if (there === false) return await afterReboot(ctx, o, r.elapsed);
    if (attempt === 2 || there === undefined) {
      return {
        reverted: false,
        sentence: `The router rebooted, but its revert job ${o.job} is ${
          there ? "still there: the backup was not loaded" : "not readable"
        }; the job loads ${o.backupFile} at its deadline unless the change is committed.`,
      };
    }
  }
}

async function afterReboot(
  ctx: ToolContext,
  o: { job: string; backupFile: string; before?: string },
  elapsed: number,
): Promise<ImportRevert> {
  const seconds = Math.round(elapsed / 100) / 10;
  let matches: boolean | undefined;
  let compared = "";
  if (o.before !== undefined) {
    try {
      const now = await hiddenExport(ctx.client);
      const diff = changesBetween(o.before, now, o.job);
      matches = sameConfiguration(withoutRevertJob(o.before, o.job), withoutRevertJob(now, o.job));
      compared = matches
        ? "; its configuration matches the export taken before the import"
        : `; its configuration differs from the export taken before the import:\n${diffText(diff)}`;
    } catch (err) {
      compared = `; its configuration could not be read back (${(err as Error).message})`;
    }
  }
  const removed = await removeFiles(ctx.client, [o.backupFile]);
  return {
    reverted: true,
    seconds,
    ...(matches === undefined ? {} : { matches }),
    sentence: `The router loaded ${o.backupFile} and rebooted (back after ${seconds} s)` +
      `${compared}.${removed ? "" : ` Remove ${o.backupFile} from its storage by hand.`}`,
  };
}

/** The export taken before an import, from the snapshot the import stored (a rollback's check). */
export async function exportBefore(
  ctx: ToolContext,
  changeId: string,
): Promise<string | undefined> {
  if (!ctx.stateDir) return undefined;
  try {
    const store = new SnapshotStore(ctx.stateDir);
    const note = snapshotNote(changeId);
    const meta = (await store.list(ctx.device)).find((m) => m.note === note);
    return meta ? (await store.load(meta.id)).config : undefined;
  } catch {
    return undefined;
  }
}

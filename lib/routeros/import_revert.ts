/**
 * The commands of an `.rsc` import under confirm-or-revert: the `/import`
 * itself per release, the binary backup saved before it, and the revert
 * job's script, which loads that backup (the router restores it and
 * reboots) unless the change is committed.
 *
 * Why a backup: an arbitrary script can change anything, secrets included
 * (a password, a private key, a removed user or certificate), and an export
 * shows none of those, so no inverse computed from two exports can be
 * trusted to undo it. A backup taken just before holds the whole
 * configuration; loading it is what a network engineer would do by hand.
 * Because the job is armed after the backup is saved, the configuration it
 * restores has no job: it runs once. `/system backup load` runs from a
 * scheduler job with no console to answer its prompt, the router comes back
 * with the state of the backup and without the job, and the backup file
 * stays in storage (measured on RouterOS 7.24.4, public:
 * github.com/SecOps-7/MikroDash testdata/fixtures/import/probe-7.24.4-m11.json).
 *
 * @module
 */
import { cmd } from "./command.ts";
import type { Release, ReleaseRange } from "./release.ts";
import { inRange } from "./release.ts";
import { quoteValue } from "./quote.ts";
import { REVERT_INCOMPLETE_MARK } from "./scheduler.ts";

/**
 * Releases whose `/import` takes `dry-run` (the 7.16.2 tree is the first of
 * `../shared/fidelity` that lists it; 7.12.2 and 7.13.5 have `file-name
 * from-line verbose` only, and no 6.x tree is public).
 */
export const IMPORT_DRY_RUN: ReleaseRange = { from: "7.16" };

/** Whether the release's `/import` has `dry-run`. */
export function hasImportDryRun(release: Release): boolean {
  return inRange(release, IMPORT_DRY_RUN);
}

/**
 * `/import file-name="x.rsc" verbose=yes`, and `dry-run` (a bare flag: the
 * console refuses `dry-run=yes`) for the router's own check. `verbose`
 * (every release: the trees from 7.12.2, MikroTik's documentation for 6.x)
 * prints each line before it runs, which is how the failing line is known.
 */
export function importStatement(file: string, dryRun = false): string {
  return cmd("/", "import", {
    args: { "file-name": file, verbose: true },
    switches: dryRun ? ["dry-run"] : [],
  });
}

/** The name of a change's backup (without `.backup`), the same as its job's. */
export function revertBackupName(job: string): string {
  return job;
}

/** `/system backup save name="..." password="..."`: encrypted with a one-time password. */
export function backupSaveStatement(name: string, password: string): string {
  return cmd("/system/backup", "save", { args: { name, password } });
}

/** `/system backup load name="x.backup" password="..."`. */
function backupLoadStatement(file: string, password: string): string {
  return cmd("/system/backup", "load", { args: { name: file, password } });
}

/**
 * The revert job's script of an import: load the backup (the router
 * restores it and reboots, and the restored configuration has no job).
 * When the load fails the job stays, disabled, its comment and a `:log
 * warning` line saying so, as a revert job whose undo step failed does.
 */
export function importRevertScript(job: string, file: string, password: string): string {
  const said = quoteValue(
    `${job}: ${REVERT_INCOMPLETE_MARK}: the backup ${file} could not be loaded`,
  );
  const keep = cmd("/system/scheduler", "set", {
    numbers: { key: "name", value: job },
    args: { disabled: true },
  }) + ` comment=${said}`;
  return `{:do {${backupLoadStatement(file, password)}} on-error={${keep}; :log warning ${said}}}`;
}

/** The backup file a revert job's script loads, when it is an import's. */
export function revertBackupOf(onEvent: string): string | undefined {
  const m = /\/system backup load name="(mcp-revert-[0-9a-f]{12}\.backup)"/.exec(onEvent);
  return m?.[1];
}

/**
 * The script that runs a revert job's script now, in the background: a
 * backup load asks "Restore and reboot?" on a console and runs without
 * asking in a background job (as `router_restore_backup` loads one).
 */
export function runInBackground(script: string): string {
  return `:execute script=${quoteValue(script)}`;
}

/**
 * The router side of confirm-or-revert: the router's clock, its default
 * routes, health after a change, and running the statements that arm,
 * re-arm, disarm or fire a revert job.
 *
 * @module
 */
import type { Role } from "../../auth/principal.ts";
import type { RouterOsClient } from "../../routeros/client.ts";
import { bracket, cmd } from "../../routeros/command.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { ipRoutes } from "../../routeros/schema/menus/routing.ts";
import { scheduler } from "../../routeros/schema/menus/services.ts";
import { clock } from "../../routeros/schema/menus/system.ts";
import {
  formatDate,
  formatTime,
  parseRouterTime,
  REVERT_INCOMPLETE_MARK,
  REVERT_JOB_PREFIX,
  revertJobName,
  revertScript,
  type RouterTime,
  secondsBetween,
} from "../../routeros/scheduler.ts";
import { Script } from "../../routeros/script.ts";
import { asNumber } from "../../routeros/values.ts";
import type { ScriptText } from "../../routeros/export_secrets.ts";
import { maskRawCommand } from "../../routeros/raw_secrets.ts";

/**
 * An undo step or revert script as a caller may see it (a dry run's
 * commands and preview): the secrets the router holds masked (a removal's
 * undo re-adds the item with its password or private key, read back from
 * the router), and the old text of a script field (a `lease-script`
 * restored) withheld whole from a principal below admin, as their reads
 * withhold it. What runs on the router keeps the real values.
 */
export function shownStatement(statement: string, scripts: ScriptText): string {
  return maskRawCommand(statement, { scripts: scripts === "withheld" });
}

/** The router's wall clock now. */
export async function routerTime(client: RouterOsClient): Promise<RouterTime> {
  const dialect = await client.dialect();
  const [raw] = await client.read(readSpecOf(clock, dialect.release));
  const at = raw && parseRouterTime(String(raw.date ?? ""), String(raw.time ?? ""));
  if (!at) throw new RouterOsError("unparsable", "the router's clock could not be read", "");
  return at;
}

/** How many enabled default routes the router has. */
export async function defaultRoutes(client: RouterOsClient): Promise<number> {
  const dialect = await client.dialect();
  const routes = await client.read(readSpecOf(ipRoutes, dialect.release), [
    { key: "dst-address", value: "0.0.0.0/0" },
  ]);
  return routes.filter((r) => r.disabled !== true && r.disabled !== "true").length;
}

/** Run statements that must print nothing; any output is the router's error. */
export async function expectSilent(client: RouterOsClient, statement: string, what: string) {
  const script = new Script(await client.dialect());
  script.do(statement);
  try {
    await client.run(script, { idempotent: false, what: "/system/scheduler" });
  } catch (err) {
    if (err instanceof RouterOsError) {
      throw new RouterOsError(err.kind, `could not ${what}: ${err.message}`, err.routerMessage);
    }
    throw err;
  }
}

/**
 * Revert applied operations now (undo statements in the order the
 * operations were applied) and disarm the job; say what happened.
 */
export async function revertNow(
  client: RouterOsClient,
  job: string,
  inverses: string[],
  what = `The ${inverses.length} operation(s) applied before it were`,
): Promise<string> {
  try {
    await expectSilent(client, revertScript(job, inverses), "roll back");
  } catch (err) {
    return `Rolling back failed (${(err as Error).message}); the revert job ${job} on the router ` +
      "will revert at its deadline.";
  }
  const incomplete = await incompleteRevert(client, job).catch(() => undefined);
  return incomplete ? `${what} rolled back, except: ${incomplete}.` : `${what} rolled back.`;
}

/** The scheduler job named `name` on the router, if it is there. */
export async function schedulerJob(
  client: RouterOsClient,
  name: string,
): Promise<RawItem | undefined> {
  const dialect = await client.dialect();
  const [job] = await client.read(readSpecOf(scheduler, dialect.release), [
    { key: "name", value: name },
  ]);
  return job;
}

/**
 * After a revert script ran: what its job recorded when an undo step
 * failed (the job stays, disabled, with that comment), or undefined when
 * the job removed itself (every step done).
 */
export async function incompleteRevert(
  client: RouterOsClient,
  job: string,
): Promise<string | undefined> {
  const left = await schedulerJob(client, job);
  if (!left) return undefined;
  const comment = String(left.comment ?? "");
  const at = comment.indexOf(REVERT_INCOMPLETE_MARK);
  return `${at >= 0 ? comment.slice(at) : `the job ${job} is still there`} (the job ${job} ` +
    "stays on the router, disabled, as the record: read the items back, then clear it with " +
    "router_commit_changes)";
}

/** Health after a change: a fresh login, and ping targets (3 pings each). */
export async function healthCheck(client: RouterOsClient, targets: readonly string[] = []) {
  const login = await client.probeLogin().then(() => true, () => false);
  const ping: Record<string, boolean> = {};
  const dialect = await client.dialect();
  for (const t of targets) {
    const script = new Script(dialect);
    const path = dialect.major < 7 ? "/" : "/tool";
    const out = script.lines(
      `:put ${bracket(cmd(path, "ping", { args: { address: t, count: 3 } }))}`,
    );
    const lines = await client.run(script, { idempotent: true, what: "ping" })
      .then((o) => o.get(out).filter((l) => l.trim() !== ""), () => ["0"]);
    ping[t] = (asNumber(lines.at(-1) ?? "0") ?? 0) > 0;
  }
  return { login, ping };
}

/** The revert job of a change, or a not-found error that says why it may be gone. */
export async function findJob(client: RouterOsClient, changeId: string): Promise<RawItem> {
  const job = await schedulerJob(client, revertJobName(changeId));
  if (!job) {
    throw new RouterOsError(
      "not-found",
      `no pending change ${changeId}: it was committed, rolled back, or its deadline passed ` +
        "(see router_list_pending_changes)",
      "",
    );
  }
  return job;
}

/**
 * What a revert job's comment says when committing or rolling back its
 * change needs more than the operate role: an operation of it needed admin
 * (a user added). Only admin writes `/system scheduler`, so no lesser key
 * can change it.
 */
export function roleNote(role: Role): string {
  return role === "admin" ? "; commit or roll back needs the admin role" : "";
}

/** The role a revert job's comment names ({@linkcode roleNote}), or undefined. */
export function notedRole(comment: string): Role | undefined {
  return /; commit or roll back needs the admin role/.test(comment) ? "admin" : undefined;
}

/** Whether a scheduler job is disabled (RouterOS prints `true`; older output `yes`). */
function isDisabled(job: RawItem): boolean {
  return job.disabled === true || job.disabled === "true" || job.disabled === "yes";
}

/** The revert jobs armed on the router (enabled: a disabled one is an incomplete revert's record). */
export async function armedRevertJobs(client: RouterOsClient): Promise<RawItem[]> {
  const dialect = await client.dialect();
  return (await client.read(readSpecOf(scheduler, dialect.release)))
    .filter((j) => String(j.name ?? "").startsWith(REVERT_JOB_PREFIX) && !isDisabled(j));
}

/** A router time as people read it. */
function shown(at: RouterTime): string {
  return `${formatDate(at)} ${formatTime(at)}`;
}

/** How far past the planned window the deadline may lie before the clock counts as moved back. */
const CLOCK_SLACK_S = 60;

/**
 * What defeats a change's revert job, or undefined when it is armed as it
 * was: still there, enabled, to run at `deadline`, which the router's
 * clock has neither passed nor left more than `seconds` (plus a minute)
 * away. A change that removed or disabled its job, or moved the clock (a
 * date set back, a time zone), would otherwise never revert.
 */
export async function defeatedJob(
  client: RouterOsClient,
  job: string,
  deadline: RouterTime,
  seconds: number,
): Promise<string | undefined> {
  const found = await schedulerJob(client, job);
  if (!found) return `its revert job ${job} is gone from the router`;
  if (isDisabled(found)) return `its revert job ${job} was disabled`;
  const start = parseRouterTime(
    String(found["start-date"] ?? ""),
    String(found["start-time"] ?? ""),
  );
  if (!start || secondsBetween(start, deadline) !== 0) {
    return `its revert job ${job} no longer starts at ${shown(deadline)} (it says ` +
      `${found["start-date"] ?? ""} ${found["start-time"] ?? ""})`;
  }
  const now = await routerTime(client);
  const left = secondsBetween(now, deadline);
  if (left < 0) {
    return `the router's clock (${shown(now)}) was moved past the deadline ${shown(deadline)}, ` +
      "so its revert job would not run";
  }
  if (left > seconds + CLOCK_SLACK_S) {
    return `the router's clock was moved back (${shown(now)}), so its revert job would run ` +
      `${Math.round(left)} s from now instead of within ${seconds} s`;
  }
  return undefined;
}

/**
 * Revert jobs on the router: a `/system scheduler` entry that runs an
 * inverse script at a deadline and then removes itself, so a change reverts
 * even when the MCP server or its connection is gone.
 *
 * @module
 */
import { cmd } from "./command.ts";
import { quoteValue } from "./quote.ts";

/** Prefix of every revert job's name. */
export const REVERT_JOB_PREFIX = "mcp-revert-";

/** A wall-clock time as the router reports it (its local time). */
export interface RouterTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Whether the router writes dates as `jun/26/2024` (v6, early v7). */
  legacyDate: boolean;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Parse `/system clock` date and time (`2024-06-26` or `jun/26/2024`, `11:42:37`). */
export function parseRouterTime(date: string, time: string): RouterTime | null {
  const t = /^(\d{1,2}):(\d{2}):(\d{2})$/.exec(time.trim());
  if (!t) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const legacy = /^([a-z]{3})\/(\d{2})\/(\d{4})$/.exec(date.trim().toLowerCase());
  let year: number, month: number, day: number;
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (legacy && MONTHS.includes(legacy[1])) {
    [year, month, day] = [Number(legacy[3]), MONTHS.indexOf(legacy[1]) + 1, Number(legacy[2])];
  } else return null;
  return {
    year,
    month,
    day,
    hour: Number(t[1]),
    minute: Number(t[2]),
    second: Number(t[3]),
    legacyDate: !iso,
  };
}

/** The router time `seconds` later (calendar arithmetic, no time zones). */
export function addSeconds(at: RouterTime, seconds: number): RouterTime {
  const ms = Date.UTC(at.year, at.month - 1, at.day, at.hour, at.minute, at.second) +
    seconds * 1000;
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    legacyDate: at.legacyDate,
  };
}

/** Seconds from `from` to `to` (negative when `to` is earlier; calendar arithmetic). */
export function secondsBetween(from: RouterTime, to: RouterTime): number {
  const ms = (t: RouterTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return (ms(to) - ms(from)) / 1000;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `start-date` value in the router's own format. */
export function formatDate(at: RouterTime): string {
  return at.legacyDate
    ? `${MONTHS[at.month - 1]}/${pad(at.day)}/${at.year}`
    : `${at.year}-${pad(at.month)}-${pad(at.day)}`;
}

/** `start-time` value. */
export function formatTime(at: RouterTime): string {
  return `${pad(at.hour)}:${pad(at.minute)}:${pad(at.second)}`;
}

/** The job's name for a change id (the id is checked by the caller). */
export function revertJobName(changeId: string): string {
  return REVERT_JOB_PREFIX + changeId;
}

/** The statement that removes a revert job. */
export function removeJobStatement(name: string): string {
  return cmd("/system/scheduler", "remove", { numbers: { key: "name", value: name } });
}

/**
 * The statement that arms (adds) a revert job running `script` at `at`.
 * The script is quoted once more, as a value inside a command.
 */
export function armJobStatement(
  name: string,
  at: RouterTime,
  script: string,
  comment: string,
): string {
  return cmd("/system/scheduler", "add", {
    args: {
      name,
      "start-date": formatDate(at),
      "start-time": formatTime(at),
      interval: "0",
      comment,
      "on-event": script,
    },
  });
}

/** The statement that replaces a job's script. */
export function rearmJobStatement(name: string, script: string): string {
  return cmd("/system/scheduler", "set", {
    numbers: { key: "name", value: name },
    args: { "on-event": script },
  });
}

/** What the comment and log line of a revert job that could not finish begin with. */
export const REVERT_INCOMPLETE_MARK = "revert incomplete";

/** What an incomplete revert's job comment and log line say, before the failed steps. */
export const REVERT_INCOMPLETE = `${REVERT_INCOMPLETE_MARK}: undo failed for operation(s)`;

/**
 * The full revert script of a job: the undo statements of the operations
 * applied (given in the order they were applied; run last first), each in
 * `:do {} on-error={}`, so one that fails (an item already removed by hand)
 * does not stop the others. With every step done the job removes itself;
 * with a step failed it stays, disabled (it never runs again), and its
 * comment and a `:log warning` line name the operations whose undo failed,
 * where `router_list_pending_changes` and the log read them back. The
 * whole is one `{...}` block, so its `:local` holds on a console too.
 *
 * A step that fails inside `:do` and is caught this way is how a real
 * RouterOS 7.24.4 script survives a failing line and logs it (a public
 * measurement: github.com/SecOps-7/MikroDash
 * testdata/fixtures/import/probe-7.24.4-m12.json, "line 2 failed" logged
 * and the later lines ran); `:do {} on-error={}` is in RouterOS 6 and 7.
 */
export function revertScript(name: string, undos: readonly string[]): string {
  const steps = undos.map((s, i) => `:do {${s}} on-error={:set failed ($failed . " ${i + 1}")}`)
    .reverse();
  const said = `(${quoteValue(`${name}: ${REVERT_INCOMPLETE}`)} . $failed)`;
  const job = { key: "name", value: name };
  const keep = cmd("/system/scheduler", "set", { numbers: job, args: { disabled: true } }) +
    ` comment=${said}`;
  return [
    '{:local failed ""',
    ...steps,
    `:if ($failed = "") do={${removeJobStatement(name)}} else={${keep}; :log warning ${said}}}`,
  ].join("\n");
}

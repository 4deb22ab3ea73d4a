/**
 * `router_get_logs`: the router's log, filtered on the router by topics,
 * severity and literal text (an escaped, quoted `message~` match), then by
 * time window and limit here.
 *
 * @module
 */
import * as z from "zod";
import { type Condition, getExpr, listMemberRegex, regexLiteral } from "../../routeros/command.ts";
import { unparsable } from "../../routeros/errors.ts";
import { rawText } from "../../routeros/schema/convert.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { logEntries } from "../../routeros/schema/menus/logs.ts";
import { Script } from "../../routeros/script.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { isoDate, logTime } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { MAX_LIST, MAX_TEXT } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

const SEVERITIES = ["debug", "info", "warning", "error", "critical"] as const;

const TIME = z.string().regex(
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/,
  "a router-local time such as 2024-06-26 11:42:00",
);

interface Filters {
  topics?: string[];
  severity?: typeof SEVERITIES[number];
  text?: string;
}

function conditionsOf(args: Filters): Condition[] {
  const out: Condition[] = [];
  if (args.topics?.length) out.push({ key: "topics", regex: listMemberRegex(args.topics) });
  if (args.severity && args.severity !== "debug") {
    out.push({
      key: "topics",
      regex: listMemberRegex(SEVERITIES.slice(SEVERITIES.indexOf(args.severity))),
    });
  }
  if (args.text) out.push({ key: "message", regex: regexLiteral(args.text) });
  return out;
}

/** The exact script: today's date (for time windows) and the filtered read. */
export function logScript(dialect: Dialect, args: Filters) {
  const script = new Script(dialect);
  const today = script.scalars({ today: getExpr("/system/clock", "date") });
  const entries = script.read(readSpecOf(logEntries, dialect.release), conditionsOf(args));
  return { script, today, entries };
}

const ENTRY = z.object({
  id: z.string(),
  time: z.string().describe("Time as the router prints it"),
  at: z.string().optional().describe("The same time as YYYY-MM-DD HH:MM:SS (router-local)"),
  topics: z.array(z.string()),
  message: z.string(),
});

/** A log entry's place in the log: its id (`*1A`) as a number. */
function entryNumber(id: string): number {
  return /^\*[0-9A-Fa-f]+$/.test(id) ? parseInt(id.slice(1), 16) : -1;
}

/** `router_get_logs`. */
export const getLogs = defineTool({
  name: "router_get_logs",
  title: "Read the log",
  description:
    "Read the router's log (newest last), filtered by topics (any of), minimum severity, a " +
    "literal text the message must contain (not a pattern), and a router-local time window. " +
    "Returns the newest `limit` entries (default 100, at most 1000). To follow the log, pass " +
    "the previous answer's `cursor` as `after`: the oldest `limit` entries after it come back.",
  toolset: "logs",
  core: true,
  input: {
    topics: z.array(z.string().max(64).regex(/^[a-z0-9][a-z0-9-]*$/, "a topic such as dhcp"))
      .max(20).optional().describe('Only entries with any of these topics, e.g. ["dhcp"]'),
    severity: z.enum(SEVERITIES).optional().describe("Only entries of this severity or worse"),
    text: z.string().max(MAX_TEXT).optional().describe(
      "Only entries whose message contains this text (literally, case-sensitive)",
    ),
    since: TIME.optional().describe("Only entries at or after this router-local time"),
    until: TIME.optional().describe("Only entries at or before this router-local time"),
    limit: z.number().int().min(1).max(MAX_LIST).optional().describe(
      "Return at most this many entries, the newest (default 100)",
    ),
    after: z.string().regex(/^\*[0-9A-Fa-f]{1,16}$/, "an entry id such as *1A").optional()
      .describe("Only entries after this one: a previous answer's cursor"),
  },
  output: {
    items: z.array(ENTRY),
    count: z.number(),
    truncated: z.boolean().describe("More entries matched than `limit`"),
    undated: z.number().describe(
      "Entries left out of a time window: their time was not understood",
    ),
    cursor: z.string().optional().describe("Id of the last entry returned: pass it as `after`"),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { severity: "info", limit: 20 },
  async handler(args, ctx) {
    const { script, today: todaySection, entries } = logScript(await ctx.client.dialect(), args);
    const out = await ctx.client.run(script, { idempotent: true, what: "/log" });
    const todayText = out.get(todaySection).today;
    const today = isoDate(todayText);
    if (!today) throw unparsable(todayText, "the router's date was not understood");
    const since = args.since?.replace("T", " ");
    const until = args.until?.replace("T", " ");
    let undated = 0;
    let items = out.get(entries).items.map((r) => {
      const time = rawText(r.time ?? "");
      const at = logTime(time, today);
      const topics = Array.isArray(r.topics)
        ? r.topics.map(String)
        : String(r.topics ?? "").split(/[,;]/).filter(Boolean);
      return {
        id: String(r[".id"] ?? ""),
        time,
        ...(at ? { at } : {}),
        topics,
        message: rawText(r.message ?? ""),
      };
    });
    if (since || until) {
      items = items.filter((i) => {
        if (!i.at) {
          undated++;
          return false;
        }
        return (!since || i.at >= since) && (!until || i.at <= until);
      });
    }
    const limit = args.limit ?? 100;
    if (args.after) {
      // Following: entries after the cursor, oldest first, so none is skipped.
      const after = entryNumber(args.after);
      items = items.filter((i) => entryNumber(i.id) > after);
    }
    const truncated = items.length > limit;
    items = args.after ? items.slice(0, limit) : items.slice(-limit);
    const cursor = items.at(-1)?.id ?? args.after;
    return {
      structured: { items, count: items.length, truncated, undated, ...(cursor ? { cursor } : {}) },
      text: items.length
        ? renderTable(items.map((i) => ({ ...i, topics: i.topics.join(",") })), [
          "time",
          "topics",
          "message",
        ])
        : "(no entries)",
    };
  },
});

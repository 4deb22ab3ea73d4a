/**
 * `router_get_logs`: the router's log, filtered on the router by topics,
 * severity and literal text (an escaped, quoted `message~` match), then by
 * time window and limit here.
 *
 * @module
 */
import * as z from "zod";
import type { Dialect } from "../../routeros/dialect.ts";
import { outputError } from "../../routeros/parse_json.ts";
import { asText, isoDate, logTime } from "../../routeros/records.ts";
import {
  type Filter,
  listMemberRegex,
  printStatement,
  putScalars,
  regexLiteral,
} from "../../routeros/scripts.ts";
import { MAX_LIST, MAX_TEXT } from "../fields.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";

const SEVERITIES = ["debug", "info", "warning", "error", "critical"] as const;

const TIME = z.string().regex(
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/,
  "a router-local time such as 2024-06-26 11:42:00",
);

function filtersOf(args: Record<string, unknown>): Filter[] {
  const filters: Filter[] = [];
  const topics = args.topics as string[] | undefined;
  if (topics?.length) filters.push({ key: "topics", regex: listMemberRegex(topics) });
  const severity = args.severity as typeof SEVERITIES[number] | undefined;
  if (severity && severity !== "debug") {
    filters.push({
      key: "topics",
      regex: listMemberRegex(SEVERITIES.slice(SEVERITIES.indexOf(severity))),
    });
  }
  if (typeof args.text === "string" && args.text !== "") {
    filters.push({ key: "message", regex: regexLiteral(args.text) });
  }
  return filters;
}

/** The exact script: today's date (for time windows) and the filtered print. */
export function logScript(dialect: Dialect, args: Record<string, unknown>): string {
  const read = printStatement(dialect, "/log", { filters: filtersOf(args) });
  return `${putScalars({ today: "[/system clock get date]" })}; ${read}`;
}

const ENTRY = z.object({
  id: z.string(),
  time: z.string().describe("Time as the router prints it"),
  at: z.string().optional().describe("The same time as YYYY-MM-DD HH:MM:SS (router-local)"),
  topics: z.array(z.string()),
  message: z.string(),
});

/** `router_get_logs`. */
export const getLogs: ToolDef = {
  name: "router_get_logs",
  title: "Read the log",
  description:
    "Read the router's log (newest last), filtered by topics (any of), minimum severity, a " +
    "literal text the message must contain (not a pattern), and a router-local time window. " +
    "Returns the newest `limit` entries (default 100, at most 1000).",
  toolset: "logs",
  input: {
    topics: z.array(z.string().max(64).regex(/^[a-z0-9][a-z0-9-]*$/, "a topic such as dhcp"))
      .max(20).optional().describe(
        'Only entries with any of these topics, e.g. ["dhcp", "firewall"]',
      ),
    severity: z.enum(SEVERITIES).optional().describe("Only entries of this severity or worse"),
    text: z.string().max(MAX_TEXT).optional().describe(
      "Only entries whose message contains this text (matched literally, case-sensitive)",
    ),
    since: TIME.optional().describe("Only entries at or after this router-local time"),
    until: TIME.optional().describe("Only entries at or before this router-local time"),
    limit: z.number().int().min(1).max(MAX_LIST).default(100).describe(
      "Return at most this many entries, the newest (1-1000)",
    ),
  },
  output: {
    items: z.array(ENTRY),
    count: z.number(),
    truncated: z.boolean().describe("More entries matched than `limit`"),
    undated: z.number().describe(
      "Entries left out of a time window because their time was not understood",
    ),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { severity: "info", limit: 20 },
  async handler(args, { client }) {
    const dialect = await client.dialect();
    const output = await client.run(logScript(dialect, args), "/log", true);
    const lines = output.split("\n");
    const first = lines.findIndex((l) => l.trim() !== "");
    const m = first >= 0 ? /^today=(.*)$/.exec(lines[first].trim()) : null;
    const today = m ? isoDate(m[1]) : undefined;
    if (!m || !today) throw outputError(output);
    const rest = lines.slice(first + 1).join("\n");
    const raws = client.parseRead(
      dialect,
      { path: "/log", keys: ["time", "topics", "message"] },
      rest,
    );
    const since = (args.since as string | undefined)?.replace("T", " ");
    const until = (args.until as string | undefined)?.replace("T", " ");
    let undated = 0;
    let items = raws.map((r) => {
      const time = asText(r.time) ?? "";
      const at = logTime(time, today);
      const topics = Array.isArray(r.topics)
        ? r.topics.map(String)
        : String(r.topics ?? "").split(/[,;]/).filter(Boolean);
      return {
        id: String(r[".id"] ?? ""),
        time,
        ...(at ? { at } : {}),
        topics,
        message: asText(r.message) ?? "",
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
    const limit = Number(args.limit ?? 100);
    const truncated = items.length > limit;
    items = items.slice(-limit);
    return {
      structured: { items, count: items.length, truncated, undated },
      text: items.length
        ? renderTable(items.map((i) => ({ ...i, topics: i.topics.join(",") })), [
          "time",
          "topics",
          "message",
        ])
        : "(no entries)",
    };
  },
};

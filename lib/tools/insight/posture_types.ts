/**
 * The words of the security audit: a finding (severity, title, the items
 * that show it, the tool calls that fix it, the checklist item it comes
 * from), what the audit reads of a router, and the output schema of both.
 *
 * @module
 */
import * as z from "zod";
import type { Row } from "../../routeros/route_lookup.ts";

/** How bad a finding is, worst first. */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;

/** A finding's severity. */
export type Severity = typeof SEVERITIES[number];

/** What each severity weighs when devices are ranked. */
export const SEVERITY_WEIGHT: Record<Severity, number> = {
  critical: 10,
  high: 5,
  medium: 3,
  low: 1,
};

/** An item that shows a finding: a menu's item (with its id) or a fact. */
export interface Evidence {
  menu: string;
  id?: string;
  properties?: Record<string, string>;
  note?: string;
}

/** One call of this catalogue's tools (then run with dry_run, confirm and revert as any call). */
export interface FixCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** One thing wrong. */
export interface Finding {
  /** Stable per device: `wan-exposed:winbox`. */
  id: string;
  /** The checklist item. */
  check: string;
  severity: Severity;
  title: string;
  evidence: Evidence[];
  /** The calls that fix it, in order (empty when no tool of this catalogue can). */
  fix: FixCall[];
  /** What to know before running the fix, or how to fix it by hand. */
  fix_note?: string;
  /** Where the checklist item comes from. */
  source: string;
}

/** What the audit read of one router: each menu's rows (undefined: the router lacks the menu). */
export interface PostureFacts {
  device: string;
  menus: ReadonlyMap<string, readonly Row[] | undefined>;
  /** The device's inventory tags (`wan:<interface>`). */
  tags: readonly string[];
  /** Entries of the address lists the input chain names. */
  addressLists: ReadonlyMap<string, readonly string[]>;
  /** The user this server logs in as. */
  loginUser?: string;
}

/** The schema of a finding, for the tool's output. */
export const FINDING = z.object({
  id: z.string(),
  check: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  evidence: z.array(z.object({
    menu: z.string(),
    id: z.string().optional(),
    properties: z.record(z.string(), z.string()).optional(),
    note: z.string().optional(),
  })),
  fix: z.array(z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }))
    .describe("The tool calls that fix it; run them with dry_run first"),
  fix_note: z.string().optional(),
  source: z.string(),
});

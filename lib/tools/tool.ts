/**
 * What a tool is: data that the server turns into an MCP tool.
 *
 * @module
 */
import type * as z from "zod";
import type { RouterOsClient } from "../routeros/client.ts";
import type { Menu, Verb } from "./menu.ts";

/** The toolsets tools are grouped in. */
export const TOOLSETS = [
  "interfaces",
  "ip",
  "dhcp",
  "dns",
  "routing",
  "firewall",
  "users",
  "system",
  "files",
  "logs",
  "wireless",
  "wireguard",
  "queues",
  "bridge",
  "services",
  "diagnostics",
  "fleet",
] as const;

/** A toolset name. */
export type Toolset = typeof TOOLSETS[number];

/** MCP tool annotations. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler returns: typed data plus a compact text rendering. */
export interface ToolResult {
  structured: Record<string, unknown>;
  text: string;
}

/** A device as fleet-wide tools see it (never secrets). */
export interface DeviceInfo {
  title: string;
  host: string;
  port: number;
  username: string;
  region?: string;
  tags: string[];
  connected: boolean;
}

/** The fleet, as tools that span devices see it. */
export interface FleetView {
  /** Every device, without secrets. */
  summaries(): DeviceInfo[];
  /** The client of the device with this title. */
  clientFor(title: string): RouterOsClient;
}

/** Context a handler runs in. */
export interface ToolContext {
  /** The resolved device's client (for per-device tools). */
  client: RouterOsClient;
  fleet: FleetView;
  /** Report progress (MCP progress notifications when the client asked for them). */
  progress?: (done: number, total: number, message?: string) => Promise<void>;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal;
}

/** What a dry run reports: the exact commands and the item as it would look. */
export interface DryRunResult {
  /** The command text the real call would send, in order. */
  commands: string[];
  /** The item as it would look afterwards (or the item that would be removed). */
  preview: Record<string, unknown>;
  /** Problems found while resolving references (the real call would fail). */
  problems: string[];
}

/** A tool, as data. */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  toolset: Toolset;
  /** Input fields (without `device`, which the server adds). */
  input: Record<string, z.ZodType>;
  /** Output object fields. */
  output: Record<string, z.ZodType>;
  annotations: Annotations;
  /** Whether this tool acts on a device (and so takes `device` in fleet mode). */
  perDevice: boolean;
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Write tools: validate, resolve references with reads only, and report
   * the exact commands the call would send. Sends nothing that changes state.
   */
  dryRun?(args: Record<string, unknown>, ctx: ToolContext): Promise<DryRunResult>;
  /** Argument names whose values are secret (masked in dry runs and audit lines). */
  secretArgs?: readonly string[];
  /**
   * Valid example arguments against a default simulated router (hand-written
   * tools); used by the docs and by the test that calls every tool.
   */
  example?: Record<string, unknown>;
  /** For engine-made tools: the menu and verb, so changes can be inverted. */
  crud?: { menu: Menu; verb: Verb };
}

/** Annotations of a read-only tool. */
export const READ: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations of a tool that changes the router but destroys nothing. */
export const WRITE: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

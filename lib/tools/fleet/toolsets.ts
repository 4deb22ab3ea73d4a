/**
 * Toolset discovery: an agent starts with a small core and turns whole
 * toolsets on or off, one `notifications/tools/list_changed` per change.
 *
 * @module
 */
import * as z from "zod";
import { RefusedError } from "../guard/refusals.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, type ToolsetControl, TOOLSETS } from "../tool.ts";

const NAMES = z.array(z.enum(TOOLSETS)).min(1).max(TOOLSETS.length);

function control(ctx: ToolContext): ToolsetControl {
  if (!ctx.toolsets) {
    throw new RefusedError(
      "selection",
      "this server lists every toolset it has; none can be enabled",
    );
  }
  return ctx.toolsets;
}

/** `router_list_toolsets`. */
export const listToolsets = defineTool({
  name: "router_list_toolsets",
  title: "List toolsets",
  description:
    "List the groups of router tools (interfaces, ip, firewall, ...), what each covers, how many " +
    "tools it has and whether it is enabled in this session. Enable one with router_enable_toolsets.",
  toolset: "fleet",
  core: true,
  input: {},
  output: {
    items: z.array(z.object({
      name: z.string(),
      tools: z.number(),
      enabled: z.boolean(),
      about: z.string(),
    })),
  },
  annotations: READ,
  perDevice: false,
  handler(_args, ctx) {
    const items = control(ctx).list();
    return Promise.resolve({
      structured: { items },
      text: renderTable(items, ["name", "tools", "enabled", "about"]),
    });
  },
});

/** `router_enable_toolsets`. */
export const enableToolsets = defineTool({
  name: "router_enable_toolsets",
  title: "Enable toolsets",
  description:
    "Enable one or more groups of router tools in this session. The client is told once that the " +
    "tool list changed; list tools again to see them.",
  toolset: "fleet",
  core: true,
  input: { toolsets: NAMES.describe('Toolsets to enable, e.g. ["firewall", "dhcp"]') },
  output: { enabled: z.array(z.string()), tools: z.array(z.string()) },
  annotations: { ...READ, idempotentHint: true },
  perDevice: false,
  handler(args, ctx) {
    const tools = control(ctx).enable(args.toolsets);
    return Promise.resolve({
      structured: { enabled: args.toolsets, tools },
      text: `enabled ${args.toolsets.join(", ")}: ${tools.length} tools`,
    });
  },
});

/** `router_disable_toolsets`. */
export const disableToolsets = defineTool({
  name: "router_disable_toolsets",
  title: "Disable toolsets",
  description:
    "Disable groups of router tools in this session, to keep the tool list small. The client is " +
    "told once that the tool list changed.",
  toolset: "fleet",
  core: true,
  input: { toolsets: NAMES.describe('Toolsets to disable, e.g. ["wireless"]') },
  output: { disabled: z.array(z.string()), tools: z.array(z.string()) },
  annotations: { ...READ, idempotentHint: true },
  perDevice: false,
  handler(args, ctx) {
    const tools = control(ctx).disable(args.toolsets);
    return Promise.resolve({
      structured: { disabled: args.toolsets, tools },
      text: `disabled ${args.toolsets.join(", ")}: ${tools.length} tools`,
    });
  },
});

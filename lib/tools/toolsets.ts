/**
 * Toolset discovery for `--dynamic-toolsets`: the server starts with only
 * these tools, and enabling a toolset announces its tools with
 * `notifications/tools/list_changed`.
 *
 * @module
 */
import * as z from "zod";
import { renderTable } from "./render.ts";
import { READ, type ToolDef, TOOLSETS } from "./tool.ts";

/** What the server lets the discovery tools do. */
export interface ToolsetControl {
  list(): { name: string; tools: number; enabled: boolean }[];
  /** Enable a toolset; returns its tool names, or null for an unknown toolset. */
  enable(name: string): string[] | null;
}

/** The discovery tools over a server's toolsets. */
export function toolsetTools(control: ToolsetControl): ToolDef[] {
  return [
    {
      name: "router_list_toolsets",
      title: "List toolsets",
      description:
        "List the groups of router tools (interfaces, ip, firewall, ...) and whether each is enabled. Enable one with router_enable_toolset to get its tools.",
      toolset: "fleet",
      input: {},
      output: {
        items: z.array(z.object({ name: z.string(), tools: z.number(), enabled: z.boolean() })),
      },
      annotations: READ,
      perDevice: false,
      handler() {
        const items = control.list();
        return Promise.resolve({
          structured: { items },
          text: renderTable(items, ["name", "tools", "enabled"]),
        });
      },
    },
    {
      name: "router_enable_toolset",
      title: "Enable a toolset",
      description:
        "Enable one group of router tools. The client is told that the tool list changed; list tools again to see them.",
      toolset: "fleet",
      input: { toolset: z.enum(TOOLSETS).describe("The toolset to enable") },
      output: { toolset: z.string(), tools: z.array(z.string()) },
      annotations: READ,
      perDevice: false,
      handler(args) {
        const name = String(args.toolset);
        const tools = control.enable(name);
        if (tools === null) throw new Error(`toolset ${name} has no tools in this server`);
        return Promise.resolve({
          structured: { toolset: name, tools },
          text: `enabled ${name}: ${tools.join(", ")}`,
        });
      },
    },
  ];
}

/**
 * `router_fleet_query`: run one read-only tool on many devices at once,
 * with bounded concurrency and progress notifications. Each device's call
 * runs through the same guard chain as a direct call; one unreachable
 * router never fails the whole call.
 *
 * @module
 */
import { chooseDevices } from "./selection.ts";
import * as z from "zod";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { READ, type ToolDef } from "../tool.ts";

/** Devices worked on at once by the composite fleet tools (audits, exports, traces). */
export const FLEET_CONCURRENCY = 32;

/**
 * Devices `router_fleet_query` runs its read on at once: enough that
 * opening connections is paced by the pool's dialer (`--max-dialing`
 * handshakes at once) and nothing else; a device whose connection is up
 * runs its read while others still dial, and a warm fleet gets all its
 * reads at once (each connection's channel limit still holds).
 */
export const FLEET_QUERY_AT_ONCE = 1024;

/** Build the fleet query tool over the read-only per-device tools in `tools`. */
export function fleetQueryTool(tools: readonly ToolDef[]): ToolDef {
  const names = tools.filter((t) => t.perDevice && t.annotations.readOnlyHint).map((t) => t.name);
  return defineTool({
    name: "router_fleet_query",
    title: "Query many routers",
    description:
      "Run one read-only router_* tool on many devices at once: all of them, a list of titles, or " +
      "those matching tags/region. Returns each device's result or error; an unreachable router " +
      "does not fail the call. Example: {tool: 'router_list_ip_addresses', tags: ['core']}.",
    toolset: "fleet",
    input: {
      tool: z.enum(names as [string, ...string[]]).describe(
        "The read-only tool to run on each device",
      ),
      arguments: z.record(z.string(), z.unknown()).optional().describe(
        "Arguments for that tool (without device)",
      ),
      devices: z.array(z.string().max(256)).max(1000).optional().describe(
        "Device titles; default: every device that matches tags and region",
      ),
      tags: z.array(z.string().max(256)).max(100).optional().describe(
        "Only devices that have all these tags",
      ),
      region: z.string().max(256).optional().describe("Only devices in this region"),
    },
    output: {
      results: z.array(z.object({
        device: z.string(),
        ok: z.boolean(),
        result: z.record(z.string(), z.unknown()).optional(),
        error: z.string().optional(),
      })),
      succeeded: z.number(),
      failed: z.number(),
    },
    annotations: READ,
    perDevice: false,
    example: { tool: "router_list_ip_addresses" },
    maskNested: (args, mask) => ({
      ...args,
      ...(args.arguments ? { arguments: mask(args.tool, args.arguments) } : {}),
    }),
    async handler(args, ctx) {
      const chosen = chooseDevices(ctx.fleet.summaries(), args);
      // One refusal for all: the same guards say no to every device alike.
      if (chosen.length) {
        await ctx.check({ name: args.tool, args: args.arguments ?? {}, device: chosen[0].title });
      }
      const results: {
        device: string;
        ok: boolean;
        result?: Record<string, unknown>;
        error?: string;
      }[] = new Array(chosen.length);
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (next < chosen.length && !ctx.signal?.aborted) {
          const i = next++;
          const title = chosen[i].title;
          try {
            const r = await ctx.call({
              name: args.tool,
              args: args.arguments ?? {},
              device: title,
            });
            results[i] = { device: title, ok: true, result: r.structured };
          } catch (err) {
            results[i] = { device: title, ok: false, error: errorText(err, args.tool, title) };
          }
          done++;
          await ctx.progress?.(done, chosen.length, title);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(FLEET_QUERY_AT_ONCE, chosen.length) }, worker),
      );
      const finished = results.filter(Boolean);
      const failed = finished.filter((r) => !r.ok);
      return {
        structured: {
          results: finished,
          succeeded: finished.length - failed.length,
          failed: failed.length,
        },
        text: `${finished.length - failed.length} of ${chosen.length} devices answered\n${
          finished.map((r) => (r.ok ? `${r.device}: ok` : `${r.device}: error: ${r.error}`)).join(
            "\n",
          )
        }`,
      };
    },
  });
}

/**
 * `router_fleet_query`: run one read-only tool on many devices at once, with
 * bounded concurrency and progress notifications. One unreachable router
 * never fails the whole call: each device gets its own result or error.
 *
 * @module
 */
import * as z from "zod";
import { READ, type ToolDef } from "./tool.ts";

/** Devices queried at once. */
export const FLEET_CONCURRENCY = 32;

/** Build the fleet query tool over the given read-only per-device tools. */
export function fleetQueryTool(
  tools: readonly ToolDef[],
  errorText: (err: unknown, tool: string, device: string) => string,
): ToolDef {
  const readable = tools.filter((t) => t.perDevice && t.annotations.readOnlyHint);
  const byName = new Map(readable.map((t) => [t.name, t]));
  const names = readable.map((t) => t.name) as [string, ...string[]];
  return {
    name: "router_fleet_query",
    title: "Query many routers",
    description:
      "Run one read-only router_* tool on many devices at once: all of them, a list of titles, or those matching tags/region. Returns each device's result or error; an unreachable router does not fail the call. Example: {tool: 'router_list_ip_addresses', tags: ['core']}.",
    toolset: "fleet",
    input: {
      tool: z.enum(names).describe("The read-only tool to run on each device"),
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
    annotations: { ...READ, openWorldHint: false },
    perDevice: false,
    example: { tool: "router_list_ip_addresses" },
    async handler(args, { fleet, progress, signal }) {
      const tool = byName.get(String(args.tool));
      if (!tool) throw new Error(`unknown tool ${String(args.tool)}`);
      const toolArgs = (args.arguments ?? {}) as Record<string, unknown>;
      const parsed = z.object(tool.input).strict().safeParse(toolArgs);
      if (!parsed.success) {
        throw new Error(
          `arguments for ${tool.name}: ${
            parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join(
              "; ",
            )
          }`,
        );
      }
      const all = fleet.summaries();
      const wanted = args.devices as string[] | undefined;
      const tags = (args.tags as string[] | undefined) ?? [];
      const region = args.region as string | undefined;
      if (wanted) {
        const known = new Set(all.map((d) => d.title.toLowerCase()));
        const unknown = wanted.filter((t) => !known.has(t.trim().toLowerCase()));
        if (unknown.length) {
          throw new Error(
            `unknown device(s) ${unknown.join(", ")}; valid devices: ${
              all.map((d) => d.title).join(", ")
            }`,
          );
        }
      }
      const chosen = all.filter((d) =>
        (!wanted || wanted.some((t) => t.trim().toLowerCase() === d.title.toLowerCase())) &&
        tags.every((t) => d.tags.includes(t)) &&
        (region === undefined || d.region === region)
      );
      const results: { device: string; ok: boolean; result?: unknown; error?: string }[] =
        new Array(chosen.length);
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (next < chosen.length && !signal?.aborted) {
          const i = next++;
          const title = chosen[i].title;
          try {
            const r = await tool.handler(parsed.data, { client: fleet.clientFor(title), fleet });
            results[i] = { device: title, ok: true, result: r.structured };
          } catch (err) {
            results[i] = { device: title, ok: false, error: errorText(err, tool.name, title) };
          }
          done++;
          await progress?.(done, chosen.length, title);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(FLEET_CONCURRENCY, chosen.length) }, worker),
      );
      const finished = results.filter(Boolean);
      const failed = finished.filter((r) => !r.ok);
      const lines = finished.map((r) =>
        r.ok ? `${r.device}: ok` : `${r.device}: error: ${r.error}`
      );
      return {
        structured: {
          results: finished,
          succeeded: finished.length - failed.length,
          failed: failed.length,
        },
        text: `${finished.length - failed.length} of ${chosen.length} devices answered\n${
          lines.join("\n")
        }`,
      };
    },
  };
}

/**
 * The documented tool calls (`{"name": "router_...", "arguments": {...}}`
 * blocks of docs/operations.md and docs/files.md), sent in page order to
 * one server with every toolset over a fleet of simulated routers titled as
 * the docs title theirs. The pages say that in fleet mode per-device tools
 * also take `device`: a call to a tool that takes one gets `core-1` when it
 * names none. What the calls
 * expect to exist is made first, as the reader's router has it: a `flash/`
 * folder with `before.backup` on core-1, the files the upload examples
 * send in the files directory, an update server that offers 7.17, one
 * earlier snapshot. A `change_id` is the one the change before it answered
 * (as a reader copies it from that answer). A call that samples for longer than a few seconds is
 * cancelled after its first sample. A JSON block that is a result, not a
 * call, must match the output schema of the call before it.
 *
 * @module
 */
import { LazySchemaValidator } from "../../lib/mcp_sdk/client.ts";
import { listAllTools } from "../../lib/mcp_sdk/list_all_tools.ts";
import type { Tool } from "../../lib/mcp_sdk/types.ts";
import type { DocBlock } from "./doc_blocks.ts";
import { serveInProcess } from "./in_process.ts";
import { startRouters } from "./mcp.ts";
import { SNAPSHOT_ID, substituteSnapshots } from "./doc_placeholders.ts";
import type { Outcome } from "./doc_sh_runner.ts";
import { FLEET } from "./doc_world.ts";

/** One documented call. */
interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/** The JSON values of a block: one document, or one per line. */
export function jsonValues(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  }
}

/** Whether a JSON value is a documented tool call. */
export function isCall(v: unknown): v is Call {
  return typeof v === "object" && v !== null && typeof (v as Call).name === "string" &&
    typeof (v as Call).arguments === "object";
}

/** Longest sampling run as written; longer ones are cancelled after their first sample. */
const SAMPLE_SECONDS = 5;

/** Send every call of `blocks` (in order) and check every result block. */
export async function runCalls(blocks: DocBlock[]): Promise<Outcome[]> {
  const routers = await startRouters(FLEET.length, { uptime: 3600 });
  const files = await Deno.makeTempDir({ prefix: "docs-files-" });
  const outcomes: Outcome[] = [];
  const session = await serveInProcess(
    [
      "--inventory",
      JSON.stringify(routers.map((r, i) => ({ ...FLEET[i], host: r.host, port: r.port }))),
      "--host-key-policy",
      "off",
      "--files-dir",
      files,
      "--toolsets",
      "all",
    ],
    {},
    {},
  );
  try {
    const core = routers[0];
    core.run("/file add name=flash type=directory");
    core.run("/system backup save name=flash/before");
    core.offerUpgrade("7.17");
    await Deno.mkdir(`${files}/images`);
    for (const f of ["images/fw.npk", "fw.npk"]) {
      await Deno.writeFile(`${files}/${f}`, crypto.getRandomValues(new Uint8Array(4096)));
    }
    const tools = new Map<string, Tool>(
      (await listAllTools(session.client)).map((t) => [t.name, t]),
    );
    const call = (c: Call, opts: Parameters<typeof session.client.callTool>[2] = {}) =>
      session.client.callTool(c, undefined, opts) as Promise<{
        isError?: boolean;
        content: { text: string }[];
        structuredContent?: Record<string, unknown>;
      }>;
    await call({ name: "router_snapshot_config", arguments: { device: "core-1" } });
    const snapshots = async (device: string) => {
      const r = await call({ name: "router_list_snapshots", arguments: { device } });
      return (r.structuredContent!.items as { id: string }[]).map((s) => s.id);
    };
    const docIds = blocks.flatMap((b) => [...b.text.matchAll(SNAPSHOT_ID)].map((m) => m[0]));
    let last: string | undefined;
    let changeId: string | undefined;
    for (const block of blocks) {
      const where = `${block.page}:${block.line}`;
      try {
        const real = new Map<string, string[]>();
        for (const id of docIds) {
          const device = id.split("/")[0];
          if (!real.has(device)) real.set(device, await snapshots(device));
        }
        const text = substituteSnapshots(block.text, docIds, (d) => real.get(d) ?? []);
        for (const value of jsonValues(text)) {
          if (!isCall(value)) {
            const tool = last === undefined ? undefined : tools.get(last);
            if (!tool?.outputSchema) {
              throw new Error("a result, but no call with an output schema before it");
            }
            const check = new LazySchemaValidator().getValidator(tool.outputSchema as never)(value);
            if (!check.valid) throw new Error(`${last}'s output schema: ${check.errorMessage}`);
            outcomes.push({
              where,
              kind: "checked",
              what: `a result of ${last}: its output schema holds it`,
            });
            continue;
          }
          const tool = tools.get(value.name);
          if (!tool) throw new Error(`${value.name} is not a tool`);
          const args = { ...value.arguments };
          if (tool.inputSchema.properties?.device && args.device === undefined) {
            args.device = "core-1";
          }
          if (typeof args.change_id === "string" && changeId !== undefined) {
            args.change_id = changeId;
          }
          last = value.name;
          const seconds = Number(args.seconds ?? 0);
          if (seconds > SAMPLE_SECONDS) {
            const stop = new AbortController();
            let progress = "";
            await call({ name: value.name, arguments: args }, {
              signal: stop.signal,
              onprogress: (p) => {
                progress = p.message ?? String(p.progress);
                stop.abort();
              },
            }).then(
              () => {},
              (err) => {
                if (!stop.signal.aborted) throw err;
              },
            );
            if (!progress) throw new Error("no progress before it was cancelled");
            outcomes.push({
              where,
              kind: "run",
              what: `${value.name} (${seconds} s): accepted, cancelled after "${progress}"`,
            });
            continue;
          }
          const r = await call({ name: value.name, arguments: args });
          if (r.isError) throw new Error(`${value.name}: ${r.content[0]?.text}`);
          const answered = r.structuredContent?.change_id;
          if (typeof answered === "string") changeId = answered;
          outcomes.push({ where, kind: "run", what: `${value.name} answered` });
        }
      } catch (err) {
        outcomes.push({ where, kind: "run", what: "tool call", error: (err as Error).message });
      }
    }
  } finally {
    await session.close();
    await Promise.all(routers.map((r) => r.close()));
    await Deno.remove(files, { recursive: true }).catch(() => {});
  }
  return outcomes;
}

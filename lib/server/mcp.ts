/**
 * MCP assembly: one SDK `Server` per session (stdio, or an HTTP session)
 * over the process-wide catalogue, tool list and guard chain. A session
 * holds only what is its own: which toolsets it lists, its log level and
 * its client's capabilities.
 *
 * @module
 */
import { Server } from "../mcp_sdk/server.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "../mcp_sdk/types.ts";
import type { RequestHandlerExtra, ServerNotification, ServerRequest } from "../mcp_sdk/types.ts";
import { errorText } from "../tools/errors.ts";
import type { CallSite, ToolRunner } from "../tools/guard/runner.ts";
import { DISCOVERY } from "../tools/catalogue.ts";
import { TOOLSET_ABOUT } from "../tools/toolsets.ts";
import type { ToolDef, ToolsetControl } from "../tools/tool.ts";
import { Completer } from "./completions.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { Reads, type ReadSite } from "./reads.ts";
import { listResources, listTemplates, readResource } from "./resources.ts";
import { ToolList } from "./tool_list.ts";
import { ToolLog } from "./tool_log.ts";
import type { Selection } from "./tool_selection.ts";

/** Server name and version, for `serverInfo`. */
export interface ServerInfo {
  name: string;
  version: string;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What every session of a process shares. */
export interface ServerCore {
  info: ServerInfo;
  runner: ToolRunner;
  selection: Selection;
  list: ToolList;
  /** Reads through the guard chain, for resources, prompts and completions. */
  reads: Reads;
  completer: Completer;
}

/**
 * Build what sessions share: the tool list over the runner's tools, and the
 * reads behind resources, prompts and completions. `titles` are every
 * device's; in fleet mode tools take `device`.
 */
export function serverCore(
  info: ServerInfo,
  runner: ToolRunner,
  selection: Selection,
  devices: { titles: readonly string[]; fleet: boolean },
): ServerCore {
  const list = new ToolList(devices.fleet ? devices.titles : []);
  const reads = new Reads(runner, list, devices.titles);
  return { info, runner, selection, list, reads, completer: new Completer(reads) };
}

function instructions(core: ServerCore): string {
  const listed = core.selection.initial;
  const more = [
    ...new Set(core.runner.tools.filter((t) => !listed.has(t.name)).map((t) => t.toolset)),
  ];
  return "Tools named router_* manage MikroTik RouterOS routers over SSH. List tools return typed " +
    "records; their `where` keeps the items whose fields equal every value given. Address items " +
    "by their `id` (such as *1A) from a list, never by position. Every write takes dry_run: " +
    "true shows the exact commands it would send and changes nothing. A write that is " +
    "destructive or would cut this server's own access needs confirm: true (a refusal says " +
    "which and why)." +
    (core.selection.dynamic && more.length
      ? ` More toolsets can be enabled with router_enable_toolsets: ${
        more.map((t) => `${t} (${TOOLSET_ABOUT[t]})`).join("; ")
      }.`
      : "");
}

const DISCOVERY_NAMES = new Set(DISCOVERY.map((t) => t.name));

/** A session's toolsets: what it lists, changed by the discovery tools. */
class SessionTools implements ToolsetControl {
  readonly #core: ServerCore;
  readonly #listed: Set<string>;
  readonly #changed: () => void;

  /** Whether the discovery tools may change what this session lists. */
  readonly dynamic: boolean;

  constructor(core: ServerCore, changed: () => void) {
    this.#core = core;
    this.dynamic = core.selection.dynamic;
    this.#listed = new Set(core.selection.initial);
    this.#changed = changed;
  }

  has(tool: ToolDef): boolean {
    return this.#listed.has(tool.name);
  }

  tools(): ToolDef[] {
    return this.#core.runner.tools.filter((t) => this.#listed.has(t.name));
  }

  list() {
    const byToolset = new Map<string, ToolDef[]>();
    for (const t of this.#core.runner.tools) {
      if (DISCOVERY_NAMES.has(t.name)) continue;
      byToolset.set(t.toolset, [...(byToolset.get(t.toolset) ?? []), t]);
    }
    return [...byToolset].map(([name, tools]) => ({
      name,
      tools: tools.length,
      enabled: tools.every((t) => this.#listed.has(t.name)),
      about: TOOLSET_ABOUT[name as keyof typeof TOOLSET_ABOUT],
    }));
  }

  enable(names: readonly string[]): string[] {
    const added = this.#core.runner.tools.filter((t) =>
      names.includes(t.toolset) && !this.#listed.has(t.name)
    );
    for (const t of added) this.#listed.add(t.name);
    if (added.length) this.#changed();
    return added.map((t) => t.name);
  }

  disable(names: readonly string[]): string[] {
    const removed = this.#core.runner.tools.filter((t) =>
      names.includes(t.toolset) && this.#listed.has(t.name) && !DISCOVERY_NAMES.has(t.name)
    );
    for (const t of removed) this.#listed.delete(t.name);
    if (removed.length) this.#changed();
    return removed.map((t) => t.name);
  }
}

/** Build the MCP server of one session. */
export function buildServer(core: ServerCore): Server {
  const server = new Server(core.info, {
    capabilities: {
      logging: {},
      tools: { listChanged: true },
      resources: {},
      prompts: {},
      completions: {},
    },
    instructions: instructions(core),
  });
  const toolLog = ToolLog.of(server);
  const session = new SessionTools(core, () => {
    server.sendToolListChanged().catch(() => {});
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: session.tools().map((t) => core.list.entry(t)),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra: Extra): Promise<CallToolResult> => {
      const { name } = request.params;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const device = typeof args.device === "string" ? args.device : undefined;
      const startedAt = performance.now();
      toolLog.started(extra, name, device);
      try {
        const result = await core.runner.call(name, args, callSite(server, session, extra));
        toolLog.finished(extra, name, device, startedAt);
        return {
          content: [{ type: "text", text: result.text }],
          structuredContent: result.structured,
        };
      } catch (err) {
        const text = errorText(err, name, device);
        toolLog.finished(extra, name, device, startedAt, text);
        return { content: [{ type: "text", text }], isError: true };
      }
    },
  );
  registerSurface(server, core, session);
  return server;
}

/** Resources, prompts and completions: reads through the guard chain. */
function registerSurface(server: Server, core: ServerCore, session: SessionTools): void {
  const site = (extra: Extra): ReadSite => ({
    caller: { client: server.getClientVersion(), session: extra.sessionId },
    signal: extra.signal,
  });
  server.setRequestHandler(
    ListResourcesRequestSchema,
    (request) => listResources(core.reads, request.params?.cursor),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: listTemplates(core.reads),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra: Extra) => ({
    contents: await readResource(core.reads, request.params.uri, site(extra)),
  }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts(core.reads) }));
  server.setRequestHandler(
    GetPromptRequestSchema,
    (request) =>
      getPrompt(core.reads, request.params.name, request.params.arguments, (tool) => {
        const t = core.runner.tool(tool);
        return t !== undefined && session.has(t);
      }),
  );
  server.setRequestHandler(CompleteRequestSchema, async (request, extra: Extra) => ({
    completion: await core.completer.complete(
      request.params.ref,
      request.params.argument,
      request.params.context?.arguments,
      site(extra),
    ),
  }));
}

/** Where a session's call comes from: caller, progress, cancellation, confirmation. */
function callSite(server: Server, session: SessionTools, extra: Extra): CallSite {
  const token = extra._meta?.progressToken;
  const elicits = server.getClientCapabilities()?.elicitation !== undefined;
  return {
    caller: { client: server.getClientVersion(), session: extra.sessionId },
    signal: extra.signal,
    enabled: (tool) => session.has(tool),
    toolsets: session.dynamic ? session : undefined,
    progress: token === undefined
      ? undefined
      : (progress, total, message) =>
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, total, message },
        }),
    confirm: elicits
      ? async (message) => {
        const r = await server.elicitInput({
          message,
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean", title: "Carry it out" } },
            required: ["confirm"],
          },
        });
        return r.action === "accept" && r.content?.confirm === true;
      }
      : undefined,
  };
}

/**
 * MCP assembly: one SDK `Server` per session (stdio, or an HTTP session)
 * over the process-wide core (catalogue, tool list, guard chain). A session
 * holds only what is its own: which toolsets it lists, its log level and
 * its client's capabilities.
 *
 * This module and its static imports are what `initialize` needs: the core
 * may still be on its way (a stdio server builds it once `initialize` is
 * answered), and every other request waits for it.
 *
 * @module
 */
import { answerInvalidParams, setToolCallHandler } from "../mcp_sdk/dispatch.ts";
import { LazySchemaValidator } from "../mcp_sdk/lazy_validator.ts";
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
import { ArgumentError, UnsupportedError } from "../routeros/errors.ts";
import { UnsafeInputError } from "../routeros/quote.ts";
import { type Refusal, REFUSAL_META_KEY } from "../refusal_meta.ts";
import { errorText, outcomeOf } from "../tools/errors.ts";
import { RefusedError } from "../tools/guard/refusals.ts";
import type { CallSite } from "../tools/guard/runner.ts";
import { type ToolDef, TOOLSET_ABOUT, type ToolsetControl } from "../tools/tool.ts";
import type { ServerCore } from "./core.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import type { ReadSite } from "./reads.ts";
import { listResources, listTemplates, readResource } from "./resources.ts";
import { ToolLog } from "./tool_log.ts";
import { toolPage } from "./tool_pages.ts";
import type { ToolsetChoice } from "./toolset_choice.ts";
import { callPrincipal, markedEntry, transportPrincipal } from "./request_principal.ts";
import { mayCall } from "../tools/guard/roles.ts";

/** Server name and version, for `serverInfo`. */
export interface ServerInfo {
  name: string;
  version: string;
}

/** The core, ready, or built on first need (once, however many sessions ask). */
export type CoreSource = ServerCore | (() => Promise<ServerCore>);

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The server instructions: how the tools work, and the toolsets a session can add. */
export function instructions(choice: ToolsetChoice): string {
  return "Tools named router_* manage MikroTik RouterOS routers over SSH. List tools return typed " +
    "records; their `where` keeps the items whose fields equal every value given. Address items " +
    "by their `id` (such as *1A) from a list, never by position. Every write takes dry_run: " +
    "true shows the exact commands it would send and changes nothing. A write that is " +
    "destructive or would cut this server's own access needs confirm: true (a refusal says " +
    "which and why)." +
    (choice.dynamic && choice.toolsets.length
      ? ` This session lists ${
        choice.coreFirst ? "a core of the tools" : "no router tools yet"
      }; router_enable_toolsets adds a whole toolset: ${
        choice.toolsets.map((t) => `${t} (${TOOLSET_ABOUT[t]})`).join("; ")
      }.`
      : "");
}

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

  list() {
    const discovery = this.#core.selection.discovery;
    const byToolset = new Map<string, ToolDef[]>();
    for (const t of this.#core.runner.tools) {
      if (discovery.has(t.name)) continue;
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
    const discovery = this.#core.selection.discovery;
    const removed = this.#core.runner.tools.filter((t) =>
      names.includes(t.toolset) && this.#listed.has(t.name) && !discovery.has(t.name)
    );
    for (const t of removed) this.#listed.delete(t.name);
    if (removed.length) this.#changed();
    return removed.map((t) => t.name);
  }
}

/** The session's own state over the core, made when the core is first needed. */
interface Session {
  core: ServerCore;
  tools: SessionTools;
}

/**
 * Build the MCP server of one session: `info` and the instructions of
 * `choice` answer `initialize` at once; every other request waits for the
 * core from `source`.
 */
export function buildServer(info: ServerInfo, choice: ToolsetChoice, source: CoreSource): Server {
  const server = new Server(info, {
    capabilities: {
      logging: {},
      tools: { listChanged: true },
      resources: {},
      prompts: {},
      completions: {},
    },
    instructions: instructions(choice),
    // The SDK builds an Ajv instance per server otherwise (at start, and per
    // HTTP session), for the one check that needs it: an elicitation's answer.
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  const toolLog = ToolLog.of(server);
  let session: Session | undefined;
  let pending: Promise<Session> | undefined;
  const open = (core: ServerCore): Session => {
    session ??= {
      core,
      tools: new SessionTools(core, () => {
        server.sendToolListChanged().catch(() => {});
      }),
    };
    return session;
  };
  /** The session, once the core is there (at once when it already is). */
  const ready = (): Session | Promise<Session> => {
    if (session) return session;
    if (typeof source !== "function") return open(source);
    pending ??= source().then(open);
    return pending;
  };
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra: Extra) => {
    const { core, tools } = await ready();
    // Only what the principal's role may call (roles.ts); admin tools carry a
    // marker for parents. In pages of at most 256 KiB, by a cursor that
    // survives toolset changes (tool_pages.ts).
    // Its device scope too: the `device` enum names only the devices it may use.
    const principal = transportPrincipal(extra);
    const list = principal?.scopes?.length
      ? core.list.scopedTo(core.reads.visibleTitles(principal))
      : core.list;
    return toolPage(
      core.runner.tools,
      (t) => tools.has(t) && mayCall(principal, t),
      (t) => markedEntry(list.entry(t), t),
      request.params?.cursor,
    );
  });
  setToolCallHandler(
    server,
    CallToolRequestSchema,
    async (request, extra: Extra): Promise<CallToolResult> => {
      const { core, tools } = session ?? await ready();
      const { name } = request.params;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const device = typeof args.device === "string" ? args.device : undefined;
      const startedAt = performance.now();
      toolLog.started(extra, name, device);
      const principal = callPrincipal(extra, request.params._meta);
      try {
        const site = callSite(server, tools, extra);
        site.caller.principal = principal;
        const result = await core.runner.call(name, args, site);
        toolLog.finished(extra, name, device, startedAt);
        return {
          content: [{ type: "text", text: result.text }],
          structuredContent: result.structured,
        };
      } catch (err) {
        const text = errorText(core.reads.forCaller(err, principal), name, device);
        toolLog.finished(extra, name, device, startedAt, text);
        const refusal = refusalOf(err);
        return {
          content: [{ type: "text", text }],
          isError: true,
          ...(refusal ? { _meta: { [REFUSAL_META_KEY]: refusal } } : {}),
        };
      }
    },
  );
  registerSurface(server, ready);
  answerInvalidParams(server);
  return server;
}

/**
 * Which check refused a failed call, when it was the caller's doing and
 * changed nothing (for parents: the proxy). A failure after a write may
 * have been applied is never a refusal, whatever its kind.
 */
function refusalOf(err: unknown): Refusal | undefined {
  const outcome = outcomeOf(err)?.kind;
  if (outcome === "unknown" || outcome === "stated") return undefined;
  if (err instanceof RefusedError) return { kind: err.guard };
  if (err instanceof ArgumentError) {
    return { kind: "arguments", ...(err.argument ? { argument: err.argument } : {}) };
  }
  if (err instanceof UnsafeInputError || err instanceof UnsupportedError) {
    return { kind: "arguments" };
  }
  return undefined;
}

/** Resources, prompts and completions: reads through the guard chain. */
function registerSurface(server: Server, ready: () => Session | Promise<Session>): void {
  // The session's toolset check, as its tool calls have it.
  const site = (extra: Extra, session: Session): ReadSite => ({
    caller: {
      client: server.getClientVersion(),
      session: extra.sessionId,
      principal: transportPrincipal(extra),
    },
    signal: extra.signal,
    enabled: (tool) => session.tools.has(tool),
  });
  server.setRequestHandler(
    ListResourcesRequestSchema,
    async (request, extra: Extra) =>
      listResources((await ready()).core.reads, request.params?.cursor, transportPrincipal(extra)),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: listTemplates((await ready()).core.reads),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra: Extra) => {
    const session = await ready();
    return {
      contents: await readResource(session.core.reads, request.params.uri, site(extra, session)),
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: listPrompts((await ready()).core.reads),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra: Extra) => {
    const { core, tools } = await ready();
    return getPrompt(
      core.reads,
      request.params.name,
      request.params.arguments,
      (tool) => {
        const t = core.runner.tool(tool);
        return t !== undefined && tools.has(t);
      },
      transportPrincipal(extra),
    );
  });
  server.setRequestHandler(CompleteRequestSchema, async (request, extra: Extra) => {
    const session = await ready();
    return {
      completion: await session.core.completer.complete(
        request.params.ref,
        request.params.argument,
        request.params.context?.arguments,
        site(extra, session),
      ),
    };
  });
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

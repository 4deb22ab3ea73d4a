/**
 * The proxy's HTTP application, composed from the shared stack (lib/http)
 * like the MCP transports: each route lists the middleware it needs, top
 * to bottom. Every route starts with the same guard chain (Host, then
 * Origin) and CORS; tool calls also need a credential (the shared
 * `authenticate` middleware: API keys, OAuth tokens, or this machine only),
 * and with `--strict-auth` so do the docs, the OpenAPI documents and the
 * tool lists (everything but `/health`).
 *
 * A tool call is authorized here by what the child says of the tool (a
 * `read` principal only calls tools annotated `readOnlyHint: true`; a tool
 * whose `_meta` carries the admin marker needs `admin`), and passed on with
 * the principal in `_meta` to a child that is this product, whose own
 * guard chain then applies the principal's role and scope to every call,
 * nested ones included.
 *
 * Routes:
 * - `GET /health`: each server's state (no key needed); with a credential
 *   the authentication accepts, each one's last error too
 * - `GET /openapi.json`, `GET /docs`: all servers
 * - `GET /<server>`: its tools; `GET /<server>/openapi.json`, `GET /<server>/docs`
 * - `POST /<server>/<tool>`: call a tool with a JSON object of arguments
 *
 * @module
 */
import type { Tool } from "../mcp_sdk/types.ts";
import type { Principal } from "../auth/principal.ts";
import { log } from "../log.ts";
import { App, type Context, type Handler, type MethodRoute, type Middleware } from "../http/app.ts";
import { authConfigured, authenticate, type AuthOptions } from "../http/authenticate.ts";
import { bodyLimit } from "../http/body_limit.ts";
import { requireJson } from "../http/content_type.ts";
import { cors } from "../http/cors.ts";
import { jsonErrorShape } from "../http/error_shape.ts";
import { HttpError } from "../http/errors.ts";
import { guardChain, type GuardLists, type GuardSettingNames } from "../http/guard_settings.ts";
import { jsonBody } from "../http/json_body.ts";
import { headOf, jsonResponse } from "../http/responses.ts";
import type { Children, McpChild } from "./children.ts";
import { buildOpenApi } from "./openapi.ts";
import { openApiForUi, schemasForUi } from "./openapi_ui.ts";
import { docsAsset, docsPage } from "./swagger.ts";
import { authorizeCall } from "./authorize.ts";
import { callToolOverHttp } from "./tool_call.ts";
import { toolFor, toolsFor } from "./device_scope.ts";

/** How people set the proxy's allow-lists. */
export const PROXY_GUARD_NAMES: GuardSettingNames = {
  hostsFlag: "--allowed-hosts",
  originsFlag: "--allowed-origins",
  hosts: "--allowed-hosts",
  origins: "--allowed-origins",
};

/** What the application needs. */
export interface AppOptions {
  children: Children;
  /** Product version for the OpenAPI documents. */
  version: string;
  /** Client authentication (keys, OAuth, or this machine only). */
  auth: AuthOptions;
  /** Also protect docs, OpenAPI and tool lists (everything but `/health`). */
  strictAuth: boolean;
  /** The parsed Host and Origin allow-lists. */
  guards: GuardLists;
  /** Tool-call timeout in milliseconds. */
  toolTimeoutMs: number;
  /** Body limit in bytes. */
  maxBodyBytes: number;
  /** How long a request body may take to arrive (ms). */
  bodyTimeoutMs?: number;
}
const CORS_HEADERS = ["authorization", "content-type"];

/** Build the request handler. */
export function createApp(options: AppOptions): (req: Request) => Promise<Response> {
  const { children } = options;
  const guards = guardChain(options.guards, PROXY_GUARD_NAMES);
  const key = [authenticate(options.auth)];
  // Reads are open to anyone who passes the guards, unless --strict-auth; a
  // server without credentials serves only this machine, reads included.
  const readsOpen = !options.strictAuth && authConfigured(options.auth);
  // An open read still learns who sends a credential: the tool lists and
  // OpenAPI documents show each caller the devices of its scope (none to
  // a caller with no key).
  const readKey = readsOpen ? [whenPresented(key[0])] : key;
  const corsAll = cors({ methods: ["GET", "HEAD", "POST"], allowHeaders: CORS_HEADERS });
  const reading = [...guards, corsAll, ...readKey];
  const server = knownServer(children);
  const app = new App({ errorShape: jsonErrorShape, name: "proxy", notFound });
  const call = (withKey: boolean): MethodRoute => ({
    use: [
      ...(withKey ? key : []),
      logCall,
      knownTool(children),
      requireJson,
      bodyLimit(options.maxBodyBytes, options.bodyTimeoutMs),
      jsonBody("send {} for a tool without arguments"),
    ],
    handle: (_req, ctx) => callTool(ctx, options),
  });
  const list = read((_req, ctx) => toolList(childOf(children, ctx), ctx.principal));

  const healthAuth = authenticate(options.auth);
  app.route(
    "/health",
    [...guards, corsAll],
    read((req, ctx) => health(children, req, ctx, healthAuth)),
  );
  app.route("/openapi.json", reading, read((_req, ctx) => openApi(options, ctx)));
  app.route("/docs", reading, read(() => docsPage("mcp-server-router proxy")));
  app.route("/docs/", reading, read(toDocs));
  app.route("/docs/:file", reading, read((_req, ctx) => docsFile(ctx, options)));
  app.route("/:server", [...reading, server], list);
  app.route("/:server/", [...reading, server], list);
  // A tool may be called "docs" or "openapi.json": POST still calls it.
  app.route("/:server/openapi.json", [...reading, server], {
    ...read((_req, ctx) => openApi(options, ctx, ctx.params.server)),
    POST: call(readsOpen),
  });
  app.route("/:server/docs", [...reading, server], {
    ...read((_req, ctx) => docsPage(`${ctx.params.server}: mcp-server-router proxy`)),
    POST: call(readsOpen),
  });
  app.route("/:server/docs/", [...reading, server], read(toDocs));
  app.route(
    "/:server/docs/:file",
    [...reading, server],
    read((_req, ctx) => docsFile(ctx, options, ctx.params.server)),
  );
  app.route("/:server/:tool", [...guards, corsAll, ...key, server], { POST: call(false) });
  return app.fetch;
}

/** `auth` for a request that carries a credential; one with none goes on with no principal. */
function whenPresented(auth: Middleware): Middleware {
  return (req, ctx, next) => req.headers.has("authorization") ? auth(req, ctx, next) : next();
}

/** GET with HEAD (the GET answer without its body). */
function read(handler: Handler): Record<string, Handler> {
  return {
    GET: handler,
    HEAD: async (req, ctx) => headOf(await handler(req, ctx)),
  };
}

const notFound: Handler = (_req, ctx) => {
  throw new HttpError(
    404,
    "not_found",
    ctx.path === "/"
      ? "nothing here; see /docs, /openapi.json or /health"
      : "no such path; tools are at /<server>/<tool> (see /openapi.json)",
  );
};

/** 404 for a path naming no configured server; lists the servers. */
function knownServer(children: Children): Middleware {
  return (_req, ctx, next) => {
    if (children.get(ctx.params.server)) return next();
    throw new HttpError(
      404,
      "not_found",
      `no server "${ctx.params.server}"; the servers are ${
        children.list().map((c) => c.name).join(", ")
      } (see /openapi.json)`,
    );
  };
}

function childOf(children: Children, ctx: Context): McpChild {
  return children.get(ctx.params.server)!;
}

/** 404 for an unknown tool (503 while the server's tools are not known yet). */
function knownTool(children: Children): Middleware {
  return (_req, ctx, next) => {
    findTool(childOf(children, ctx), ctx.params.tool);
    return next();
  };
}

/** Log each tool call with its status and duration. */
const logCall: Middleware = async (_req, ctx, next) => {
  const started = performance.now();
  const res = await next();
  const ms = (performance.now() - started).toFixed(0);
  log("info", `proxy: POST /${ctx.params.server}/${ctx.params.tool} -> ${res.status} in ${ms} ms`);
  return res;
};

async function callTool(ctx: Context, options: AppOptions): Promise<Response> {
  const child = childOf(options.children, ctx);
  const tool = findTool(child, ctx.params.tool);
  const args = ctx.body;
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new HttpError(
      400,
      "not_an_object",
      `the body must be a JSON object of arguments (use {} for none), not ${describe(args)}`,
    );
  }
  authorizeCall(ctx.principal, child, tool);
  // Arguments are checked against the schema the caller may see: a device
  // outside its scope is refused naming only the devices of its scope.
  const seen = await toolFor(child, tool.name, ctx.principal) ?? tool;
  return await callToolOverHttp(
    child,
    seen,
    args as Record<string, unknown>,
    options.toolTimeoutMs,
    ctx.principal,
  );
}

function findTool(child: McpChild, name: string): Tool {
  const tool = child.tools.find((t) => t.name === name);
  if (tool) return tool;
  if (child.tools.length === 0 && child.state !== "up") {
    const status = child.status();
    throw new HttpError(
      503,
      "server_unavailable",
      `server ${child.name} is ${status.state} and its tools are not known yet; try again shortly`,
      {
        details: { server: child.name, state: status.state, retryInSeconds: status.retryInSeconds },
        headers: { "retry-after": String(Math.max(1, status.retryInSeconds ?? 1)) },
      },
    );
  }
  throw new HttpError(
    404,
    "unknown_tool",
    `server ${child.name} has no tool "${name}"; GET /${child.name} lists its tools`,
    { details: { server: child.name, tools: child.tools.map((t) => t.name) } },
  );
}

/**
 * Each server's state, for anyone (load balancers); each one's last error
 * only for a caller the authentication accepts (it names the child's
 * address, and once quoted a remote child's URL whole).
 */
async function health(
  children: Children,
  req: Request,
  ctx: Context,
  auth: Middleware,
): Promise<Response> {
  const known = await Promise.resolve(auth(req, ctx, () => Promise.resolve(new Response())))
    .then(() => true, () => false);
  const servers = Object.fromEntries(
    children.list().map((c) => {
      const { lastError, ...status } = c.status();
      return [c.name, known ? { ...status, lastError } : status];
    }),
  );
  const allUp = children.list().every((c) => c.state === "up");
  return jsonResponse(200, { status: allUp ? "ok" : "degraded", servers });
}

/** The servers as `principal` may see them: each one's device enum narrowed to its scope. */
function openApiServers(options: AppOptions, principal: Principal | undefined) {
  return Promise.all(
    options.children.list().map(async (c) => ({
      name: c.name,
      state: c.state,
      tools: await toolsFor(c, principal),
    })),
  );
}

async function openApiDoc(options: AppOptions, ctx: Context, only?: string) {
  return buildOpenApi(await openApiServers(options, ctx.principal), {
    version: options.version,
    bearer: authConfigured(options.auth),
    only,
  });
}

async function openApi(options: AppOptions, ctx: Context, only?: string): Promise<Response> {
  return jsonResponse(200, await openApiDoc(options, ctx, only));
}

async function toolList(child: McpChild, principal: Principal | undefined): Promise<Response> {
  const tools = await toolsFor(child, principal);
  return jsonResponse(200, {
    server: child.name,
    state: child.state,
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title ?? t.annotations?.title ?? t.name,
      description: t.description ?? "",
      method: "POST",
      path: `/${child.name}/${encodeURIComponent(t.name)}`,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  });
}

/** "/docs/": send the browser to "/docs", whose relative links are right. */
const toDocs: Handler = () => new Response(null, { status: 308, headers: { location: "../docs" } });

async function docsFile(ctx: Context, options: AppOptions, only?: string): Promise<Response> {
  const name = ctx.params.file;
  if (name === "openapi.json") {
    return jsonResponse(200, openApiForUi(await openApiDoc(options, ctx, only)));
  }
  if (name === "schemas.json") {
    return jsonResponse(200, schemasForUi(await openApiDoc(options, ctx, only)));
  }
  const res = docsAsset(name);
  if (!res) throw new HttpError(404, "not_found", `no docs file "${name}"`);
  return res;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

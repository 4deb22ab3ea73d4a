/**
 * The proxy's HTTP application: routes plus the middleware stack
 * (CORS outermost, then the JSON error envelope, then bearer auth).
 *
 * Routes:
 * - `GET /health` (always open): each server's state
 * - `GET /openapi.json`, `GET /docs`: all servers
 * - `GET /<server>`: its tools; `GET /<server>/openapi.json`, `GET /<server>/docs`
 * - `POST /<server>/<tool>`: call a tool with a JSON object of arguments
 *
 * @module
 */
import type { Tool } from "../mcp_sdk/types.ts";
import { log } from "../log.ts";
import { requireBearer } from "./auth.ts";
import { readJsonObject } from "./body.ts";
import type { Children, McpChild } from "./children.ts";
import { cors } from "./cors.ts";
import { errorEnvelope } from "./error_envelope.ts";
import { HttpError, jsonResponse } from "./errors.ts";
import { compose, type Handler } from "./middleware.ts";
import { buildOpenApi } from "./openapi.ts";
import { docsAsset, docsPage } from "./swagger.ts";
import { callToolOverHttp } from "./tool_call.ts";

/** What the application needs. */
export interface AppOptions {
  children: Children;
  /** Product version for the OpenAPI documents. */
  version: string;
  /** Bearer key; undefined for no auth. */
  apiKey?: string;
  /** Also protect docs, OpenAPI and tool lists (everything but `/health`). */
  strictAuth: boolean;
  /** Allowed CORS origins ("*" for any); none by default. */
  corsOrigins: string[];
  /** Tool-call timeout in milliseconds. */
  toolTimeoutMs: number;
  /** Body limit in bytes. */
  maxBodyBytes: number;
}

/** Build the request handler. */
export function createApp(options: AppOptions): Handler {
  const isProtected = (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === "/health") return false;
    return options.strictAuth || req.method === "POST";
  };
  const stack = compose(
    cors(options.corsOrigins),
    errorEnvelope,
    requireBearer(options.apiKey, isProtected),
  );
  return stack((req) => route(req, options));
}

async function route(req: Request, options: AppOptions): Promise<Response> {
  const url = new URL(req.url);
  const segments = url.pathname.split("/").slice(1).map(decodeSegment);
  const { children } = options;
  const [first = "", second, third, ...extra] = segments;

  if (segments.length === 1) {
    if (first === "health") return only(req, "GET", () => health(children));
    if (first === "openapi.json") return only(req, "GET", () => openApi(options));
    if (first === "docs") return only(req, "GET", () => docsPage("mcp-server-router proxy"));
  }
  if (first === "docs" && segments.length === 2) {
    return only(req, "GET", () => docsFile(second!));
  }
  const child = children.get(first);
  if (!child) {
    throw new HttpError(
      404,
      "not_found",
      first === ""
        ? "nothing here; see /docs, /openapi.json or /health"
        : `no server "${first}"; the servers are ${
          children.list().map((c) => c.name).join(", ")
        } (see /openapi.json)`,
    );
  }
  if (second === undefined || (second === "" && third === undefined)) {
    return only(req, "GET", () => toolList(child));
  }
  if (third === undefined && (req.method === "GET" || req.method === "HEAD")) {
    if (second === "openapi.json") return only(req, "GET", () => openApi(options, child.name));
    if (second === "docs") {
      return only(req, "GET", () => docsPage(`${child.name}: mcp-server-router proxy`));
    }
  }
  if (second === "docs" && third !== undefined && extra.length === 0) {
    return only(req, "GET", () => docsFile(third));
  }
  if (third !== undefined) {
    throw new HttpError(404, "not_found", `no such path; tools are at /${child.name}/<tool>`);
  }
  return await only(req, "POST", () => callTool(req, child, second, options));
}

async function callTool(
  req: Request,
  child: McpChild,
  name: string,
  options: AppOptions,
): Promise<Response> {
  const started = performance.now();
  let status = 500;
  try {
    const tool = findTool(child, name);
    const args = await readJsonObject(req, options.maxBodyBytes);
    const res = await callToolOverHttp(child, tool, args, options.toolTimeoutMs);
    status = res.status;
    return res;
  } catch (err) {
    if (err instanceof HttpError) status = err.status;
    throw err;
  } finally {
    const ms = (performance.now() - started).toFixed(0);
    log("info", `proxy: POST /${child.name}/${name} -> ${status} in ${ms} ms`);
  }
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
      { server: child.name, state: status.state, retryInSeconds: status.retryInSeconds },
      { "retry-after": String(Math.max(1, status.retryInSeconds ?? 1)) },
    );
  }
  throw new HttpError(
    404,
    "unknown_tool",
    `server ${child.name} has no tool "${name}"; GET /${child.name} lists its tools`,
    { server: child.name, tools: child.tools.map((t) => t.name) },
  );
}

function health(children: Children): Response {
  const servers = Object.fromEntries(children.list().map((c) => [c.name, c.status()]));
  const allUp = children.list().every((c) => c.state === "up");
  return jsonResponse(200, { status: allUp ? "ok" : "degraded", servers });
}

function openApi(options: AppOptions, only?: string): Response {
  const servers = options.children.list().map((c) => ({
    name: c.name,
    state: c.state,
    tools: c.tools,
  }));
  return jsonResponse(
    200,
    buildOpenApi(servers, { version: options.version, bearer: !!options.apiKey, only }),
  );
}

function toolList(child: McpChild): Response {
  return jsonResponse(200, {
    server: child.name,
    state: child.state,
    tools: child.tools.map((t) => ({
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

function docsFile(name: string): Response {
  if (name === "") {
    // "/docs/": send the browser to "/docs", whose relative links are right.
    return new Response(null, { status: 308, headers: { location: "../docs" } });
  }
  const res = docsAsset(name);
  if (!res) throw new HttpError(404, "not_found", `no docs file "${name}"`);
  return res;
}

async function only(
  req: Request,
  method: "GET" | "POST",
  handle: () => Response | Promise<Response>,
): Promise<Response> {
  if (method === "GET" && req.method === "HEAD") {
    const res = await handle();
    await res.body?.cancel();
    return new Response(null, { status: res.status, headers: res.headers });
  }
  if (req.method !== method) {
    await req.body?.cancel();
    const allow = method === "GET" ? "GET, HEAD" : method;
    throw new HttpError(405, "method_not_allowed", `use ${method} here`, null, { allow });
  }
  return await handle();
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "bad_path", "the path holds a malformed %-escape");
  }
}

/**
 * A tiny router with composable middleware, in the spirit of Hono: a route
 * is a path pattern, the middleware it needs (read top to bottom) and its
 * handlers by method. Middleware and handlers throw `HttpError` to refuse;
 * the application's error shape renders it, and every `next()` resolves to
 * a response (never throws), so outer middleware such as CORS sees
 * refusals as responses too. Unknown paths get 404; a known path with
 * another method gets 405 with `Allow`.
 *
 * Patterns are literal segments and `:name` parameters (one non-empty
 * segment, %-decoded): `/health`, `/:server/:tool`. A literal segment
 * beats a parameter, so `/:server/docs` wins over `/:server/:tool`.
 *
 * @module
 */
import type { Principal } from "../auth/principal.ts";
import { log } from "../log.ts";
import { HttpError } from "./errors.ts";

/** Per-request state that middleware fills in for later stages. */
export interface Context {
  /** The request path, without query. */
  path: string;
  /** The query string parameters. */
  query: URLSearchParams;
  /** The `:name` parameters of the matched route, %-decoded. */
  params: Record<string, string>;
  /** The body as text, once `bodyLimit` has read it. */
  text?: string;
  /** The parsed JSON body, once `jsonBody` has run. */
  body?: unknown;
  /** The address of the peer that sent the request (the TCP connection's, never a header). */
  peer?: string;
  /** Who sent it, once `authenticate` has run. */
  principal?: Principal;
  /** Close the request's connection (after a body that was not read to its end). */
  closeConnection?: () => void;
  /** The pattern of the route that matched (`/mcp`, `/:server/:tool`), once one has. */
  route?: string;
}

/** What the listener knows of a request's connection. */
export interface ConnectionInfo {
  remoteAddr: Deno.Addr;
  /** Close this connection. */
  close?: () => void;
}

/** The last stage: turns a request into a response. */
export type Handler = (req: Request, ctx: Context) => Response | Promise<Response>;

/** A stage that may answer itself (or throw `HttpError`) or call `next` to go on. */
export type Middleware = (
  req: Request,
  ctx: Context,
  next: () => Promise<Response>,
) => Response | Promise<Response>;

/** A method's handler, with middleware that runs for that method only. */
export type MethodRoute = Handler | { use: Middleware[]; handle: Handler };

/** Turns a refusal into the application's response shape. */
export type ErrorShape = (err: HttpError) => Response;

/** What an application needs besides its routes. */
export interface AppOptions {
  /** How refusals look (JSON envelope, JSON-RPC, plain text). */
  errorShape: ErrorShape;
  /** What to log an unexpected failure as (its message goes to the log, not the client). */
  name: string;
  /** Answer for a path no route matches (default: 404 Not Found). */
  notFound?: Handler;
  /** Told of every answer: the route that matched (none: no route did), method and status. */
  observe?: (route: string | undefined, method: string, status: number) => void;
}

interface Route {
  pattern: string;
  segments: string[];
  use: Middleware[];
  methods: Map<string, { use: Middleware[]; handle: Handler }>;
}

/** Path and query of a request, read without trusting the Host header. */
export function splitUrl(url: string): { path: string; query: URLSearchParams } {
  // Deno builds req.url from the Host header, which may not parse as a URL.
  const afterScheme = url.indexOf("//");
  const slash = url.indexOf("/", afterScheme < 0 ? 0 : afterScheme + 2);
  const rest = slash < 0 ? "/" : url.slice(slash);
  const q = rest.indexOf("?");
  const hash = rest.indexOf("#");
  const pathEnd = q >= 0 ? q : hash >= 0 ? hash : rest.length;
  const query = q >= 0 ? rest.slice(q + 1, hash > q ? hash : undefined) : "";
  return { path: rest.slice(0, pathEnd), query: new URLSearchParams(query) };
}

/** Render anything thrown: `HttpError` as it is, anything else as a 500 whose detail is logged. */
function rendered(err: unknown, req: Request, path: string, opts: AppOptions): Response {
  if (err instanceof HttpError) return opts.errorShape(err);
  log("error", `${opts.name}: ${req.method} ${path}: ${err instanceof Error ? err.message : err}`);
  return opts.errorShape(
    new HttpError(
      500,
      "internal_error",
      `the ${opts.name} failed to handle this request; see its log`,
    ),
  );
}

/** Run `stages` in order, then `last`; whatever one throws is rendered by `shape`. */
export function compose(
  stages: Middleware[],
  last: Handler,
  shape: (err: unknown) => Response,
): (req: Request, ctx: Context) => Promise<Response> {
  return (req, ctx) => {
    const step = async (i: number): Promise<Response> => {
      try {
        return await (i === stages.length
          ? last(req, ctx)
          : stages[i](req, ctx, () => step(i + 1)));
      } catch (err) {
        return shape(err);
      }
    };
    return step(0);
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "bad_path", "the path holds a malformed %-escape");
  }
}

/** Literal segments sort before parameters, position by position. */
function specificity(a: Route, b: Route): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const pa = a.segments[i].startsWith(":") ? 1 : 0;
    const pb = b.segments[i].startsWith(":") ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return 0;
}

/** The application: global middleware, then routes. */
export class App {
  #options: AppOptions;
  #global: Middleware[] = [];
  #routes: Route[] = [];

  constructor(options: AppOptions) {
    this.#options = options;
  }

  /** Add middleware that runs for every request, known path or not. */
  use(...middleware: Middleware[]): this {
    this.#global.push(...middleware);
    return this;
  }

  /** Add a path pattern with middleware for all its methods, then its handlers by method. */
  route(pattern: string, use: Middleware[], methods: Record<string, MethodRoute>): this {
    const byMethod = new Map<string, { use: Middleware[]; handle: Handler }>();
    for (const [method, route] of Object.entries(methods)) {
      byMethod.set(method, typeof route === "function" ? { use: [], handle: route } : route);
    }
    this.#routes.push({ pattern, segments: pattern.split("/").slice(1), use, methods: byMethod });
    this.#routes.sort(specificity);
    return this;
  }

  /** Answer one request; `info` tells its connection (absent: an in-process call). */
  fetch = (req: Request, info?: ConnectionInfo): Promise<Response> => {
    const { path, query } = splitUrl(req.url);
    const peer = info?.remoteAddr && "hostname" in info.remoteAddr
      ? info.remoteAddr.hostname
      : undefined;
    const ctx: Context = { path, query, params: {}, peer, closeConnection: info?.close };
    const shape = (err: unknown) => rendered(err, req, path, this.#options);
    const answer = compose(this.#global, (req, ctx) => this.#dispatch(req, ctx, shape), shape);
    const observe = this.#options.observe;
    if (!observe) return answer(req, ctx);
    return answer(req, ctx).then((res) => {
      observe(ctx.route, req.method, res.status);
      return res;
    });
  };

  #match(path: string): { route: Route; params: Record<string, string> } | undefined {
    const segments = path.split("/").slice(1);
    for (const route of this.#routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const fits = route.segments.every((want, i) => {
        if (!want.startsWith(":")) return want === segments[i];
        if (segments[i] === "") return false;
        params[want.slice(1)] = decodeSegment(segments[i]);
        return true;
      });
      if (fits) return { route, params };
    }
    return undefined;
  }

  #dispatch(
    req: Request,
    ctx: Context,
    shape: (err: unknown) => Response,
  ): Promise<Response> | Response {
    const found = this.#match(ctx.path);
    if (!found) {
      if (this.#options.notFound) return this.#options.notFound(req, ctx);
      throw new HttpError(404, "not_found", "Not Found");
    }
    ctx.params = found.params;
    const { route } = found;
    ctx.route = route.pattern;
    return compose(route.use, (req, ctx) => {
      const method = route.methods.get(req.method);
      if (!method) {
        const allow = [...route.methods.keys()].join(", ");
        throw new HttpError(405, "method_not_allowed", `Method Not Allowed: use ${allow} here`, {
          headers: { Allow: allow },
        });
      }
      return compose(method.use, method.handle, shape)(req, ctx);
    }, shape)(req, ctx);
  }
}

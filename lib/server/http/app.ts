/**
 * A tiny router with composable middleware, in the spirit of Hono: a route
 * is a path, its handlers by method, and middleware that runs before them.
 * Unknown paths get 404; a known path with another method gets 405 with
 * `Allow`.
 *
 * @module
 */
import { plainText } from "./responses.ts";

/** Per-request state that middleware fills in for later stages. */
export interface Context {
  /** The request path, without query. */
  path: string;
  /** The query string parameters. */
  query: URLSearchParams;
  /** The body as text, once `bodyLimit` has read it. */
  text?: string;
  /** The parsed JSON body, once `jsonBody` has run. */
  body?: unknown;
}

/** The last stage: turns a request into a response. */
export type Handler = (req: Request, ctx: Context) => Response | Promise<Response>;

/** A stage that may answer itself or call `next` to go on. */
export type Middleware = (
  req: Request,
  ctx: Context,
  next: () => Promise<Response>,
) => Response | Promise<Response>;

/** A method's handler, with middleware that runs for that method only. */
export type MethodRoute = Handler | { use: Middleware[]; handle: Handler };

interface Route {
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

/** Run `stages` in order, then `last`. */
export function compose(
  stages: Middleware[],
  last: Handler,
): (req: Request, ctx: Context) => Promise<Response> {
  return (req, ctx) => {
    const step = (i: number): Promise<Response> =>
      Promise.resolve(
        i === stages.length ? last(req, ctx) : stages[i](req, ctx, () => step(i + 1)),
      );
    return step(0);
  };
}

/** The application: global middleware, then routes. */
export class App {
  #global: Middleware[] = [];
  #routes = new Map<string, Route>();

  /** Add middleware that runs for every request, known path or not. */
  use(...middleware: Middleware[]): this {
    this.#global.push(...middleware);
    return this;
  }

  /** Add a path with middleware for all its methods, then its handlers by method. */
  route(path: string, use: Middleware[], methods: Record<string, MethodRoute>): this {
    const byMethod = new Map<string, { use: Middleware[]; handle: Handler }>();
    for (const [method, route] of Object.entries(methods)) {
      byMethod.set(method, typeof route === "function" ? { use: [], handle: route } : route);
    }
    this.#routes.set(path, { use, methods: byMethod });
    return this;
  }

  /** Answer one request. */
  fetch = (req: Request): Promise<Response> => {
    const { path, query } = splitUrl(req.url);
    const ctx: Context = { path, query };
    return compose(this.#global, (req, ctx) => this.#dispatch(req, ctx))(req, ctx);
  };

  #dispatch(req: Request, ctx: Context): Promise<Response> {
    const route = this.#routes.get(ctx.path);
    if (!route) return Promise.resolve(plainText(404, "Not Found"));
    return compose(route.use, (req, ctx) => {
      const method = route.methods.get(req.method);
      if (!method) {
        return plainText(405, "Method Not Allowed", {
          Allow: [...route.methods.keys()].join(", "),
        });
      }
      return compose(method.use, method.handle)(req, ctx);
    })(req, ctx);
  }
}

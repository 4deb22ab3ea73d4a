/**
 * The shape of the proxy's HTTP pipeline: a handler turns a request into a
 * response, a middleware wraps a handler. Small files each add one concern
 * (CORS, error envelope, auth) and `compose` stacks them.
 *
 * @module
 */

/** Turns a request into a response. */
export type Handler = (req: Request) => Promise<Response>;

/** Wraps a handler with one concern. */
export type Middleware = (next: Handler) => Handler;

/** Stack middleware: the first listed is the outermost. */
export function compose(...layers: Middleware[]): Middleware {
  return (inner) => layers.reduceRight((next, layer) => layer(next), inner);
}

/**
 * How this server tells a parent (the REST proxy) that a failed tool call
 * was refused as the caller's doing, not broken upstream: the failed
 * `tools/call` result carries, in its `_meta` under
 * {@linkcode REFUSAL_META_KEY}, which check refused it. The proxy answers
 * such a call with a 4xx status (403, 409, 422) instead of a 502; a server
 * that sends no marker gets the 502 as before.
 *
 * @module
 */

/** The `_meta` key of a failed `tools/call` result that says which check refused the call. */
export const REFUSAL_META_KEY = "io.github.mcp-server-router/refusal";

/**
 * Which check refused a call: a guard of the chain (`role`, `scope`,
 * `confirm`, `lockout`, ...) or `arguments` (an argument the server refused,
 * or asked of a device whose release lacks it).
 */
export interface Refusal {
  kind: string;
  /** The argument at fault, when one is (`device`). */
  argument?: string;
}

/** The refusal a failed result's `_meta` names, if it names a well-formed one. */
export function refusalOf(meta: unknown): Refusal | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const r = (meta as Record<string, unknown>)[REFUSAL_META_KEY];
  if (typeof r !== "object" || r === null) return undefined;
  const { kind, argument } = r as Record<string, unknown>;
  if (typeof kind !== "string" || !/^[a-z-]{1,32}$/.test(kind)) return undefined;
  return {
    kind,
    ...(typeof argument === "string" && argument.length <= 64 ? { argument } : {}),
  };
}

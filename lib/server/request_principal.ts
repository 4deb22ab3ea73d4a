/**
 * The principal an MCP request is made for, as the guard chain sees it.
 *
 * - Over HTTP, the transport authenticated it (an API key or an OAuth
 *   token) and hands it over in the request's `authInfo`.
 * - Over stdio (and in-process), the client started this process and owns
 *   it: it could as well run the router commands itself, so it is not
 *   restricted (no principal).
 * - A parent that acts for someone else (the REST proxy, for its own
 *   authenticated caller) names that caller in the `tools/call` request's
 *   `_meta` under {@linkcode PRINCIPAL_META_KEY}. That can only take rights
 *   away: the named principal is narrowed by the transport's own (weaker
 *   role, both scopes), so a client gains nothing by sending one, while a
 *   proxy holding the process can pass on its caller's limits.
 *
 * @module
 */
import {
  narrow,
  type Principal,
  PRINCIPAL_META_KEY,
  principalFromMeta,
  ROLE_META_KEY,
} from "../auth/principal.ts";
import { requiredRole } from "../tools/guard/roles.ts";
import type { ToolDef } from "../tools/tool.ts";

/** What a request handler's `extra` tells about the caller. */
interface RequestExtra {
  authInfo?: { extra?: Record<string, unknown> };
}

/** The principal the transport authenticated, if any. */
export function transportPrincipal(extra: RequestExtra): Principal | undefined {
  return extra.authInfo?.extra?.principal as Principal | undefined;
}

/**
 * The principal a `tools/call` is made for: the transport's, narrowed by a
 * principal named in `_meta`. A malformed `_meta` principal refuses
 * everything rather than nothing (fail closed).
 */
export function callPrincipal(
  extra: RequestExtra,
  meta: Record<string, unknown> | undefined,
): Principal | undefined {
  const outer = transportPrincipal(extra);
  if (!meta || !(PRINCIPAL_META_KEY in meta)) return outer;
  const inner = principalFromMeta(meta[PRINCIPAL_META_KEY]) ??
    { name: "invalid _meta principal", role: "read", scopes: [{ devices: [], tags: [] }] };
  return narrow(outer, inner);
}

/**
 * A `tools/list` entry with the admin marker in its `_meta` when the tool
 * needs the admin role (its annotations cannot say so), for parents such
 * as the REST proxy that authorize their own callers. Only the few admin
 * tools carry it.
 */
export function markedEntry<E extends { _meta?: Record<string, unknown> }>(
  entry: E,
  tool: ToolDef,
): E {
  if (requiredRole(tool) !== "admin") return entry;
  return { ...entry, _meta: { ...entry._meta, [ROLE_META_KEY]: "admin" } };
}

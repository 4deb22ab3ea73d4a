/**
 * The proxy's own check of a tool call, for any child: what the child says
 * of the tool decides what the principal's role may call. A `read`
 * principal calls only tools annotated `readOnlyHint: true` (a tool without
 * the annotation is taken as a write: fail closed); a tool whose `_meta`
 * carries this product's admin marker needs `admin`. A child that is this
 * product also applies the principal itself (it gets it in `_meta`), to
 * nested calls and device scopes too.
 *
 * @module
 */
import { type Principal, type Role, ROLE_META_KEY, roleAtLeast } from "../auth/principal.ts";
import type { Tool } from "../mcp_sdk/types.ts";
import { HttpError } from "../http/errors.ts";
import type { McpChild } from "./children.ts";

/** The least role a tool of a child needs, by its annotations and `_meta`. */
export function roleOfTool(tool: Tool): Role {
  const marked = (tool._meta as Record<string, unknown> | undefined)?.[ROLE_META_KEY];
  if (marked === "admin") return "admin";
  return tool.annotations?.readOnlyHint === true ? "read" : "operate";
}

/** Refuse (403) a call `principal` may not make; no principal: the proxy's owner. */
export function authorizeCall(principal: Principal | undefined, child: McpChild, tool: Tool): void {
  if (!principal) return;
  const need = roleOfTool(tool);
  if (roleAtLeast(principal.role, need)) return;
  throw new HttpError(
    403,
    "forbidden",
    `${child.name}/${tool.name} needs the ${need} role; "${principal.name}" has ${principal.role}` +
      (need === "operate" ? " (the tool is not annotated read-only)" : "") +
      ". Nothing was called.",
    { details: { server: child.name, tool: tool.name, role: principal.role, needs: need } },
  );
}

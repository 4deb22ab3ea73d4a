/**
 * The role and scope guard: which tools a principal's role may call, and
 * which devices its scope lets it touch. The guard chain runs it on every
 * call, direct or nested (a composite's steps and a fleet job's per-device
 * calls are checked with the caller's principal), so an `operate` key
 * cannot reach an admin tool through `router_apply_changes`, nor a scoped
 * key another device through `router_fleet_query`.
 *
 * A tool's role is data on the tool: `role` when it says one, else `read`
 * for a tool that only reads and `operate` for a write.
 *
 * @module
 */
import { inScope, type Principal, type Role, roleAtLeast } from "../../auth/principal.ts";
import type { DeviceInfo, FleetView, ToolDef } from "../tool.ts";
import { RefusedError } from "./refusals.ts";

/**
 * The least role that may call `tool`; with `args`, that call: a write that
 * sets a script the router runs (`lease_script`, `on_up`: `scriptArgs`) to
 * anything but "" needs `admin`, since the router runs it with the rights
 * of its owner (a read of it stays `read`).
 */
export function requiredRole(
  tool: Pick<ToolDef, "role" | "annotations" | "scriptArgs">,
  args?: Record<string, unknown>,
): Role {
  if (args && !tool.annotations.readOnlyHint && scriptsSet(tool, args).length) return "admin";
  return tool.role ?? (tool.annotations.readOnlyHint ? "read" : "operate");
}

/** The script arguments `args` sets to something (not ""). */
function scriptsSet(tool: Pick<ToolDef, "scriptArgs">, args: Record<string, unknown>): string[] {
  return (tool.scriptArgs ?? []).filter((k) => args[k] !== undefined && args[k] !== "");
}

/** Whether `principal` may call `tool` at all (no principal: the process's owner, who may). */
export function mayCall(
  principal: Principal | undefined,
  tool: Pick<ToolDef, "role" | "annotations">,
): boolean {
  return !principal || roleAtLeast(principal.role, requiredRole(tool));
}

/**
 * Refuse a call `principal` may not make: a tool above its role, or a
 * device outside its scope. `device` is the device the call acts on (none
 * for fleet-wide tools, whose per-device calls are checked one by one);
 * `describe` finds a device's tags.
 */
export function authorize(
  principal: Principal | undefined,
  tool: ToolDef,
  what: string,
  device: string | undefined,
  describe: (title: string) => DeviceInfo | undefined,
): void {
  if (!principal) return;
  const need = requiredRole(tool);
  if (!roleAtLeast(principal.role, need)) {
    throw new RefusedError(
      "role",
      `${what} needs the ${need} role; "${principal.name}" has ${principal.role}` +
        (need === "admin"
          ? " (admin tools run code on the router, restart it or manage its accounts)"
          : principal.role === "metrics"
          ? " (a metrics key calls no tool; it only reads /metrics)"
          : " (a read key or token may only call tools that read)") +
        ". Nothing was sent; ask the operator for a key or token with that role.",
    );
  }
  if (device !== undefined && !deviceInScope(principal, device, describe)) {
    throw new RefusedError(
      "scope",
      `${what}: device "${device}" is outside the devices "${principal.name}" may use. ` +
        "Nothing was sent.",
    );
  }
}

/**
 * Whether `principal`'s scope lets it use `device` (a title): always
 * without a scope; never for a device the inventory does not know (its tags
 * cannot be told).
 */
export function deviceInScope(
  principal: Principal | undefined,
  device: string,
  describe: (title: string) => DeviceInfo | undefined,
): boolean {
  if (!principal?.scopes?.length) return true;
  const info = describe(device);
  return info !== undefined && inScope(principal, info);
}

/**
 * Refuse a call whose checked arguments need more than the tool's role
 * (a script the router runs, see {@linkcode requiredRole}).
 */
export function authorizeArguments(
  principal: Principal | undefined,
  tool: ToolDef,
  what: string,
  args: Record<string, unknown>,
): void {
  if (!principal) return;
  const need = requiredRole(tool, args);
  if (roleAtLeast(principal.role, need)) return;
  throw new RefusedError(
    "role",
    `${what} sets ${scriptsSet(tool, args).join(", ")}, a script the router runs with its ` +
      `owner's rights, which needs the ${need} role; "${principal.name}" has ` +
      `${principal.role}. Nothing was sent; leave it out, or ask the operator for a key or ` +
      "token with that role.",
  );
}

/**
 * Refuse a call whose role shows only once it has read the router: acting
 * on a pending change needs the role that made it (an import's, admin: its
 * rollback loads a backup and reboots the router). `why` says what needs it.
 */
export function authorizeRole(
  principal: Principal | undefined,
  need: Role,
  what: string,
  why: string,
): void {
  if (!principal || roleAtLeast(principal.role, need)) return;
  throw new RefusedError(
    "role",
    `${what} ${why}, which needs the ${need} role; "${principal.name}" has ` +
      `${principal.role}. Nothing was sent; ask the operator for a key or token with that role.`,
  );
}

/** The fleet as `principal` may see it: only the devices in its scope. */
export function scopedFleet(fleet: FleetView, principal: Principal | undefined): FleetView {
  if (!principal?.scopes?.length) return fleet;
  return { summaries: () => fleet.summaries().filter((d) => inScope(principal, d)) };
}

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
import {
  describePrincipal,
  inScope,
  type Principal,
  type Role,
  roleAtLeast,
} from "../../auth/principal.ts";
import type { DeviceInfo, FleetView, ToolContext, ToolDef } from "../tool.ts";
import { RefusedError } from "./refusals.ts";
import type { ScriptText } from "../../routeros/export_secrets.ts";
import { grantsPrivilege } from "../../routeros/privilege.ts";

/**
 * The least role that may call `tool`; with `args`, that call: a write that
 * sets a privileged field (`privilegedArgs`: a script the router runs, such
 * as `lease_script`, which it runs with its owner's rights; a community's
 * `write_access`; a RADIUS server's `service` with `login`) to a value that
 * grants it needs `admin` (a read of it stays `read`). A write to an item
 * that already holds one needs `admin` too: {@linkcode authorizeHeld}.
 */
export function requiredRole(
  tool: Pick<ToolDef, "role" | "annotations" | "privilegedArgs">,
  args?: Record<string, unknown>,
): Role {
  if (args && !tool.annotations.readOnlyHint && privilegesSet(tool, args).length) return "admin";
  return tool.role ?? (tool.annotations.readOnlyHint ? "read" : "operate");
}

/** The privileged arguments `args` sets to a value that grants them, with what each grants. */
function privilegesSet(
  tool: Pick<ToolDef, "privilegedArgs">,
  args: Record<string, unknown>,
): [string, string][] {
  return Object.entries(tool.privilegedArgs ?? {}).flatMap(([k, p]) =>
    grantsPrivilege(p, args[k]) ? [[k, p.grants] as [string, string]] : []
  );
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
      `${what} needs the ${need} role; "${describePrincipal(principal)}" has ${principal.role}` +
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
      `${what}: device "${device}" is outside the devices "${
        describePrincipal(principal)
      }" may use. ` +
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
 * (a privileged field set, see {@linkcode requiredRole}).
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
    `${what} sets ${
      privilegesSet(tool, args).map(([arg, grants]) => `${arg}, ${grants}`).join("; ")
    }, which needs the ${need} role; "${describePrincipal(principal)}" has ` +
      `${principal.role}. Nothing was sent; leave it out, or ask the operator for a key or ` +
      "token with that role.",
  );
}

/**
 * Refuse a write below admin to an item that holds a privilege now (an
 * SNMP community with write access, a RADIUS server for router logins, a
 * DHCP server with a lease script): changing its name, addresses or
 * secrets, or enabling it, takes over what only admin may grant, and
 * removing or moving it is admin's too. So is a value that grants a
 * privilege through another item (`grantsThrough`: a User Manager user's
 * group whose attributes grant router logins; SNMP turned on while a write
 * community exists). The items are read before the write; when they cannot
 * be read the call is refused (fail closed). Admin and the process's owner
 * skip the read.
 */
export async function authorizeHeld(
  principal: Principal | undefined,
  tool: ToolDef,
  what: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<void> {
  if (!principal || roleAtLeast(principal.role, "admin")) return;
  if (!tool.heldPrivileges && !tool.grantsThrough) return;
  let held: string[];
  let through: string[];
  try {
    held = (await tool.heldPrivileges?.(args, ctx)) ?? [];
    through = (await tool.grantsThrough?.(args, ctx)) ?? [];
  } catch (err) {
    throw new RefusedError(
      "role",
      `${what}: the item it changes could not be read to tell whether it holds ${
        Object.values(tool.privilegedArgs ?? {}).map((p) => p.grants).join("; ") || "a privilege"
      }, which only the admin role may change (${(err as Error).message}). Nothing was sent.`,
    );
  }
  if (through.length) {
    throw new RefusedError(
      "role",
      `${what} sets ${through.join("; ")}, which needs the admin role; "${
        describePrincipal(principal)
      }" has ${principal.role}. Nothing was sent; leave it out, or ask the operator for a key or ` +
        "token with that role.",
    );
  }
  if (!held.length) return;
  throw new RefusedError(
    "role",
    `${what} changes an item that holds ${held.join("; ")}, which needs the admin role; "${
      describePrincipal(principal)
    }" has ` +
      `${principal.role}. Nothing was sent; ask the operator for a key or token with that role.`,
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
    `${what} ${why}, which needs the ${need} role; "${describePrincipal(principal)}" has ` +
      `${principal.role}. Nothing was sent; ask the operator for a key or token with that role.`,
  );
}

/**
 * How reads show script text to `principal` ({@linkcode ScriptText}): whole
 * when the operator reveals secrets; withheld below admin (script text may
 * hold credentials no masking finds, and only admin may write it); masked
 * for admin and the process's owner.
 */
export function scriptTextFor(principal: Principal | undefined, reveal: boolean): ScriptText {
  if (reveal) return "whole";
  return principal && !roleAtLeast(principal.role, "admin") ? "withheld" : "masked";
}

/**
 * What a handler knows and checks of its caller (`principal` calling
 * `tool`, named `what` in refusals): how it may see script text, which
 * devices its scope lets it use, and refusals as the role and scope guards
 * make them.
 */
export function callerChecks(
  principal: Principal | undefined,
  tool: ToolDef,
  what: string,
  describe: (title: string) => DeviceInfo | undefined,
  reveal: boolean,
): Pick<ToolContext, "scriptText" | "mayUse" | "authorizeDevice" | "authorizeRole"> {
  return {
    scriptText: scriptTextFor(principal, reveal),
    mayUse: (title) => deviceInScope(principal, title, describe),
    authorizeDevice: (title) => authorize(principal, tool, what, title, describe),
    authorizeRole: (need, why) => authorizeRole(principal, need, what, why),
  };
}

/** What a scoped principal sees in a device's `via` instead of a bastion outside its scope. */
export const OUT_OF_SCOPE = "(out of scope)";

/**
 * The fleet as `principal` may see it: only the devices in its scope, and
 * in their `via` (the bastions on the way) no title of a device outside it:
 * each such bastion is `(out of scope)`, so the caller still knows its
 * device is reached through a bastion (a connection failure may be the
 * bastion's) without learning another device's title. A bastion given
 * inline (`user@host:port`, no inventory entry) is part of the device's own
 * entry and stays.
 */
export function scopedFleet(fleet: FleetView, principal: Principal | undefined): FleetView {
  if (!principal?.scopes?.length) return fleet;
  return {
    summaries: () => {
      const all = fleet.summaries();
      const hidden = new Set(
        all.filter((d) => !inScope(principal, d)).map((d) => d.title.toLowerCase()),
      );
      return all.filter((d) => inScope(principal, d)).map((d) =>
        d.via?.some((b) => hidden.has(b.toLowerCase()))
          ? { ...d, via: d.via.map((b) => hidden.has(b.toLowerCase()) ? OUT_OF_SCOPE : b) }
          : d
      );
    },
  };
}

/**
 * `err` as a scoped `principal` may read it: every bastion outside its
 * scope that the text names (the SSH layer names the bastions a device is
 * reached through in connection errors: `bastion "lab-gw" (10.0.0.9:22 via
 * bastion "edge-1")`, each hop of a chain) is `bastion (out of scope)`, its
 * address with it, as in `router_list_devices`' `via`. The titles come from
 * the fleet, not from parsing the text, so each hop of a chain, and a title
 * holding quotes or brackets, is found. (A scope refusal echoes the title
 * the caller gave, which it keeps.) Callers without a scope get `err` as it
 * is.
 */
export function scopedError(err: unknown, principal: Principal | undefined, fleet: FleetView) {
  if (!principal?.scopes?.length || !(err instanceof Error)) return err;
  const hidden = fleet.summaries().filter((d) => !inScope(principal, d)).map((d) => d.title);
  // Longest first: a title that holds another is hidden whole.
  for (const title of hidden.sort((a, b) => b.length - a.length)) {
    const quoted = escapeRegExp(`"${title}"`);
    if (!new RegExp(quoted, "i").test(err.message)) continue;
    err.message = err.message.replace(
      new RegExp(`bastion ${quoted}(?: ${ENDPOINT.source})?`, "gi"),
      `bastion ${OUT_OF_SCOPE}`,
    );
  }
  return err;
}

/** The endpoint the SSH layer gives after a bastion: `(10.0.0.9:22)`, `(... via bastion "x")`. */
const ENDPOINT = /\((?:[^()"]|"[^"]*")*\)/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

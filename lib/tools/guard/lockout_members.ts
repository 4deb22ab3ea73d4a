/**
 * Lock-out rules for menus that take interfaces away from where they are:
 * a bond's slaves and a VRF's interfaces. Making the interface that carries
 * this server's SSH session a bond slave, or moving it into a VRF, cuts
 * the session (its address stays behind, or lands in another routing
 * domain).
 *
 * @module
 */
import { type LockoutRule, sessionInterface } from "./lockout.ts";

/** The names in a list property (`["ether4", "ether5"]` or `ether4,ether5`). */
function names(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === "string" && v !== "" ? v.split(",") : [];
}

/**
 * A rule for the list property `prop` (tool-side name) of members taken
 * into `what` ("bond", "VRF"): adding the session's interface cuts.
 */
export function takesMembers(prop: string, what: string): LockoutRule {
  return {
    verbs: ["add", "update", "enable"],
    updates: [prop],
    check: async ({ before, after }, ctx) => {
      if (after.disabled === true) return undefined;
      const had = before && before.disabled !== true ? names(before[prop]) : [];
      const joining = names(after[prop]).filter((n) => !had.includes(n));
      if (!joining.length) return undefined;
      const iface = await sessionInterface(ctx);
      if (!iface || !joining.includes(iface)) return undefined;
      return `interface ${iface} carries the address this server's SSH session uses; ` +
        `${what} ${String(after.name ?? before?.name ?? "")} would take it over`;
    },
  };
}

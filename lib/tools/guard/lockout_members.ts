/**
 * Lock-out rules for menus that take interfaces away from where they are:
 * a bond's slaves, a VRF's interfaces and a bridge's ports. Making the
 * interface that carries this server's SSH session (or the parent of that
 * VLAN) a bond slave or a bridge port, or moving it into a VRF, cuts the
 * session: its address stays behind on an interface that no longer takes
 * the frames (RouterOS hands them to the bond or the bridge), or lands in
 * another routing domain.
 *
 * @module
 */
import type { LockoutRule } from "./lockout.ts";
import { carriers } from "./lockout_interfaces.ts";

type Item = Record<string, unknown>;

/** The names in a list property (`["ether4", "ether5"]` or `ether4,ether5`). */
function names(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === "string" && v !== "" ? v.split(",") : [];
}

/**
 * A rule for the property `prop` (tool-side name; a list or one interface)
 * of members taken into `what` ("bond", "VRF", "bridge"), whose name is the
 * item's `owner` property: the session's interface (or its VLAN's parent)
 * joining cuts.
 */
export function takesMembers(prop: string, what: string, owner = "name"): LockoutRule {
  return {
    verbs: ["add", "update", "enable"],
    updates: [prop, "disabled"],
    check: async ({ before, after }, ctx) => {
      if (after.disabled === true) return undefined;
      const had = before && before.disabled !== true ? names(before[prop]) : [];
      const joining = names(after[prop]).filter((n) => !had.includes(n));
      if (!joining.length) return undefined;
      const carrying = await carriers(ctx);
      const taken = joining.find((n) => carrying.has(n));
      if (!taken) return undefined;
      const name = String((after as Item)[owner] ?? (before as Item | undefined)?.[owner] ?? "");
      return `${carrying.get(taken)}; ${what} ${name} would take it over`;
    },
  };
}

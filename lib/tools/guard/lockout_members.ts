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
import { type LockoutRule, sessionInterface } from "./lockout.ts";
import type { ToolContext } from "../tool.ts";

type Item = Record<string, unknown>;

/** The names in a list property (`["ether4", "ether5"]` or `ether4,ether5`). */
function names(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === "string" && v !== "" ? v.split(",") : [];
}

/**
 * The interface that carries the session, and the parents its frames come
 * through when it is a VLAN (a VLAN on a VLAN too), each with why it counts.
 */
async function carriers(ctx: ToolContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const iface = await sessionInterface(ctx);
  if (!iface) return out;
  out.set(iface, `interface ${iface} carries the address this server's SSH session uses`);
  let child = iface;
  for (let depth = 0; depth < 4; depth++) {
    const [vlan] = await ctx.client.read({ path: "/interface/vlan", keys: ["name", "interface"] }, [
      { key: "name", value: child },
    ]);
    const parent = vlan?.interface ? String(vlan.interface) : undefined;
    if (!parent || out.has(parent)) break;
    out.set(
      parent,
      `interface ${parent} is the parent of ${child}, which carries this server's SSH session`,
    );
    child = parent;
  }
  return out;
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

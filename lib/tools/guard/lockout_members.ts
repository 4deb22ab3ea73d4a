/**
 * Lock-out rules for menus that take interfaces away from where they are:
 * a bond's slaves, a VRF's interfaces and a bridge's ports. Making the
 * interface that carries this server's SSH session (or the parent of that
 * VLAN) a bond slave or a bridge port, or moving it into a VRF, cuts the
 * session: its address stays behind on an interface that no longer takes
 * the frames (RouterOS hands them to the bond or the bridge), or lands in
 * another routing domain.
 *
 * A hotspot server takes its interface over too: every host behind it is
 * an unauthorized client until it logs in at the captive portal, and the
 * rules RouterOS adds for it (filter input jumps to `hs-input`, which lets
 * such clients reach only DNS and the login page) cut this server's
 * session when it arrives there, and refuse its next login.
 *
 * @module
 */
import { isYes } from "../../routeros/rule_match.ts";
import type { ToolContext } from "../tool.ts";
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

/**
 * Why `iface` carries the session: it is one of the carriers, or a bridge
 * with one of them among its enabled ports (one read of its ports).
 */
async function carrying(ctx: ToolContext, iface: string): Promise<string | undefined> {
  const carried = await carriers(ctx);
  const own = carried.get(iface);
  if (own) return own;
  const ports = await ctx.client.read({
    path: "/interface/bridge/port",
    keys: ["bridge", "interface", "disabled"],
  }, [{ key: "bridge", value: iface }]);
  const port = ports.find((p) =>
    !isYes(String(p.disabled ?? "")) && carried.has(String(p.interface ?? ""))
  );
  return port
    ? `bridge ${iface} holds ${port.interface} as a port, and ${
      carried.get(String(port.interface))
    }`
    : undefined;
}

/**
 * `/ip/hotspot`: a server added, enabled or moved onto an interface that
 * carries the session (or a bridge holding one as a port). A disabled
 * server, or one that stays where it was, cuts nothing new.
 */
export const hotspotOn: LockoutRule = {
  verbs: ["add", "update", "enable"],
  updates: ["interface", "disabled"],
  check: async ({ before, after }, ctx) => {
    if (after.disabled === true) return undefined;
    const iface = after.interface === undefined ? "" : String(after.interface);
    if (!iface) return undefined;
    if (before && before.disabled !== true && String(before.interface ?? "") === iface) {
      return undefined;
    }
    const why = await carrying(ctx, iface);
    return why
      ? `${why}; a hotspot server on ${iface} makes this server an unauthorized hotspot ` +
        "client there (its rules let such clients reach only DNS and the login page): the " +
        "session is cut and its next login refused"
      : undefined;
  },
};

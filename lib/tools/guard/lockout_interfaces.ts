/**
 * The lock-out rule of every menu whose items are interfaces: `/interface`
 * and each kind's menu (ethernet, VLAN, bridge, bond, WireGuard, EoIP, GRE,
 * VRRP, PPP clients, wifi, LTE ...). The menu engine attaches it from the
 * schema (`itemsAreInterfaces`), not each menu by hand, so a new interface
 * family cannot forget it (`lib/tools/menu_tools/lockout_rule.ts`).
 *
 * The interfaces that carry this server's SSH session: the one that holds
 * the address the session reached, the one its packets arrive on and the
 * router's replies leave by (the route back: a router managed at a loopback
 * /32 is reached through its uplink), and the ones their frames come through
 * when one hangs from another (a VLAN's, VRRP's, MACVLAN's or PPPoE
 * client's `interface`, a virtual AP's `master-interface`, a VLAN on a
 * VLAN too). Removing or disabling one of them cuts the session; so may any
 * other change but its comment or its name (RouterOS keeps references to a
 * renamed interface): a tunnel's remote address or key, a PPP client's
 * login, a VRRP's priority or id, a wifi's SSID, an Ethernet port's speed
 * or MTU take the link down or move it where this server does not reach it.
 * Those count as cuts without being evaluated (conservative); the refusal
 * names the properties.
 *
 * Not evaluated: the underlay of a tunnel (the route to its remote
 * address), a bond's slaves one by one, a bridge's ports.
 *
 * @module
 */
import type { LockoutRule } from "./lockout.ts";
import { sessionInterfaces } from "./lockout_session.ts";
import { readWalk } from "./lockout_walk.ts";
import type { ToolContext } from "../tool.ts";

/** The kinds of interface that hang from another: their menu and the property naming it. */
const PARENT_OF: Readonly<Record<string, readonly [path: string, prop: string]>> = {
  vlan: ["/interface/vlan", "interface"],
  vrrp: ["/interface/vrrp", "interface"],
  macvlan: ["/interface/macvlan", "interface"],
  "pppoe-out": ["/interface/pppoe-client", "interface"],
  wlan: ["/interface/wireless", "master-interface"],
  wifi: ["/interface/wifi", "master-interface"],
};

/**
 * The interfaces that carry the session, each with why it counts: the one
 * that holds the address the session reached, the ones its packets arrive
 * on and the router's replies leave by (the route back to this server: a
 * router managed at a loopback /32 is reached through its uplink), and the
 * ones each hangs from (a VLAN's parent, a VLAN on a VLAN too). One exec
 * for the session's path (lockout_walk.ts), then one read of `/interface`
 * and one of the kind's menu per level.
 */
export async function carriers(ctx: ToolContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const { path, held } = await sessionPath(ctx);
  for (const iface of held) {
    out.set(iface, `interface ${iface} carries the address this server's SSH session uses`);
  }
  for (const iface of path) {
    if (out.has(iface)) continue;
    out.set(
      iface,
      `interface ${iface} carries this server's SSH session (its packets arrive and the ` +
        `router's replies to ${ctx.client.session().local ?? "this server"} leave by it)`,
    );
  }
  for (const start of [...out.keys()]) await addParents(ctx, start, out);
  return out;
}

/**
 * The interfaces the session's packets arrive on and the replies leave by
 * (`path`), and the ones holding the address it reached (`held`), from one
 * exec of the session's reads (lockout_session.ts `sessionInterfaces`);
 * both empty before a connection.
 */
export async function sessionPath(ctx: ToolContext): Promise<{ path: string[]; held: string[] }> {
  const router = ctx.client.session().router;
  if (!router) return { path: [], held: [] };
  const read = (await readWalk(ctx, router.includes(":") ? 6 : 4, [])).session;
  return read ? sessionInterfaces(read.reads) : { path: [], held: [] };
}

/** The interfaces `iface` hangs from, added to `out` (up to four levels). */
async function addParents(ctx: ToolContext, iface: string, out: Map<string, string>) {
  let child = iface;
  for (let depth = 0; depth < 4; depth++) {
    const [row] = await ctx.client.read({ path: "/interface", keys: ["name", "type"] }, [
      { key: "name", value: child },
    ]);
    const kind = row ? PARENT_OF[String(row.type)] : undefined;
    if (!kind) break;
    const [path, prop] = kind;
    const [item] = await ctx.client.read({ path, keys: ["name", prop] }, [
      { key: "name", value: child },
    ]);
    const parent = item?.[prop] ? String(item[prop]) : undefined;
    if (!parent || out.has(parent)) break;
    out.set(
      parent,
      `interface ${parent} is the parent of ${child}, which carries this server's SSH session`,
    );
    child = parent;
  }
}

/** Properties whose change leaves an interface carrying what it carried. */
export const KEEPS_CARRYING: ReadonlySet<string> = new Set(["comment", "name", "new_name"]);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Why the change cuts, for the properties that say more than "it may". */
function effect(changed: readonly string[], after: Record<string, unknown>): string {
  if (changed.includes("arp") && after.arp === "disabled") {
    return " (without ARP it is unreachable)";
  }
  if (changed.includes("vlan_id")) {
    return ` (VLAN id ${after.vlan_id} puts it on another VLAN than the one this server reaches)`;
  }
  if (changed.includes("interface")) {
    return ` (on ${after.interface} its frames come from another port)`;
  }
  if (changed.includes("vlan_filtering") && after.vlan_filtering === true) {
    return " (with VLAN filtering on, its frames pass only if the bridge VLAN table and the " +
      "ports' PVIDs let them through, which the guard does not evaluate)";
  }
  return ` (changing ${changed.join(", ")} may take its link down or move it away from where ` +
    "this server reaches it; the guard does not evaluate how)";
}

/**
 * The rule of an interface menu: the interface that carries the session (or
 * one it hangs from) removed, disabled, or changed in anything but
 * {@linkcode KEEPS_CARRYING}. `updates` are the menu's writable tool
 * arguments but those; `secrets` the ones read back masked (a value given
 * for one counts as a change).
 */
export function interfaceLockout(
  updates: readonly string[],
  secrets: ReadonlySet<string> = new Set(),
): LockoutRule {
  return {
    verbs: ["remove", "disable", "update"],
    updates,
    check: async ({ verb, before, after, args }, ctx) => {
      if (!before || before.disabled === true) return undefined;
      const down = verb === "remove" || verb === "disable" || after.disabled === true;
      const changed = down
        ? []
        : updates.filter((k) =>
          args?.[k] !== undefined && k !== "disabled" &&
          (secrets.has(k) || !same(args[k], before[k]))
        );
      if (!down && !changed.length) return undefined;
      const why = (await carriers(ctx)).get(String(before.name ?? ""));
      if (!why) return undefined;
      return down ? why : why + effect(changed, after);
    },
  };
}

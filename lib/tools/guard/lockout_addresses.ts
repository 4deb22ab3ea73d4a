/**
 * The lock-out rule of the address menus (`/ip/address`, `/ipv6/address`).
 *
 * First the address the session reaches the router at: removed, disabled,
 * re-addressed or moved ({@linkcode ownAddress}). Then the route back: an
 * address is a route too (its connected route), so adding, enabling,
 * re-addressing or moving one can put a more specific route to this server
 * on another port ("add 10.0.0.1/16 on ether5" while the server is
 * 10.0.5.3, reached through a gateway), and removing or disabling one can
 * take away the connected route the router's replies leave by, or the
 * subnet that reaches their gateway. That is decided by the route rule's
 * own lookup (`lockout_routes.ts` `routeBackCut`), with the connected routes
 * as the address change leaves them (`lib/routeros/connected_routes.ts`).
 *
 * An address whose value the guard does not know (IPv6 `from_pool`) is not
 * evaluated for its route.
 *
 * @module
 */
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { Row } from "../../routeros/route_lookup.ts";
import { type LockoutRule, mayCut, ownAddress } from "./lockout.ts";
import { routeBackCut } from "./lockout_routes.ts";

type Item = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * The address item as the lookup reads it, when it holds a live address:
 * its `network` (a point-to-point /32 names its peer there), and the
 * interface it is really bound to (`actual-interface`: the bridge of a
 * port), which its connected route goes out of.
 */
function addressRow(item: Item | undefined, moved = false): Row | undefined {
  if (!item || item.disabled === true) return undefined;
  const address = text(item.address);
  const iface = moved ? text(item.interface) : text(item.actual_interface) || text(item.interface);
  if (!address.includes("/") || !iface) return undefined;
  return {
    address,
    interface: iface,
    ...(text(item.network) ? { network: text(item.network) } : {}),
    ...(item.id !== undefined ? { ".id": String(item.id) } : {}),
  };
}

/** The lock-out rule of an address menu (`/ip/address` or `/ipv6/address`). */
export function addressLockout(schema: MenuSchema): LockoutRule {
  const family = schema.path.startsWith("/ipv6/") ? 6 : 4;
  return {
    verbs: ["add", "update", "remove", "enable", "disable"],
    updates: ["address", "network", "interface", "disabled"],
    check: async (change, ctx) => {
      const { verb, before, after } = change;
      if (mayCut(ownAddress, verb, change.args ?? {})) {
        const own = await ownAddress.check(change, ctx);
        if (own) return own;
      }
      if (verb !== "add" && !before) return undefined;
      const was = addressRow(before);
      // A new address without a network gets its own (RouterOS derives it
      // again); a new interface is bound as given.
      const args = change.args ?? {};
      const will = verb === "remove" ? undefined : addressRow(
        args.address !== undefined && args.network === undefined
          ? { ...after, network: undefined }
          : after,
        args.interface !== undefined && args.interface !== before?.interface,
      );
      if (!was && !will) return undefined;
      if (
        was && will && was.address === will.address && was.interface === will.interface &&
        was.network === will.network
      ) {
        return undefined;
      }
      const cut = await routeBackCut(ctx, family, {
        address: { ...(was ? { removed: was } : {}), ...(will ? { added: will } : {}) },
      });
      if (!cut) return undefined;
      const what = verb === "add"
        ? `the address ${will?.address} on ${will?.interface} makes a connected route`
        : `${before?.address} on ${before?.interface} and its connected route change`;
      return `${what}: ${cut}`;
    },
  };
}

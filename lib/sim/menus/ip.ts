/** `/ip` and `/ipv6` menus: addresses, pools, DHCP, DNS, routes, services, neighbors. */
import type { Item, MenuDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { fmtIp4, network4, parsePrefix4 } from "../ipaddr.ts";
import { isTrue } from "../values.ts";
import {
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_INVALID,
  ifaceRef,
  INVALID,
  ro,
} from "./common.ts";

function networkOf(address: string | undefined): string | undefined {
  const px = address ? parsePrefix4(address) : null;
  return px ? fmtIp4(network4(px.ip, px.len)) : undefined;
}

function ifaceUsable(st: RouterState, name: string): boolean {
  const it = st.findByKey("/interface", name);
  return !!it && !isTrue(it.disabled);
}

/** `/ip/address`. */
export const IP_ADDRESS: MenuDef = {
  path: "/ip/address",
  kind: "list",
  props: [
    { name: "address", type: "prefix", required: true },
    { name: "network", type: "ip", default: (i) => networkOf(i.address) },
    ifaceRef("interface", { required: true }),
    ro("actual-interface", "ref", { compute: (i) => i.interface }),
    { ...INVALID, compute: (i, st) => String(!ifaceUsable(st, i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["address", "network", "interface"],
  check: (item, st, old) => {
    if (old && item.address !== old.address && item.network === old.network) {
      item.network = networkOf(item.address)!;
    }
    const ip = item.address.split("/")[0];
    const dup = st.stored(IP_ADDRESS).some((o) =>
      o[".id"] !== item[".id"] && o.address.split("/")[0] === ip && o.interface === item.interface
    );
    if (dup) throw fail("failure: already have such address");
  },
  defaults: () => [{
    address: "192.168.88.1/24",
    network: "192.168.88.0",
    interface: "bridge",
    comment: "defconf",
    disabled: "false",
    dynamic: "false",
  }],
};

/** IPv4 menus. */
export const IP_MENUS: MenuDef[] = [IP_ADDRESS];
export type { Item };

/**
 * The RouterOS menus whose items are ordered: the router evaluates them top
 * to bottom (firewall rules, routing filters, policy rules, simple queues,
 * access lists) and offers `move` to reorder them. In a configuration diff
 * their items are aligned in order and a change of place is a change.
 *
 * Every menu that takes `move` in the real command trees of 7.12.2 to 7.24
 * (`shared/fidelity`, from `/console/inspect`; a unit test checks that none
 * is missing), plus the RouterOS 6 menus that have no 7.x counterpart under
 * the same path (RouterOS 6 manual: `/ip route rule` and `/routing filter`
 * take `move` and are matched in order).
 *
 * @module
 */

/** Paths with slashes, as the export parser names menus. */
export const ORDERED_MENUS: ReadonlySet<string> = new Set([
  // RouterOS 7 command trees (every release from 7.12.2 to 7.24 unless noted).
  "/caps-man/access-list",
  "/caps-man/provisioning",
  "/interface/bridge/calea",
  "/interface/bridge/filter",
  "/interface/bridge/nat",
  "/interface/bridge/port",
  "/interface/wifi/access-list", // 7.13 and later
  "/interface/wifi/provisioning", // 7.13 and later
  "/interface/wifiwave2/access-list", // up to 7.12
  "/interface/wifiwave2/provisioning", // up to 7.12
  "/interface/wireguard/peers",
  "/interface/wireless/access-list",
  "/interface/wireless/channels",
  "/interface/wireless/connect-list",
  "/ip/dns/static",
  "/ip/firewall/calea",
  "/ip/firewall/filter",
  "/ip/firewall/mangle",
  "/ip/firewall/nat",
  "/ip/firewall/raw",
  "/ip/hotspot/ip-binding",
  "/ip/hotspot/walled-garden",
  "/ip/hotspot/walled-garden/ip",
  "/ip/ipsec/policy",
  "/ip/proxy/access",
  "/ip/proxy/cache",
  "/ip/proxy/direct",
  "/ip/socks/access",
  "/ip/tftp",
  "/ip/vrf",
  "/ipv6/firewall/filter",
  "/ipv6/firewall/mangle",
  "/ipv6/firewall/nat",
  "/ipv6/firewall/raw",
  "/mpls/interface",
  "/mpls/ldp/accept-filter",
  "/mpls/ldp/advertise-filter",
  "/queue/simple",
  "/radius",
  "/routing/bfd/configuration",
  "/routing/bgp/evpn", // 7.20 and later
  "/routing/filter/community-ext-list",
  "/routing/filter/community-large-list",
  "/routing/filter/community-list",
  "/routing/filter/num-list",
  "/routing/filter/rule",
  "/routing/filter/select-rule",
  "/routing/isis/interface-template", // 7.13 and later
  "/routing/ospf/interface-template",
  "/routing/pimsm/interface-template",
  "/routing/route/rule", // 7.12 to 7.22
  "/routing/rule",
  "/tool/netinstall", // 7.24
  // RouterOS 6 only.
  "/ip/route/rule",
  "/routing/filter",
]);

/** True when the order of the menu's items matters to the router. */
export function isOrdered(menu: string): boolean {
  return ORDERED_MENUS.has(menu);
}

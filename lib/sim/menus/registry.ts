/**
 * The menu tree: every menu description plus loose commands (`/ping`,
 * `/system/reboot`...), indexed by path for the parser.
 *
 * @module
 */
import type { CommandDef, MenuDef } from "../menu_types.ts";
import type { Release } from "../../routeros/release.ts";
import { onRelease } from "../releases.ts";
import { INTERFACE_MENUS } from "./interface.ts";
import { IP_MENUS } from "./ip.ts";
import { SYSTEM_MENUS } from "./system.ts";
import { USER_MENUS } from "./user.ts";
import { FIREWALL_MENUS } from "./firewall.ts";
import { MISC_MENUS } from "./misc.ts";
import { LOOSE_COMMANDS } from "./loose.ts";
import { TUNNEL_MENUS } from "./interface_tunnels.ts";
import { PPP_MENUS } from "./ppp.ts";
import { IPSEC_MENUS } from "./ipsec.ts";
import { OVPN_MENUS } from "./ovpn.ts";
import { IPV6_MENUS } from "./ipv6.ts";
import { DYNAMIC_ROUTING_MENUS } from "./routing_dynamic.ts";
import { PLATFORM_MENUS } from "./platform.ts";
import { PACKAGE_UPDATE } from "./package_update.ts";
import { CAPSMAN_MENUS } from "./capsman.ts";
import { CONNECTION_MENUS } from "./firewall_connection.ts";
import { MANAGEMENT_MENUS } from "./management.ts";
import { SYSTEM_RECORD_MENUS } from "./system_records.ts";
import { MANAGEMENT_ACCESS_MENUS } from "./management_access.ts";
import { ROUTING_RULE_MENUS } from "./routing_rules.ts";

/** A node of the menu tree. */
export interface MenuNode {
  name: string;
  path: string;
  children: Map<string, MenuNode>;
  menu?: MenuDef;
  commands: Map<string, CommandDef>;
}

/** Every menu. */
export const ALL_MENUS: MenuDef[] = [
  ...INTERFACE_MENUS,
  ...IP_MENUS,
  ...FIREWALL_MENUS,
  ...SYSTEM_MENUS,
  ...USER_MENUS,
  ...MISC_MENUS,
  ...TUNNEL_MENUS,
  ...PPP_MENUS,
  ...IPSEC_MENUS,
  ...OVPN_MENUS,
  ...IPV6_MENUS,
  ...DYNAMIC_ROUTING_MENUS,
  ...PLATFORM_MENUS,
  ...CAPSMAN_MENUS,
  PACKAGE_UPDATE,
  ...CONNECTION_MENUS,
  ...MANAGEMENT_MENUS,
  ...SYSTEM_RECORD_MENUS,
  ...MANAGEMENT_ACCESS_MENUS,
  ...ROUTING_RULE_MENUS,
];

const byPath = new Map<string, MenuDef[]>();
for (const m of ALL_MENUS) {
  if (!byPath.has(m.path)) byPath.set(m.path, []);
  byPath.get(m.path)!.push(m);
}
const byTable = new Map<string, MenuDef[]>();
for (const m of ALL_MENUS) {
  const t = m.table ?? m.path;
  if (!byTable.has(t)) byTable.set(t, []);
  byTable.get(t)!.push(m);
}

/** `/ip address` or `ip/address` → `/ip/address`. */
export function normPath(p: string): string {
  return "/" + p.split(/[\s/]+/).filter(Boolean).join("/");
}

/** Menu description of a path (for a release, when menus differ between releases). */
export function menuByPath(p: string, v?: Release): MenuDef | undefined {
  const list = byPath.get(normPath(p));
  if (!list) return undefined;
  if (!v) return list[0];
  return list.find((m) => onRelease(v, m.releases));
}

/** Menus stored in a table. */
export function menusInTable(table: string): MenuDef[] {
  return byTable.get(table) ?? [];
}

const trees = new Map<string, MenuNode>();

function node(name: string, path: string): MenuNode {
  return { name, path, children: new Map(), commands: new Map() };
}

/** True when a menu is on a router of release `v` with these packages. */
export function menuPresent(m: MenuDef, v: Release, packages: readonly string[]): boolean {
  if (!onRelease(v, m.releases)) return false;
  return !m.package || !onRelease(v, m.package.releases) || packages.includes(m.package.name);
}

/** The menu tree of a version and its installed packages (built once each). */
export function menuTree(v: Release, packages: readonly string[] = []): MenuNode {
  const key = `${v.text} ${packages.join(",")}`;
  let root = trees.get(key);
  if (root) return root;
  root = node("", "");
  const ensure = (path: string): MenuNode => {
    let n = root!;
    for (const seg of path.split("/").filter(Boolean)) {
      let c = n.children.get(seg);
      if (!c) {
        c = node(seg, n.path + "/" + seg);
        n.children.set(seg, c);
      }
      n = c;
    }
    return n;
  };
  for (const m of ALL_MENUS) {
    if (!menuPresent(m, v, packages)) continue;
    ensure(m.path).menu = m;
  }
  for (const c of LOOSE_COMMANDS) {
    if (!onRelease(v, c.releases)) continue;
    ensure(c.path).commands.set(c.name, c.def);
  }
  trees.set(key, root);
  return root;
}

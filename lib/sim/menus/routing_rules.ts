/**
 * Policy routing rules: `/routing/rule` (RouterOS 7) and `/ip/route/rule`
 * (RouterOS 6). Ordered lists, empty on a new router.
 *
 * Arguments per release: the `add` arguments of `/routing/rule` in the
 * real trees (`../shared/fidelity`): `action`, `dst-address`, `interface`,
 * `min-prefix`, `routing-mark`, `src-address`, `table` on every tree;
 * `chain`, `realm` and `vrf` from the 7.22.3 tree (left out here). Actions:
 * the 7.22.3 value list (`drop lookup lookup-only-in-table unreachable`,
 * and `mangle`, left out: no tree before says when it came). RouterOS 6's
 * `/ip route rule` follows MikroTik's v6 manual (the same matchers and
 * actions, `table` naming a `routing-mark` of `/ip route`).
 *
 * @module
 */
import type { MenuDef, PropDef } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import { COMMENT, DISABLED, F_DISABLED, ifaceRef, int, oneOf, str } from "./common.ts";

const ACTIONS = ["drop", "lookup", "lookup-only-in-table", "unreachable"];

function ruleProps(): PropDef[] {
  return [
    str("src-address"),
    str("dst-address"),
    str("routing-mark"),
    ifaceRef("interface"),
    oneOf("action", ACTIONS, "lookup"),
    str("table"),
    int("min-prefix", undefined, { min: 0, max: 4294967295 }),
    DISABLED,
    COMMENT,
  ];
}

function rules(path: string, releases: MenuDef["releases"]): MenuDef {
  return {
    path,
    releases,
    kind: "list",
    ordered: true,
    props: ruleProps(),
    flags: [F_DISABLED],
    columns: ["src-address", "dst-address", "routing-mark", "interface", "action", "table"],
  };
}

/** The policy routing rule menus. */
export const ROUTING_RULE_MENUS: MenuDef[] = [
  rules("/routing/rule", V7),
  rules("/ip/route/rule", V6),
];

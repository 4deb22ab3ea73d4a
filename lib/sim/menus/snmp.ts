/**
 * The SNMP agent: `/snmp` (settings) and `/snmp/community`.
 *
 * Sources:
 * - arguments of each release: `../shared/fidelity/tree-*.json` (the same
 *   on 7.12.2 to 7.24); values: the value lists of `tree-7.22.3.json`
 *   (`security` authorized/none/private, `authentication-protocol` MD5/SHA1,
 *   `encryption-protocol` AES/DES, `trap-version` 1/2/3, `trap-generators`
 *   interfaces/start-trap/temp-exception, `trap-community` offering `public`);
 * - RouterOS 6 has no tree: MikroTik's v6 manual (`engine-id` instead of
 *   `engine-id-suffix`; no `src-address` or `vrf`);
 * - defaults: a new router's agent is off with the one built-in community
 *   `public` (read-only, no SNMPv3 security, any manager: `::/0` on
 *   RouterOS 7, `0.0.0.0/0` on 6), as MikroTik's SNMP manual gives them.
 *
 * No real capture of `/snmp print` or `/snmp community print` is in
 * `../shared`: print order is the order below, and the refusal to remove
 * the built-in community is worded here, not copied. The agent's read-only
 * `engine-id` of RouterOS 7 is left out rather than made up.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import { isTrue } from "../values.ts";
import { bool, COMMENT, DISABLED, F_DISABLED, oneOf, ro, str } from "./common.ts";
import { settingsMenu } from "./settings_menu.ts";

/** `/snmp`: off, as a new router has it. */
const SNMP = settingsMenu("/snmp", [
  bool("enabled", false),
  str("contact", { default: "" }),
  str("location", { default: "" }),
  str("engine-id", { default: "", releases: V6 }),
  str("engine-id-suffix", { default: "", releases: V7 }),
  str("trap-community", { default: "public" }),
  oneOf("trap-version", ["1", "2", "3"], "1"),
  { name: "trap-generators", type: "list", values: ["interfaces", "start-trap", "temp-exception"] },
  str("trap-target", { default: "" }),
  str("trap-interfaces", { default: "" }),
  str("src-address", { default: "::", releases: V7 }),
  str("vrf", { default: "main", releases: V7 }),
], {
  enabled: "false",
  contact: "",
  location: "",
  "engine-id": "",
  "engine-id-suffix": "",
  "trap-community": "public",
  "trap-version": "1",
  "trap-generators": "temp-exception",
  "trap-target": "",
  "trap-interfaces": "",
  "src-address": "::",
  vrf: "main",
});

/** `/snmp/community`: the built-in `public`, plus what is added. */
const COMMUNITY: MenuDef = {
  path: "/snmp/community",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    {
      name: "addresses",
      type: "list",
      default: (_i, st) => (st.v6 ? "0.0.0.0/0" : "::/0"),
    },
    oneOf("security", ["authorized", "none", "private"], "none"),
    bool("read-access", true),
    bool("write-access", false),
    oneOf("authentication-protocol", ["MD5", "SHA1"], "MD5"),
    str("authentication-password", { sensitive: true, default: "" }),
    oneOf("encryption-protocol", ["AES", "DES"], "DES"),
    str("encryption-password", { sensitive: true, default: "" }),
    // stored on the built-in item only, as `yes`: its export is `set [ find default=yes ]`
    ro("default", "bool"),
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ch: "*", name: "default", group: 0, test: (i) => isTrue(i.default) },
    { ...F_DISABLED, group: 1 },
  ],
  columns: ["name", "addresses", "security", "read-access", "write-access"],
  unique: [{ props: ["name"], error: "failure: community with such name already exists" }],
  exportFindBy: "default",
  checkRemove: (i) => {
    if (isTrue(i.default)) throw fail("failure: default community can not be removed");
  },
  defaults: (st) => [{
    name: "public",
    addresses: st.v6 ? "0.0.0.0/0" : "::/0",
    security: "none",
    "read-access": "true",
    "write-access": "false",
    "authentication-protocol": "MD5",
    "authentication-password": "",
    "encryption-protocol": "DES",
    "encryption-password": "",
    default: "yes",
    disabled: "false",
  }],
};

/** The menus of this family. */
export const SNMP_MENUS: readonly MenuDef[] = [SNMP, COMMUNITY];

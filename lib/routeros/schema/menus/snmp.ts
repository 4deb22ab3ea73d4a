/**
 * Schema of the SNMP agent: its settings and its communities (RouterOS
 * facts only; tools live in lib/tools).
 *
 * Properties per release: the `add`/`set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24, the same on every tree); values:
 * the value lists of `tree-7.22.3.json`. RouterOS 6 has no tree: its
 * properties follow MikroTik's v6 manual (`engine-id` is set whole there;
 * RouterOS 7 sets only `engine-id-suffix`, and adds `src-address` and `vrf`).
 *
 * A community's name is what an SNMPv1/v2c manager presents as its
 * password. It is not masked: it is the item's name (how the tools and
 * `trap-community` refer to it) and RouterOS prints it without
 * `show-sensitive`; the tools' notes steer agents to SNMPv3 (`security`
 * with the masked authentication and encryption passwords) and to
 * `addresses`.
 *
 * @module
 */
import { bool, list, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** `/snmp`: the agent's settings. */
export const snmp = menu({
  path: "/snmp",
  kind: "singleton",
  writes: ["set"],
  fields: {
    // Turning the agent on opens every community, an admin's write community
    // (switched off this way, not removed) with them.
    enabled: bool("Run the SNMP agent (UDP 161)", {
      privilegedThrough: { path: "/snmp/community", field: "write-access", items: "any" },
    }),
    contact: text("sysContact: who to call about this router"),
    location: text("sysLocation: where the router is"),
    "engine-id": text("SNMPv3 engine id (RouterOS 6)", { releases: { until: "6.49" } }),
    "engine-id-suffix": text("Suffix of the SNMPv3 engine id (RouterOS 7)", { releases: V7 }),
    "trap-target": list('Trap receivers, e.g. ["192.0.2.10"]', { item: "address" }),
    "trap-community": ref("/snmp/community", "Community the traps are sent with, e.g. public"),
    "trap-version": oneOf(["1", "2", "3"], "SNMP version of the traps"),
    "trap-generators": list(
      'What sends traps: some of interfaces, start-trap, temp-exception, e.g. ["interfaces"]',
    ),
    "trap-interfaces": list('Interfaces whose link changes are trapped, e.g. ["ether1"] or all'),
    "src-address": text("Source address of SNMP replies and traps (:: picks one)", {
      releases: V7,
    }),
    vrf: text("VRF the agent listens in, e.g. main", { releases: V7 }),
  },
});

/** `/snmp/community`. */
export const snmpCommunities = menu({
  path: "/snmp/community",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "*": "default", "X": "disabled" },
  fields: {
    name: text("Community name (the SNMPv1/v2c password), e.g. monitoring", { required: true }),
    addresses: list('Managers allowed to use it, e.g. ["192.0.2.10/32"]', { item: "address" }),
    security: oneOf(
      ["authorized", "none", "private"],
      "SNMPv3 security: none, authorized (authentication) or private (and encryption)",
    ),
    "read-access": bool("Managers may read"),
    // An SNMP set reaches MIKROTIK-MIB's reboot OID and runs /system/script
    // entries by their run OID (MikroTik's SNMP manual, "SNMP write").
    "write-access": bool("Managers may write (set) through SNMP", {
      privileged: "SNMP write access, with which a manager can reboot the router and run its " +
        "scripts",
    }),
    "authentication-protocol": oneOf(["MD5", "SHA1"], "SNMPv3 authentication protocol"),
    "authentication-password": text("SNMPv3 authentication password (write-only: masked)", {
      secret: true,
    }),
    "encryption-protocol": oneOf(["AES", "DES"], "SNMPv3 encryption protocol"),
    "encryption-password": text("SNMPv3 encryption password (write-only: masked)", {
      secret: true,
    }),
    default: state(bool("The built-in community (it cannot be removed)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const SNMP_SCHEMAS: readonly MenuSchema[] = [snmp, snmpCommunities];

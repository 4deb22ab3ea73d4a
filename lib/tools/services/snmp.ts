/**
 * Tools of the SNMP agent and its communities: toolset, names, verbs,
 * columns, notes and examples. The RouterOS facts (and why a community's
 * name is not masked) are in lib/routeros/schema/menus/snmp.ts.
 *
 * @module
 */
import { snmp, snmpCommunities } from "../../routeros/schema/menus/snmp.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/snmp`. */
const snmpTools: MenuTools = {
  schema: snmp,
  toolset: "services",
  noun: noun("snmp_settings", "SNMP agent"),
  verbs: ["get", "update"],
  columns: ["enabled", "contact", "location", "trap-target", "trap-version"],
  notes:
    "Who may query the agent is set per community (router_list_snmp_communities). Firewall UDP 161 from outside: an enabled agent answers anyone a community's addresses allow.",
  example: { update: { contact: "noc@example.net", location: "rack 1" } },
};

/** `/snmp/community`. */
const communitiesTools: MenuTools = {
  schema: snmpCommunities,
  toolset: "services",
  noun: noun("snmp_community", "SNMP community"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "addresses", "security", "read-access", "write-access", "disabled"],
  notes:
    "For SNMPv1/v2c the name is the password, sent in clear and shown here: limit addresses to the managers and keep write_access off. Prefer SNMPv3: security authorized (authentication) or private (and encryption), with the passwords (masked here). The built-in public community cannot be removed: restrict or disable it.",
  example: {
    add: {
      name: "example-v3",
      addresses: ["192.0.2.10/32"],
      security: "private",
      authentication_protocol: "SHA1",
      authentication_password: "Example-Auth-42",
      encryption_protocol: "AES",
      encryption_password: "Example-Enc-42",
      comment: "example",
    },
    update: { addresses: ["192.0.2.0/24"] },
  },
};

/** The menus of this family, in catalogue order. */
export const SNMP_MENU_TOOLS: readonly MenuTools[] = [snmpTools, communitiesTools];

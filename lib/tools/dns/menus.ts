/**
 * Tools of the dns menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/dns.ts.
 *
 * @module
 */
import { dnsCache, dnsSettings, dnsStatic } from "../../routeros/schema/menus/dns.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/ip/dns`. */
const dnsSettingsTools: MenuTools = {
  schema: dnsSettings,
  toolset: "dns",
  noun: noun("dns_settings", "DNS resolver"),
  verbs: ["get", "update"],
  columns: ["servers", "dynamic-servers", "allow-remote-requests", "cache-size", "cache-used"],
  notes:
    "allow_remote_requests=true makes the router a DNS server for its clients: block port 53 from the internet in the firewall before turning it on.",
  example: { "update": { "servers": ["9.9.9.9", "1.1.1.1"], "cache_max_ttl": "1d" } },
};

/** `/ip/dns/static`. */
const dnsStaticTools: MenuTools = {
  schema: dnsStatic,
  toolset: "dns",
  noun: noun("dns_static_entry", "static DNS entry"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "regexp", "type", "address", "ttl", "disabled", "comment"],
  notes:
    "Answered by the router's resolver (clients must use the router as DNS server). Give name or regexp, and the data field for the type: address (A/AAAA), cname, forward_to (FWD), text (TXT), mx_exchange, ns. ttl is a RouterOS time such as 1d.",
  example: {
    "add": { "name": "example.lan", "address": "10.99.3.1", "ttl": "1h", "comment": "example" },
    "update": { "address": "10.99.3.2" },
  },
};

/** `/ip/dns/cache`. */
const dnsCacheTools: MenuTools = {
  schema: dnsCache,
  toolset: "dns",
  noun: noun("dns_cache_entry", "DNS cache entry"),
  verbs: ["list"],
  columns: ["name", "type", "data", "ttl"],
  notes: "Read-only. Filter by name to see how the router resolves a host.",
};

/** The menus of this family, in catalogue order. */
export const DNS_MENU_TOOLS: readonly MenuTools[] = [
  dnsSettingsTools,
  dnsStaticTools,
  dnsCacheTools,
];

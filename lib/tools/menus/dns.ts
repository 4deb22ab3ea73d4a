/**
 * DNS menus: resolver settings, static entries and the cache.
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_XD } from "./common.ts";

/** `/ip/dns`: the resolver settings (one set per router). */
export const dnsSettings: Menu = {
  path: "/ip/dns",
  toolset: "dns",
  singular: "dns_settings",
  plural: "dns_settings",
  noun: "DNS resolver settings",
  notes: "allow_remote_requests=true makes the router a DNS server for its clients: block " +
    "port 53 from the internet in the firewall before turning it on.",
  singleton: true,
  fields: {
    servers: list('Upstream DNS servers, e.g. ["9.9.9.9", "1.1.1.1"]'),
    "dynamic-servers": state(list("Servers learned from DHCP or PPP")),
    "allow-remote-requests": flag("Answer DNS queries from other hosts"),
    "max-udp-packet-size": num("Largest DNS UDP packet in bytes"),
    "query-server-timeout": text("How long to wait for one server, e.g. 2s"),
    "query-total-timeout": text("How long to wait for an answer in all, e.g. 10s"),
    "max-concurrent-queries": num("Most queries handled at once"),
    "max-concurrent-tcp-sessions": num("Most TCP sessions at once"),
    "cache-size": text("Cache size in KiB (RouterOS may print it as 2048KiB)"),
    "cache-max-ttl": text("Longest time an answer is cached, e.g. 1w"),
    "cache-used": state(text("Cache in use (KiB)")),
    "use-doh-server": text("DNS-over-HTTPS server URL, e.g. https://cloudflare-dns.com/dns-query"),
    "verify-doh-cert": flag("Verify the DoH server's certificate (needs a trusted CA)"),
  },
  verbs: ["get", "update"],
  columns: ["servers", "dynamic-servers", "allow-remote-requests", "cache-size", "cache-used"],
  example: { update: { servers: ["9.9.9.9", "1.1.1.1"], cache_max_ttl: "1d" } },
};

/** `/ip/dns/static`: local DNS records. */
export const dnsStatic: Menu = {
  path: "/ip/dns/static",
  toolset: "dns",
  singular: "dns_static_entry",
  plural: "dns_static_entries",
  noun: "static DNS entries",
  notes: "Answered by the router's resolver (clients must use the router as DNS server). " +
    "Give name or regexp, and the data field for the type: address (A/AAAA), cname, " +
    "forward_to (FWD), text (TXT), mx_exchange, ns. ttl is a RouterOS time such as 1d.",
  fields: {
    name: text("Host name, e.g. nas.lan"),
    regexp: text("Regular expression matching names (instead of name)"),
    type: oneOf(
      ["A", "AAAA", "CNAME", "FWD", "MX", "NS", "NXDOMAIN", "SRV", "TXT"],
      "Record type (default A, or AAAA for an IPv6 address)",
    ),
    address: text("IPv4 or IPv6 address (A, AAAA)"),
    cname: text("Canonical name (CNAME)"),
    "forward-to": text("Server to forward matching queries to (FWD)"),
    "mx-exchange": text("Mail exchanger host (MX)"),
    "mx-preference": num("Mail exchanger preference (MX)"),
    ns: text("Name server (NS)"),
    text: text("Text data (TXT)"),
    ttl: text("Time to live, e.g. 1d"),
    "match-subdomain": flag("Also answer for every subdomain of name", {
      versions: { min: "7.0" },
    }),
    "address-list": text("Firewall address list resolved addresses are added to", {
      versions: { min: "7.0" },
    }),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "regexp", "type", "address", "ttl", "disabled", "comment"],
  flags: FLAGS_XD,
  example: {
    add: { name: "example.lan", address: "10.99.3.1", ttl: "1h", comment: "example" },
    update: { address: "10.99.3.2" },
  },
};

/** `/ip/dns/cache`: what the resolver has cached. */
export const dnsCache: Menu = {
  path: "/ip/dns/cache",
  toolset: "dns",
  singular: "dns_cache_entry",
  plural: "dns_cache_entries",
  noun: "DNS cache entries",
  notes: "Read-only. Filter by name to see how the router resolves a host.",
  fields: {
    name: state(text("Queried name")),
    type: state(text("Record type, e.g. A")),
    data: state(text("Answer data, e.g. an address")),
    ttl: state(text("Time left in the cache")),
    static: state(flag("Whether the answer comes from a static entry")),
  },
  verbs: ["list"],
  columns: ["name", "type", "data", "ttl"],
  flags: { S: "static" },
};

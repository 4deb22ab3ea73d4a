/**
 * Schema of the dns menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, duration, int, list, oneOf, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/ip/dns`. */
export const dnsSettings = menu({
  path: "/ip/dns",
  kind: "singleton",
  writes: ["set"],
  fields: {
    servers: list('Upstream DNS servers, e.g. ["9.9.9.9", "1.1.1.1"]', { item: "address" }),
    "dynamic-servers": state(list("Servers learned from DHCP or PPP")),
    "allow-remote-requests": bool("Answer DNS queries from other hosts"),
    "max-udp-packet-size": int("Largest DNS UDP packet in bytes"),
    "query-server-timeout": duration("How long to wait for one server, e.g. 2s"),
    "query-total-timeout": duration("How long to wait for an answer in all, e.g. 10s"),
    "max-concurrent-queries": int("Most queries handled at once"),
    "max-concurrent-tcp-sessions": int("Most TCP sessions at once"),
    "cache-size": text("Cache size in KiB (RouterOS may print it as 2048KiB)"),
    "cache-max-ttl": duration("Longest time an answer is cached, e.g. 1w"),
    "cache-used": state(text("Cache in use (KiB)")),
    "use-doh-server": text("DNS-over-HTTPS server URL, e.g. https://cloudflare-dns.com/dns-query"),
    "verify-doh-cert": bool("Verify the DoH server's certificate (needs a trusted CA)"),
  },
});

/** `/ip/dns/static`. */
export const dnsStatic = menu({
  path: "/ip/dns/static",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "D": "dynamic" },
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
    "mx-preference": int("Mail exchanger preference (MX)"),
    ns: text("Name server (NS)"),
    text: text("Text data (TXT)"),
    ttl: duration("Time to live, e.g. 1d"),
    "match-subdomain": bool("Also answer for every subdomain of name", {
      releases: { from: "7.0" },
    }),
    "address-list": text("Firewall address list resolved addresses are added to", {
      releases: { from: "7.0" },
    }),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/ip/dns/cache`. */
export const dnsCache = menu({
  path: "/ip/dns/cache",
  kind: "list",
  exports: false,
  flags: { "S": "static" },
  fields: {
    name: state(text("Queried name")),
    type: state(text("Record type, e.g. A")),
    data: state(text("Answer data, e.g. an address")),
    ttl: state(duration("Time left in the cache")),
    static: state(bool("Whether the answer comes from a static entry")),
  },
});

/** The menus of this family. */
export const DNS_SCHEMAS: readonly MenuSchema[] = [
  dnsSettings,
  dnsStatic,
  dnsCache,
];

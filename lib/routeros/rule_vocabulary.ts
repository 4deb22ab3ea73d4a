/**
 * The vocabulary of firewall rules that the rule matcher (`rule_match.ts`)
 * reads: which properties of a rule are no matchers (they say what the rule
 * does), which matchers no description of a packet can decide and why, and
 * the IP protocol numbers behind RouterOS's protocol names.
 *
 * @module
 */

/** Properties of a rule that say what it does, not which packets it takes. */
export const NOT_MATCHERS = new Set([
  ".id",
  ".nextid",
  ".about",
  "about",
  "chain",
  "action",
  "comment",
  "disabled",
  "dynamic",
  "invalid",
  "builtin",
  "default",
  "bytes",
  "packets",
  "log",
  "log-prefix",
  "jump-target",
  "reject-with",
  "address-list",
  "address-list-timeout",
  "to-addresses",
  "to-address",
  "to-ports",
  "passthrough",
  "new-connection-mark",
  "new-packet-mark",
  "new-routing-mark",
  "new-mss",
  "new-dscp",
  "new-ttl",
  "new-priority",
  "new-hop-limit",
  "route-dst",
  "sniff-id",
  "sniff-target",
  "sniff-target-port",
  "randomise-ports",
  "same-not-by-dst",
  "socks5-port",
  "socks5-server",
  "socksify-service",
  "hw-offload",
  "copy-from",
  "place-before",
  // the prefixes of IPv6 mangle's snpt and dnpt actions
  "src-prefix",
  "dst-prefix",
]);

/**
 * Matchers that depend on what no packet description holds, each with the
 * reason it is left `unknown`.
 */
export const UNDECIDABLE: Readonly<Record<string, string>> = {
  "layer7-protocol": "it inspects the payload",
  content: "it inspects the payload",
  "tls-host": "it inspects the TLS handshake",
  p2p: "it inspects the payload",
  time: "it depends on the time of day",
  limit: "it depends on the packet rate",
  "dst-limit": "it depends on the packet rate",
  "connection-limit": "it depends on how many connections exist",
  "connection-rate": "it depends on the connection's rate",
  "connection-bytes": "it depends on the connection's byte count",
  nth: "it takes every nth packet",
  random: "it takes packets at random",
  psd: "it depends on port-scan history",
  "per-connection-classifier": "it hashes the connection",
  "in-bridge-port": "the bridge port is not known",
  "in-bridge-port-list": "the bridge port is not known",
  "out-bridge-port": "the bridge port is not known",
  "out-bridge-port-list": "the bridge port is not known",
  dscp: "the packet's DSCP is not known",
  tos: "the packet's TOS is not known",
  ttl: "the packet's TTL is not known",
  "hop-limit": "the packet's hop limit is not known",
  "tcp-mss": "the packet's MSS is not known",
  "packet-size": "packet sizes vary",
  priority: "the packet's priority is not known",
  "ingress-priority": "the packet's priority is not known",
  fragment: "fragmentation is not known",
  "ipv4-options": "the packet's IP options are not known",
  headers: "the packet's extension headers are not known",
  hotspot: "hotspot state is not known",
  realm: "the route realm is not known",
};

/** IP protocol numbers by RouterOS name (the `protocol` values of the 7.22 tree, and 6.x's ip-encap). */
const PROTOCOLS: Readonly<Record<string, number>> = {
  icmp: 1,
  igmp: 2,
  ggp: 3,
  ipencap: 4,
  "ip-encap": 4,
  st: 5,
  tcp: 6,
  egp: 8,
  pup: 12,
  udp: 17,
  hmp: 20,
  "xns-idp": 22,
  rdp: 27,
  "iso-tp4": 29,
  dccp: 33,
  xtp: 36,
  ddp: 37,
  "idpr-cmtp": 38,
  "ipv6-encap": 41,
  "ipv6-route": 43,
  "ipv6-frag": 44,
  rsvp: 46,
  gre: 47,
  "ipsec-esp": 50,
  "ipsec-ah": 51,
  icmpv6: 58,
  "ipv6-nonxt": 59,
  "ipv6-opts": 60,
  rspf: 73,
  vmtp: 81,
  ospf: 89,
  ipip: 94,
  etherip: 97,
  encap: 98,
  pim: 103,
  vrrp: 112,
  l2tp: 115,
  sctp: 132,
  "udp-lite": 136,
};

/** The number of a protocol name or number text; undefined for an unknown name. */
export function protocolNumber(text: string): number | undefined {
  if (/^\d{1,3}$/.test(text)) return Number(text);
  return PROTOCOLS[text.toLowerCase()];
}

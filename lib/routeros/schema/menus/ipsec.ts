/**
 * Schema of the IPsec menus: profiles (phase 1), peers, identities
 * (authentication), proposals (phase 2), policies, mode configs and
 * active peers.
 * RouterOS facts only; tools live in lib/tools.
 *
 * @module
 */
import { address, bool, duration, int, list, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };
const BUILTIN = () => state(bool("Built-in item (the default one)", { releases: V7 }));

/** `/ip/ipsec/profile`. */
export const ipsecProfiles = menu({
  path: "/ip/ipsec/profile",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  fields: {
    name: text("Profile name", { required: true }),
    "hash-algorithm": oneOf(
      ["md5", "sha1", "sha256", "sha384", "sha512"],
      "Phase 1 hash algorithm",
    ),
    "enc-algorithm": list('Phase 1 ciphers, e.g. ["aes-256", "aes-128"]'),
    "dh-group": list('Diffie-Hellman groups, e.g. ["modp2048", "ecp256"]'),
    lifetime: duration("Phase 1 lifetime, e.g. 1d"),
    "nat-traversal": bool("Use NAT traversal (UDP 4500) when a NAT is in the way"),
    "dpd-interval": duration("Dead peer detection interval, e.g. 2m (disable-dpd: off)", {
      words: ["disable-dpd"],
    }),
    "dpd-maximum-failures": int("Failed detections before the peer is dropped", { min: 1 }),
    "proposal-check": oneOf(["claim", "exact", "obey", "strict"], "How lifetimes are agreed"),
    default: BUILTIN(),
  },
});

/** `/ip/ipsec/peer`. */
export const ipsecPeers = menu({
  path: "/ip/ipsec/peer",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic", "R": "responder" },
  fields: {
    name: text("Peer name (identities and policies name it)"),
    address: address("Remote address or prefix (0.0.0.0/0: any, for road warriors)"),
    "local-address": address("Local address to use"),
    port: int("Remote UDP port (default 500)", { min: 1, max: 65535 }),
    profile: ref("/ip/ipsec/profile", "Phase 1 profile (default: default)"),
    "exchange-mode": oneOf(
      ["aggressive", "base", "ike2", "main", ["main-l2tp", { until: "6.99" }]],
      "IKE exchange: ike2 (IKEv2), main or aggressive (IKEv1)",
    ),
    passive: bool("Only answer, never initiate (servers)"),
    "send-initial-contact": bool("Send the initial-contact notification"),
    responder: state(bool("Whether the peer only responds", { releases: V7 })),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/ipsec/identity`. */
export const ipsecIdentities = menu({
  path: "/ip/ipsec/identity",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    peer: ref("/ip/ipsec/peer", "Peer this identity authenticates", { required: true }),
    "auth-method": oneOf(
      [
        "digital-signature",
        "eap",
        "eap-radius",
        "pre-shared-key",
        "pre-shared-key-xauth",
        "rsa-key",
        "rsa-signature-hybrid",
      ],
      "How the peers authenticate: pre-shared-key, digital-signature (certificates), eap...",
    ),
    secret: text("Pre-shared key (write-only: masked in all output)", { secret: true }),
    certificate: text("Own certificate name (digital-signature)"),
    "remote-certificate": text("Certificate expected from the peer (none: any trusted)"),
    "my-id": text("Own id sent, e.g. auto, address:192.0.2.1, fqdn:vpn.example.com"),
    "remote-id": text("Id expected from the peer, e.g. auto, fqdn:branch.example.com"),
    username: text("XAuth/EAP user name"),
    password: text("XAuth/EAP password (write-only: masked in all output)", { secret: true }),
    "generate-policy": oneOf(
      ["no", "port-override", "port-strict"],
      "Make policies from the peer's request (road warriors)",
    ),
    "mode-config": text("Mode config to use (request-only: act as a client)"),
    "policy-template-group": text("Policy template group for generated policies"),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/ipsec/proposal`. */
export const ipsecProposals = menu({
  path: "/ip/ipsec/proposal",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "*": "default" },
  fields: {
    name: text("Proposal name", { required: true }),
    "auth-algorithms": list('Phase 2 integrity algorithms, e.g. ["sha256"]'),
    "enc-algorithms": list('Phase 2 ciphers, e.g. ["aes-256-cbc", "aes-256-gcm"]'),
    lifetime: duration("Phase 2 (SA) lifetime, e.g. 30m"),
    "pfs-group": oneOf(
      [
        "ecp256",
        "ecp384",
        "ecp521",
        "modp1024",
        "modp1536",
        "modp2048",
        "modp3072",
        "modp4096",
        "modp6144",
        "modp768",
        "modp8192",
        "none",
      ],
      "Perfect forward secrecy group (none: off)",
    ),
    default: BUILTIN(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/ipsec/policy`. */
export const ipsecPolicies = menu({
  path: "/ip/ipsec/policy",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: {
    "T": "template",
    "B": "backup",
    "X": "disabled",
    "D": "dynamic",
    "I": "invalid",
    "A": "active",
    "*": "default",
  },
  fields: {
    peer: ref("/ip/ipsec/peer", "Peer whose SAs protect the traffic"),
    tunnel: bool("Tunnel mode (whole packets between sa addresses) instead of transport"),
    "src-address": address("Source prefix of the traffic to protect, e.g. 10.1.0.0/24"),
    "dst-address": address("Destination prefix of the traffic to protect, e.g. 10.2.0.0/24"),
    protocol: text("IP protocol to match (all, tcp, udp, gre...)"),
    action: oneOf(["discard", "encrypt", "none"], "encrypt, discard, or none (let it pass)"),
    level: oneOf(["require", "unique", "use"], "What to do without an SA: require or use"),
    "ipsec-protocols": oneOf(["ah", "esp"], "esp (encrypt) or ah (authenticate only)"),
    proposal: ref("/ip/ipsec/proposal", "Phase 2 proposal (default: default)"),
    template: bool("A template for generated policies (road warriors)"),
    group: text("Template group (templates only)"),
    "sa-src-address": address("Tunnel source address (tunnel mode)"),
    "sa-dst-address": address("Tunnel destination address (tunnel mode)"),
    active: state(bool("Whether the policy is in use")),
    "ph2-state": state(text("Phase 2 state, e.g. established, no-phase2")),
    default: BUILTIN(),
    dynamic: dynamic(),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/**
 * `/ip/ipsec/mode-config`. The real trees list enable and disable here, but
 * no `disabled` property (items cannot be disabled: no tool offers them).
 */
export const ipsecModeConfigs = menu({
  path: "/ip/ipsec/mode-config",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "*": "default" },
  fields: {
    name: text("Mode config name (identities name it)", { required: true }),
    responder: bool("Hand out the settings (a server); no: ask for them (a client)"),
    "address-pool": ref("/ip/pool", "Pool that clients' addresses come from (none: use address)"),
    address: address("One fixed address for the client (instead of a pool)"),
    "address-prefix-length": int("Prefix length given with the address", { min: 1, max: 32 }),
    "split-include": list('Prefixes the client sends through the tunnel, e.g. ["10.0.0.0/8"]'),
    "split-dns": list("Domains the client resolves through the tunnel (IKEv2)", {
      releases: V7,
    }),
    "static-dns": list("DNS servers handed out instead of the router's own"),
    "system-dns": bool("Hand out the router's own DNS servers"),
    "use-responder-dns": oneOf(
      ["exclusively", "no", "yes"],
      "Client: use the DNS servers the responder hands out",
      { releases: V7 },
    ),
    "src-address-list": text("Client: address list that gets the given address's traffic"),
    "connection-mark": text("Client: connection mark of the traffic to send (no-mark: none)"),
    default: BUILTIN(),
  },
});

/** `/ip/ipsec/active-peers`. */
export const ipsecActivePeers = menu({
  path: "/ip/ipsec/active-peers",
  kind: "list",
  writes: ["add", "set", "remove"],
  exports: false,
  flags: { "R": "responder", "N": "natt-peer" },
  fields: {
    "remote-address": state(text("Address of the remote peer")),
    "local-address": state(text("Local address")),
    state: state(text("Phase 1 state, e.g. established")),
    side: state(text("initiator or responder", { releases: V7 })),
    uptime: state(text("How long phase 1 has been established")),
    "ph2-total": state(int("Phase 2 SAs with this peer")),
    "natt-peer": state(bool("Whether NAT traversal is in use")),
    "rx-bytes": state(int("Bytes received", { releases: V7 })),
    "tx-bytes": state(int("Bytes sent", { releases: V7 })),
    "dynamic-address": state(text("Address given by mode config")),
    comment: comment(),
  },
});

/** `/ip/ipsec/installed-sa`. */
export const ipsecInstalledSas = menu({
  path: "/ip/ipsec/installed-sa",
  kind: "list",
  exports: false,
  flags: {},
  fields: {
    spi: state(text("Security parameter index")),
    "src-address": state(text("Source address")),
    "dst-address": state(text("Destination address")),
    state: state(text("SA state, e.g. mature, dying")),
    "auth-algorithm": state(text("Integrity algorithm")),
    "enc-algorithm": state(text("Cipher")),
    "current-bytes": state(int("Bytes through the SA")),
    "expires-in": state(text("Time until the SA expires")),
  },
});

/** The menus of this family. */
export const IPSEC_SCHEMAS: readonly MenuSchema[] = [
  ipsecProfiles,
  ipsecPeers,
  ipsecIdentities,
  ipsecProposals,
  ipsecPolicies,
  ipsecModeConfigs,
  ipsecActivePeers,
  ipsecInstalledSas,
];

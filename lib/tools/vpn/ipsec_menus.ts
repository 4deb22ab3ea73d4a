/**
 * Tools of the IPsec menus: toolset, names, verbs, columns, notes and
 * examples. The RouterOS facts are in lib/routeros/schema/menus/ipsec.ts.
 *
 * @module
 */
import {
  ipsecActivePeers,
  ipsecIdentities,
  ipsecInstalledSas,
  ipsecModeConfigs,
  ipsecPeers,
  ipsecPolicies,
  ipsecProfiles,
  ipsecProposals,
} from "../../routeros/schema/menus/ipsec.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { ipsecPolicyLockout } from "../guard/lockout_ipsec.ts";

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;

/** `/ip/ipsec/profile`. */
const ipsecProfilesTools: MenuTools = {
  schema: ipsecProfiles,
  toolset: "vpn",
  noun: noun("ipsec_profile", "IPsec profile (phase 1)", { many: "IPsec profiles (phase 1)" }),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "hash-algorithm", "enc-algorithm", "dh-group", "lifetime", "nat-traversal"],
  notes:
    "Phase 1 (IKE) algorithms a peer uses; both ends must agree. The profile named default is built in.",
  example: {
    "add": {
      "name": "ike-example",
      "hash_algorithm": "sha256",
      "enc_algorithm": ["aes-256"],
      "dh_group": ["modp2048"],
    },
    "update": { "lifetime": "8h" },
  },
};

/** `/ip/ipsec/peer`. */
const ipsecPeersTools: MenuTools = {
  schema: ipsecPeers,
  toolset: "vpn",
  noun: noun("ipsec_peer", "IPsec peer"),
  verbs: VERBS,
  columns: ["name", "address", "exchange-mode", "profile", "passive", "disabled", "comment"],
  notes:
    "The remote end of an IPsec connection. A peer needs an identity (how it authenticates) and policies (what traffic goes through it); see router_list_ipsec_active_peers for its state.",
  example: {
    "requires": ["/ip/ipsec/profile"],
    "add": {
      "name": "peer-example",
      "address": "192.0.2.30/32",
      "profile": "ike-example",
      "exchange_mode": "ike2",
      "comment": "example",
    },
    "update": { "passive": true },
  },
};

/** `/ip/ipsec/identity`. */
const ipsecIdentitiesTools: MenuTools = {
  schema: ipsecIdentities,
  toolset: "vpn",
  noun: noun("ipsec_identity", "IPsec identity"),
  verbs: VERBS,
  columns: ["peer", "auth-method", "my-id", "remote-id", "generate-policy", "disabled", "comment"],
  notes:
    "How a peer authenticates: a pre-shared key (secret) or certificates. secret and password are write-only: masked in all output.",
  example: {
    "requires": ["/ip/ipsec/profile", "/ip/ipsec/peer"],
    "add": {
      "peer": "peer-example",
      "auth_method": "pre-shared-key",
      "secret": "Example-Psk-123",
      "comment": "example",
    },
    "update": { "generate_policy": "port-strict" },
  },
};

/** `/ip/ipsec/proposal`. */
const ipsecProposalsTools: MenuTools = {
  schema: ipsecProposals,
  toolset: "vpn",
  noun: noun("ipsec_proposal", "IPsec proposal (phase 2)", { many: "IPsec proposals (phase 2)" }),
  verbs: VERBS,
  columns: ["name", "auth-algorithms", "enc-algorithms", "pfs-group", "lifetime", "disabled"],
  notes: "Phase 2 (SA) algorithms a policy offers; both ends must agree.",
  example: {
    "add": {
      "name": "proposal-example",
      "auth_algorithms": ["sha256"],
      "enc_algorithms": ["aes-256-cbc"],
      "pfs_group": "modp2048",
    },
    "update": { "lifetime": "1h" },
  },
};

/** `/ip/ipsec/policy`. */
const ipsecPoliciesTools: MenuTools = {
  schema: ipsecPolicies,
  toolset: "vpn",
  noun: noun("ipsec_policy", "IPsec policy"),
  verbs: [...VERBS, "move"],
  columns: ["peer", "src-address", "dst-address", "tunnel", "action", "active", "ph2-state"],
  notes:
    "Which traffic is encrypted to which peer: src_address to dst_address, tunnel=true for site-to-site. Checked in order; one that discards or encrypts this server's own SSH session needs confirm. Traffic it covers must not be NATed (add a NAT accept rule above masquerade).",
  example: {
    "requires": ["/ip/ipsec/profile", "/ip/ipsec/peer", "/ip/ipsec/proposal"],
    "add": {
      "peer": "peer-example",
      "src_address": "10.99.9.0/24",
      "dst_address": "10.99.10.0/24",
      "tunnel": true,
      "proposal": "proposal-example",
      "comment": "example",
    },
    "update": { "level": "unique" },
  },
  lockout: ipsecPolicyLockout(ipsecPolicies),
};

/** `/ip/ipsec/mode-config`. */
const ipsecModeConfigsTools: MenuTools = {
  schema: ipsecModeConfigs,
  toolset: "vpn",
  noun: noun("ipsec_mode_config", "IPsec mode config"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "responder", "address-pool", "split-include", "system-dns", "default"],
  notes:
    "Settings a road-warrior server hands to clients (responder=true: an address from address_pool, routes in split_include, DNS), or that a client asks for. An identity uses it through mode_config; request-only is the built-in client config.",
  example: {
    "requires": ["/ip/pool"],
    "add": {
      "name": "modecfg-example",
      "responder": true,
      "address_pool": "pool-example",
      "split_include": ["10.99.0.0/16"],
    },
    "update": { "system_dns": false },
  },
};

/** `/ip/ipsec/active-peers`. */
const ipsecActivePeersTools: MenuTools = {
  schema: ipsecActivePeers,
  toolset: "vpn",
  noun: noun("ipsec_active_peer", "active IPsec peer"),
  verbs: ["list"],
  columns: ["remote-address", "local-address", "state", "uptime", "ph2-total"],
  notes: "Read-only: IPsec peers with phase 1 up now (state established), and their SAs.",
};

/** `/ip/ipsec/installed-sa`. */
const ipsecInstalledSasTools: MenuTools = {
  schema: ipsecInstalledSas,
  toolset: "vpn",
  noun: noun("ipsec_installed_sa", "installed IPsec SA"),
  verbs: ["list"],
  columns: ["spi", "src-address", "dst-address", "state", "current-bytes"],
  notes: "Read-only: phase 2 SAs in use now, one per direction; keys are never read.",
};

/** The IPsec menus, in catalogue order (the vpn family lists them among its own). */
export const IPSEC_MENU_TOOLS: readonly MenuTools[] = [
  ipsecProfilesTools,
  ipsecPeersTools,
  ipsecIdentitiesTools,
  ipsecProposalsTools,
  ipsecPoliciesTools,
  ipsecModeConfigsTools,
  ipsecActivePeersTools,
  ipsecInstalledSasTools,
];

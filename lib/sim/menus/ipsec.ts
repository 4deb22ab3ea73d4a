/**
 * `/ip/ipsec`: profile, peer, identity, proposal, policy, mode-config, active-peers.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_INVALID,
  int,
  INVALID,
  oneOf,
  ro,
  statusTable,
  str,
} from "./common.ts";

const DH = [
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
];
const isDefault = (i: Record<string, string>) => i.default === "true";
const F_DEFAULT = { ch: "*", name: "default", group: 2, test: isDefault };
const DEFAULT = ro("default", "bool", { releases: V7, default: "false" });
const uniqueName = (what: string) => ({
  props: ["name"],
  error: `failure: ${what} with the same name already exists`,
});

/** `/ip/ipsec/profile`. */
const PROFILE: MenuDef = {
  path: "/ip/ipsec/profile",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf("hash-algorithm", ["md5", "sha1", "sha256", "sha384", "sha512"], "sha1"),
    {
      name: "enc-algorithm",
      type: "list",
      values: ["3des", "aes-128", "aes-192", "aes-256", "des"],
      default: "aes-128,3des",
    },
    { name: "dh-group", type: "list", values: [...DH, "x25519"], default: "modp2048,modp1024" },
    { name: "lifetime", type: "time", default: "1d" },
    bool("nat-traversal", true),
    { name: "dpd-interval", type: "time", values: ["disable-dpd"], default: "2m" },
    int("dpd-maximum-failures", 5, { min: 1, max: 100 }),
    oneOf("proposal-check", ["claim", "exact", "obey", "strict"], "obey"),
    DEFAULT,
  ],
  flags: [F_DEFAULT],
  columns: ["name", "hash-algorithm", "enc-algorithm", "dh-group"],
  unique: [uniqueName("profile")],
  exportSkip: isDefault,
  defaults: () => [{
    name: "default",
    "hash-algorithm": "sha1",
    "enc-algorithm": "aes-128,3des",
    "dh-group": "modp2048,modp1024",
    lifetime: "1d",
    "nat-traversal": "true",
    "dpd-interval": "2m",
    "dpd-maximum-failures": "5",
    "proposal-check": "obey",
    default: "true",
  }],
};

/** `/ip/ipsec/peer`. */
const PEER: MenuDef = {
  path: "/ip/ipsec/peer",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `peer${st.stored(PEER).length + 1}` }),
    { name: "address", type: "ipOrPrefix", default: "0.0.0.0/0" },
    str("local-address"),
    int("port", undefined, { min: 1, max: 65535 }),
    { name: "profile", type: "ref", ref: "/ip/ipsec/profile", default: "default" },
    oneOf("exchange-mode", ["aggressive", "base", "ike2", "main"], "main"),
    bool("passive", false),
    bool("send-initial-contact", true),
    ro("responder", "bool", { releases: V7, compute: (i) => String(isTrue(i.passive)) }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["name", "address", "profile", "exchange-mode"],
  unique: [uniqueName("peer")],
};

/** `/ip/ipsec/identity`. */
const IDENTITY: MenuDef = {
  path: "/ip/ipsec/identity",
  kind: "list",
  props: [
    { name: "peer", type: "ref", ref: "/ip/ipsec/peer", required: true },
    oneOf("auth-method", [
      "digital-signature",
      "eap",
      "eap-radius",
      "pre-shared-key",
      "pre-shared-key-xauth",
      "rsa-key",
      "rsa-signature-hybrid",
    ], "pre-shared-key"),
    str("secret", { sensitive: true, default: "" }),
    str("certificate", { default: "" }),
    str("remote-certificate"),
    str("my-id", { default: "auto" }),
    str("remote-id", { default: "auto" }),
    str("username"),
    str("password", { sensitive: true }),
    oneOf("generate-policy", ["no", "port-override", "port-strict"], "no"),
    str("mode-config"),
    str("policy-template-group", { default: "default" }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["peer", "auth-method", "my-id", "remote-id"],
};

/** `/ip/ipsec/proposal`. */
const PROPOSAL: MenuDef = {
  path: "/ip/ipsec/proposal",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    {
      name: "auth-algorithms",
      type: "list",
      values: ["md5", "null", "sha1", "sha256", "sha512"],
      default: "sha1",
    },
    {
      name: "enc-algorithms",
      type: "list",
      values: [
        "3des",
        "aes-128-cbc",
        "aes-128-ctr",
        "aes-128-gcm",
        "aes-192-cbc",
        "aes-192-ctr",
        "aes-192-gcm",
        "aes-256-cbc",
        "aes-256-ctr",
        "aes-256-gcm",
        "blowfish",
        "camellia-128",
        "camellia-192",
        "camellia-256",
        "chacha20poly1305",
        "des",
        "null",
        "twofish",
      ],
      default: "aes-256-cbc,aes-192-cbc,aes-128-cbc",
    },
    { name: "lifetime", type: "time", default: "30m" },
    oneOf("pfs-group", [...DH, "none"], "modp1024"),
    DEFAULT,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DEFAULT],
  columns: ["name", "auth-algorithms", "enc-algorithms", "pfs-group"],
  unique: [uniqueName("proposal")],
  exportSkip: isDefault,
  defaults: () => [{
    name: "default",
    "auth-algorithms": "sha1",
    "enc-algorithms": "aes-256-cbc,aes-192-cbc,aes-128-cbc",
    lifetime: "30m",
    "pfs-group": "modp1024",
    default: "true",
    disabled: "false",
  }],
};

/** `/ip/ipsec/policy`. */
const POLICY: MenuDef = {
  path: "/ip/ipsec/policy",
  kind: "list",
  ordered: true,
  props: [
    { name: "peer", type: "ref", ref: "/ip/ipsec/peer" },
    bool("tunnel", false),
    str("src-address", { default: "0.0.0.0/0" }),
    str("dst-address", { default: "0.0.0.0/0" }),
    str("protocol", { default: "all" }),
    oneOf("action", ["discard", "encrypt", "none"], "encrypt"),
    oneOf("level", ["require", "unique", "use"], "require"),
    oneOf("ipsec-protocols", ["ah", "esp"], "esp"),
    { name: "proposal", type: "ref", ref: "/ip/ipsec/proposal", default: "default" },
    bool("template", false),
    str("group", { default: "default" }),
    str("sa-src-address"),
    str("sa-dst-address"),
    ro("active", "bool", { default: "false" }),
    ro("ph2-state", "str", {
      compute: (i) => (isTrue(i.template) ? undefined : "no-phase2"),
    }),
    DEFAULT,
    DYNAMIC,
    INVALID,
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ch: "T", name: "template", group: 0, test: (i) => isTrue(i.template) },
    { ch: "B", name: "backup", group: 0, test: () => false },
    F_DISABLED,
    F_DYNAMIC,
    F_INVALID,
    { ch: "A", name: "active", group: 1, test: (i) => isTrue(i.active) },
    F_DEFAULT,
  ],
  columns: ["peer", "tunnel", "src-address", "dst-address", "protocol", "action", "level"],
  exportSkip: isDefault,
  defaults: () => [{
    group: "default",
    "src-address": "::/0",
    "dst-address": "::/0",
    protocol: "all",
    proposal: "default",
    template: "true",
    tunnel: "false",
    action: "encrypt",
    level: "require",
    "ipsec-protocols": "esp",
    active: "false",
    default: "true",
    dynamic: "false",
    invalid: "false",
    disabled: "false",
  }],
};

/** `/ip/ipsec/mode-config`, with the built-in client config `request-only`. */
const MODE_CONFIG: MenuDef = {
  path: "/ip/ipsec/mode-config",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    bool("responder", false),
    { name: "address-pool", type: "ref", ref: "/ip/pool", refAllow: ["none"] },
    { name: "address", type: "ip" },
    int("address-prefix-length", undefined, { min: 1, max: 32 }),
    { name: "split-include", type: "list" },
    { name: "split-dns", type: "list", releases: V7 },
    { name: "static-dns", type: "list" },
    bool("system-dns", true),
    oneOf("use-responder-dns", ["exclusively", "no", "yes"], "exclusively", { releases: V7 }),
    str("src-address-list"),
    str("connection-mark"),
    DEFAULT,
  ],
  flags: [F_DEFAULT],
  columns: ["name", "responder", "address-pool", "split-include"],
  unique: [uniqueName("mode config")],
  exportSkip: isDefault,
  checkRemove: (i) => {
    if (isDefault(i)) throw fail("failure: can not remove default mode config");
  },
  defaults: (st) => [{
    name: "request-only",
    responder: "false",
    ...(st.v6 ? {} : { "use-responder-dns": "exclusively" }),
    default: "true",
  }],
};

/** `/ip/ipsec/active-peers` (none on a fresh router). */
const ACTIVE_PEERS = statusTable({
  path: "/ip/ipsec/active-peers",
  props: [
    ro("remote-address", "str"),
    ro("local-address", "str"),
    ro("state", "str"),
    ro("side", "str", { releases: V7 }),
    ro("uptime", "time"),
    ro("ph2-total", "int"),
    ro("natt-peer", "bool"),
    ro("rx-bytes", "int", { releases: V7 }),
    ro("tx-bytes", "int", { releases: V7 }),
    ro("dynamic-address", "str"),
    ro("comment", "str"),
  ],
  flags: [{ ch: "N", name: "natt-peer", group: 0, test: (i) => isTrue(i["natt-peer"]) }],
  columns: ["remote-address", "state", "uptime", "ph2-total"],
});

/** `/ip/ipsec/installed-sa` (none on a fresh router). */
const INSTALLED_SA = statusTable({
  path: "/ip/ipsec/installed-sa",
  props: [
    ro("spi", "str"),
    ro("src-address", "str"),
    ro("dst-address", "str"),
    ro("state", "str"),
    ro("auth-algorithm", "str"),
    ro("enc-algorithm", "str"),
    ro("current-bytes", "int"),
    ro("expires-in", "str"),
  ],
  columns: ["spi", "src-address", "dst-address", "state"],
});

/** IPsec menus. */
export const IPSEC_MENUS: MenuDef[] = [
  PROFILE,
  PEER,
  IDENTITY,
  PROPOSAL,
  POLICY,
  MODE_CONFIG,
  ACTIVE_PEERS,
  INSTALLED_SA,
];

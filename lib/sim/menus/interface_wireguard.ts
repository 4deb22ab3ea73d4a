/**
 * `/interface/wireguard` and its peers.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { COMMENT, DISABLED, F_DISABLED, F_RUNNING, int, ro, RUNNING, str } from "./common.ts";

import { nameUnique, nextName, renameCascade } from "./interface_common.ts";

/** `/interface/wireguard`. */
const WIREGUARD: MenuDef = {
  path: "/interface/wireguard",
  table: "/interface",
  match: { type: "wg" },
  kind: "list",
  key: "name",
  releases: V7,
  props: [
    str("name", { default: (_i, st) => nextName(st, "wireguard") }),
    int("mtu", 1420, { min: 0, max: 65535 }),
    int("listen-port", undefined, {
      min: 1,
      max: 65535,
      default: (_i, st) =>
        String(13231 + st.stored(st.menus.byPath("/interface/wireguard")!).length),
    }),
    str("private-key", { sensitive: true, default: () => wgKey() }),
    ro("public-key", "str", {
      compute: (i) => (i["private-key"] ? pubFromPriv(i["private-key"]) : undefined),
    }),
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_RUNNING],
  columns: ["name", "mtu", "listen-port", "private-key", "public-key"],
  unique: [nameUnique],
  afterChange: renameCascade,
};

/** `/interface/wireguard/peers`. */
const WG_PEERS: MenuDef = {
  path: "/interface/wireguard/peers",
  kind: "list",
  releases: V7,
  props: [
    { name: "interface", type: "ref", ref: "/interface/wireguard", required: true },
    str("name", {
      // Peer names came in 7.14 to 7.16 (the 7.13.5 tree lacks them, 7.16.2 has them).
      releases: { from: "7.16" },
      default: (_i, st) =>
        `peer${st.stored(st.menus.byPath("/interface/wireguard/peers")!).length + 1}`,
    }),
    str("public-key", {
      required: true,
      validate: (
        v,
      ) => (/^[A-Za-z0-9+/]{43}=$/.test(v) ? undefined : "invalid value for argument public-key"),
    }),
    str("preshared-key", { sensitive: true }),
    str("endpoint-address", { default: "" }),
    int("endpoint-port", 0, { min: 0, max: 65535 }),
    // `... endpoint-port=0 current-endpoint-address=... current-endpoint-port=50610
    // allowed-address=... rx= tx=` (real-output/terse-wireguard-peers-v7.txt)
    ro("current-endpoint-address", "str", { default: "" }),
    ro("current-endpoint-port", "int", { default: "0" }),
    str("allowed-address", { required: true }),
    { name: "persistent-keepalive", type: "time", default: "0s" },
    // What client configs are generated with (7.12 on; real-output/terse-wireguard-peers-v7.txt
    // prints client-address and client-endpoint after the keys): free text on the router.
    str("client-address", { default: "", releases: { from: "7.12" } }),
    str("client-dns", { default: "", releases: { from: "7.12" } }),
    str("client-endpoint", { default: "", releases: { from: "7.12" } }),
    ro("rx", "int", { default: "0" }),
    ro("tx", "int", { default: "0" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["interface", "public-key", "endpoint-address", "endpoint-port", "allowed-address"],
};

/** Wireguard keys: deterministic-looking random base64 of 32 bytes. */
function wgKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...b));
}
function pubFromPriv(k: string): string {
  // not real curve25519: a stable stand-in derived from the private key
  let h = 0;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    h = (h * 31 + k.charCodeAt(i % k.length) + i) >>> 0;
    out[i] = h & 255;
  }
  return btoa(String.fromCharCode(...out));
}

/** WireGuard menus. */
export const WIREGUARD_MENUS: MenuDef[] = [WIREGUARD, WG_PEERS];

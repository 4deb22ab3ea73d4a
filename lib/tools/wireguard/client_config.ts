/**
 * `router_wireguard_client_config`: a wg-quick configuration for one peer
 * of a router WireGuard interface. The router's private key is never read
 * into the result; the client's private key appears only when the caller
 * supplies it. Every value written into the file is checked to be what its
 * key takes (`wg_quick.ts`), the router's `client-*` defaults included.
 *
 * @module
 */
import * as z from "zod";
import { getExpr, type ItemRef, refCondition } from "../../routeros/command.ts";
import { ArgumentError, RouterOsError, unparsable } from "../../routeros/errors.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { wireguard, wireguardPeers } from "../../routeros/schema/menus/wireguard.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, menuDialect, refOn } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { READ } from "../tool.ts";
import {
  checked,
  endpointHost,
  isAddressOrPrefix,
  isDnsEntry,
  isEndpointHost,
  wgQuickFile,
} from "./wg_quick.ts";

const KEY_FORM = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const KEY = z.string().regex(KEY_FORM, "a WireGuard key (44 characters of base64)");

const ADDRESS = "an IPv4 or IPv6 address or prefix";
const DNS = "an IPv4 or IPv6 address or a host name";
const HOST = "a host name, an IPv4 address or an IPv6 address";

/** A comma-separated list as its entries. */
function entries(text: string): string[] {
  return text.split(",").map((e) => e.trim()).filter((e) => e !== "");
}

function peerRef(args: { peer_id?: string; peer_public_key?: string }): ItemRef {
  if (args.peer_id !== undefined) return { id: args.peer_id };
  if (args.peer_public_key !== undefined) return { key: "public-key", value: args.peer_public_key };
  throw new ArgumentError("give peer_id or peer_public_key to say which peer");
}

/** `router_wireguard_client_config`. */
export const wireguardClientConfig = defineTool({
  name: "router_wireguard_client_config",
  title: "WireGuard client config for a peer",
  description:
    "Generate a wg-quick configuration file for one peer of a router WireGuard interface: the " +
    "router's public key and endpoint, the peer's tunnel address and the allowed IPs. The client " +
    "private key is included only when you supply it (otherwise a placeholder); the router's " +
    "private key is never shown. Identify the peer by id or by its public key.",
  toolset: "wireguard",
  input: {
    peer_id: ID_SCHEMA.optional().describe("Peer id (.id), such as *1"),
    peer_public_key: KEY.optional().describe("Or the peer's public key"),
    endpoint_host: z.string().max(255).refine(isEndpointHost, HOST).optional().describe(
      "Public address or name of the router (default: the peer's client-endpoint, else the SSH host)",
    ),
    client_private_key: KEY.optional().describe("The client's private key, to put into the file"),
    preshared_key: KEY.optional().describe("The peer's preshared key, to put into the file"),
    client_address: z.string().max(255).refine(
      (a) => entries(a).length > 0 && entries(a).every(isAddressOrPrefix),
      `${ADDRESS} (several: comma-separated)`,
    ).optional().describe(
      "Tunnel address of the client, e.g. 10.66.0.2/32 (default: the peer's client-address or first allowed-address)",
    ),
    allowed_ips: z.array(z.string().max(64).refine(isAddressOrPrefix, ADDRESS)).min(1).max(100)
      .optional().describe(
        "Destinations the client sends through the tunnel (default: 0.0.0.0/0 and ::/0)",
      ),
    dns: z.array(z.string().max(253).refine(isDnsEntry, DNS)).max(10).optional().describe(
      "DNS servers for the client (a host name: a search domain)",
    ),
    persistent_keepalive: z.number().int().min(0).max(65535).optional().describe(
      "Keepalive interval in seconds (e.g. 25 behind NAT)",
    ),
  },
  output: {
    config: z.string().describe("wg-quick configuration file"),
    interface: z.object({
      name: z.string(),
      public_key: z.string(),
      listen_port: z.number().optional(),
    }),
    peer: z.object({
      id: z.string(),
      public_key: z.string().optional(),
      allowed_address: z.array(z.string()).optional(),
    }),
    private_key_included: z.boolean(),
  },
  annotations: READ,
  example: {
    peer_public_key: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
    endpoint_host: "203.0.113.1",
  },
  perDevice: true,
  secretArgs: ["client_private_key", "preshared_key"],
  async handler(args, ctx) {
    const dialect = await menuDialect(wireguardPeers, ctx);
    const release = dialect.release;
    const ref = refOn(wireguardPeers, peerRef(args), release);
    const script = await ctx.client.script();
    const peers = script.read(readSpecOf(wireguardPeers, release), [refCondition(ref)]);
    // The peer's interface, by the name the peer holds.
    const ifaces = script.read(readSpecOf(wireguard, release), [{
      key: "name",
      equals: getExpr(wireguardPeers.path, "interface", ref),
    }]);
    const out = await ctx.client.run(script, { idempotent: true, what: wireguardPeers.path });
    const [peerRaw] = out.get(peers).items;
    if (!peerRaw) throw new RouterOsError("not-found", "no such WireGuard peer", "no such item");
    const ifaceRaws = out.get(ifaces).items;
    if (ifaceRaws.length !== 1) {
      throw unparsable(JSON.stringify(ifaceRaws), "the peer's interface was not found");
    }
    const peer = toItem(wireguardPeers, release, peerRaw);
    const iface = toItem(wireguard, release, ifaceRaws[0]);
    const allowed = (peer.allowed_address as string[] | undefined) ?? [];
    // The router's client-* defaults are free text: each is checked like an argument.
    const address = args.client_address !== undefined
      ? entries(args.client_address)
      : peer.client_address
      ? checked(
        entries(String(peer.client_address)),
        isAddressOrPrefix,
        "client_address",
        ADDRESS,
        "client-address",
      )
      : checked(
        allowed.slice(0, 1),
        isAddressOrPrefix,
        "client_address",
        ADDRESS,
        "allowed-address",
      );
    const host = args.endpoint_host ??
      (peer.client_endpoint
        ? checked(
          [String(peer.client_endpoint)],
          isEndpointHost,
          "endpoint_host",
          HOST,
          "client-endpoint",
        )[0]
        : ctx.client.target.host);
    const port = typeof iface.listen_port === "number" ? iface.listen_port : 51820;
    const dns = args.dns ??
      (peer.client_dns
        ? checked(entries(String(peer.client_dns)), isDnsEntry, "dns", DNS, "client-dns")
        : undefined);
    const publicKey = String(iface.public_key ?? "");
    if (!KEY_FORM.test(publicKey)) {
      throw unparsable(publicKey, "the interface's public key is not a WireGuard key");
    }
    const lines = [
      "[Interface]",
      `PrivateKey = ${args.client_private_key ?? "<client private key>"}`,
      ...(address.length ? [`Address = ${address.join(", ")}`] : []),
      ...(dns?.length ? [`DNS = ${dns.join(", ")}`] : []),
      "",
      "[Peer]",
      `PublicKey = ${publicKey}`,
      ...(args.preshared_key
        ? [`PresharedKey = ${args.preshared_key}`]
        : peer.preshared_key
        ? ["# PresharedKey = <the peer's preshared key, set on the router>"]
        : []),
      `Endpoint = ${endpointHost(host)}:${port}`,
      `AllowedIPs = ${(args.allowed_ips ?? ["0.0.0.0/0", "::/0"]).join(", ")}`,
      ...(args.persistent_keepalive !== undefined
        ? [`PersistentKeepalive = ${args.persistent_keepalive}`]
        : []),
    ];
    const config = wgQuickFile(lines);
    return {
      structured: {
        config,
        interface: {
          name: String(iface.name ?? ""),
          public_key: String(iface.public_key ?? ""),
          ...(typeof iface.listen_port === "number" ? { listen_port: iface.listen_port } : {}),
        },
        peer: {
          id: String(peer.id),
          ...(peer.public_key ? { public_key: String(peer.public_key) } : {}),
          allowed_address: allowed,
        },
        private_key_included: args.client_private_key !== undefined,
      },
      text: config,
    };
  },
});

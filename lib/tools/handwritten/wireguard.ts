/**
 * `router_wireguard_client_config`: a wg-quick configuration for one peer
 * of a router WireGuard interface. The router's private key is never read
 * into the result; the client's private key appears only when the caller
 * supplies it.
 *
 * @module
 */
import * as z from "zod";
import { SECTION_MARK } from "../../routeros/client.ts";
import { itemRef, menuPath } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { jsonItems, outputError, type RawItem } from "../../routeros/parse_json.ts";
import { checkId } from "../../routeros/quote.ts";
import { printStatement } from "../../routeros/scripts.ts";
import { flag, list, num, text } from "../fields.ts";
import type { ToolDef } from "../tool.ts";
import { ID, typed, view, viewSpec } from "./views.ts";

const KEY = z.string().regex(
  /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/,
  "a WireGuard key (44 characters of base64)",
);

/** Router WireGuard interfaces (no private key: it is never read into results). */
export const wgInterfaceView = view("/interface/wireguard", "wireguard", "WireGuard interfaces", {
  name: text("Interface name"),
  "public-key": text("The interface's public key"),
  "listen-port": num("UDP port the interface listens on"),
  disabled: flag("Whether the interface is disabled"),
});

/** WireGuard peers. */
export const wgPeerView = view("/interface/wireguard/peers", "wireguard", "WireGuard peers", {
  interface: text("Router interface of the peer"),
  "public-key": text("The peer's public key"),
  "allowed-address": list("Addresses the peer may use (its tunnel address first)"),
  "preshared-key": text("Preshared key", { secret: true }),
  "client-address": text("Tunnel address for client configs (RouterOS 7.15+)"),
  "client-dns": text("DNS servers for client configs (RouterOS 7.15+)"),
  "client-endpoint": text("Endpoint for client configs (RouterOS 7.15+)"),
  "persistent-keepalive": text("Keepalive interval"),
  comment: text("Free-text comment"),
  disabled: flag("Whether the peer is disabled"),
});

function peerRef(args: Record<string, unknown>) {
  if (typeof args.peer_id === "string") return { id: checkId(args.peer_id) };
  if (typeof args.peer_public_key === "string") {
    return { key: { key: "public-key", value: args.peer_public_key } };
  }
  throw new RouterOsError("invalid-value", "give peer_id or peer_public_key to say which peer", "");
}

function configScript(dialect: Dialect, args: Record<string, unknown>): string {
  const ref = peerRef(args);
  const filter = ref.id ? { key: ".id", value: ref.id } : ref.key!;
  const peers = printStatement(dialect, wgPeerView.path, { filters: [filter] });
  const ifaceName = `[${menuPath(wgPeerView.path)} get ${itemRef(ref)} interface]`;
  const iface = printStatement(dialect, wgInterfaceView.path).replace(
    /(print (?:detail as-value|terse show-ids))/,
    `$1 where name=${ifaceName}`,
  );
  return dialect.json
    ? `${peers}; ${iface}`
    : `${peers}; :put "${SECTION_MARK}"; ${iface}; :put "${SECTION_MARK}"`;
}

function endpointHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** `router_wireguard_client_config`. */
export const wireguardClientConfig: ToolDef = {
  name: "router_wireguard_client_config",
  title: "WireGuard client config for a peer",
  description:
    "Generate a wg-quick configuration file for one peer of a router WireGuard interface: the " +
    "router's public key and endpoint, the peer's tunnel address and the allowed IPs. The client " +
    "private key is included only when you supply it (otherwise a placeholder); the router's " +
    "private key is never shown. Identify the peer by id or by its public key.",
  toolset: "wireguard",
  input: {
    peer_id: ID.optional().describe("Peer id (.id), such as *1"),
    peer_public_key: KEY.optional().describe("The peer's public key (identifies the peer)"),
    endpoint_host: z.string().max(255).regex(/^[A-Za-z0-9.:-]+$/, "a host name or address")
      .optional()
      .describe(
        "Public address or name of the router (default: the peer's client-endpoint, else the SSH host)",
      ),
    client_private_key: KEY.optional().describe("The client's private key, to put into the file"),
    preshared_key: KEY.optional().describe("The peer's preshared key, to put into the file"),
    client_address: z.string().max(255).optional().describe(
      "Tunnel address of the client, e.g. 10.66.0.2/32 (default: the peer's client-address or first allowed-address)",
    ),
    allowed_ips: z.array(z.string().max(64)).min(1).max(100).default(["0.0.0.0/0", "::/0"])
      .describe(
        "Destinations the client sends through the tunnel (default: everything)",
      ),
    dns: z.array(z.string().max(64)).max(10).optional().describe("DNS servers for the client"),
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
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  example: {
    peer_public_key: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
    endpoint_host: "203.0.113.1",
  },
  perDevice: true,
  secretArgs: ["client_private_key", "preshared_key"],
  async handler(args, { client }) {
    const dialect = await client.dialect();
    const output = await client.run(configScript(dialect, args), wgPeerView.path, true);
    let peerRaw: RawItem | undefined;
    let rest: string;
    if (dialect.json) {
      const lines = output.split("\n").filter((l) => l.trim() !== "");
      if (lines.length === 0) throw outputError(output);
      [peerRaw] = jsonItems(dialect, lines[0]);
      rest = lines.slice(1).join("\n");
    } else {
      const at = output.indexOf(SECTION_MARK + "\n");
      if (at < 0) throw outputError(output);
      [peerRaw] = client.parseRead(dialect, viewSpec(wgPeerView), output.slice(0, at));
      rest = output.slice(at + SECTION_MARK.length + 1);
      if (peerRaw) {
        const end = rest.lastIndexOf(SECTION_MARK);
        if (end < 0) throw outputError(rest);
        rest = rest.slice(0, end);
      }
    }
    if (!peerRaw) throw new RouterOsError("not-found", "no such WireGuard peer", "no such item");
    const ifaceRaws = dialect.json
      ? jsonItems(dialect, rest.trim())
      : client.parseRead(dialect, viewSpec(wgInterfaceView), rest);
    if (ifaceRaws.length !== 1) throw outputError(rest);
    const [peer] = typed(wgPeerView, dialect, [peerRaw]);
    const [iface] = typed(wgInterfaceView, dialect, ifaceRaws);
    const allowed = (peer.allowed_address as string[] | undefined) ?? [];
    const address = (args.client_address as string | undefined) ??
      (peer.client_address ? String(peer.client_address) : undefined) ?? allowed[0];
    const host = (args.endpoint_host as string | undefined) ??
      (peer.client_endpoint ? String(peer.client_endpoint) : undefined) ?? client.target.host;
    const port = typeof iface.listen_port === "number" ? iface.listen_port : 51820;
    const dns = (args.dns as string[] | undefined) ??
      (peer.client_dns ? String(peer.client_dns).split(",") : undefined);
    const lines = [
      "[Interface]",
      `PrivateKey = ${(args.client_private_key as string | undefined) ?? "<client private key>"}`,
      ...(address ? [`Address = ${address}`] : []),
      ...(dns?.length ? [`DNS = ${dns.join(", ")}`] : []),
      "",
      "[Peer]",
      `PublicKey = ${String(iface.public_key ?? "")}`,
      ...(args.preshared_key
        ? [`PresharedKey = ${String(args.preshared_key)}`]
        : peer.preshared_key
        ? ["# PresharedKey = <the peer's preshared key, set on the router>"]
        : []),
      `Endpoint = ${endpointHost(host)}:${port}`,
      `AllowedIPs = ${
        (args.allowed_ips as string[] | undefined ?? ["0.0.0.0/0", "::/0"]).join(", ")
      }`,
      ...(args.persistent_keepalive !== undefined
        ? [`PersistentKeepalive = ${String(args.persistent_keepalive)}`]
        : []),
    ];
    const config = lines.join("\n") + "\n";
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
};

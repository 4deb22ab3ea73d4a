/**
 * `router_ipsec_status`: one overview of IPsec in a single read: each
 * configured peer with whether phase 1 is up, and each policy with its
 * phase 2 state. Secrets are never read.
 *
 * @module
 */
import * as z from "zod";
import { Script } from "../../routeros/script.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { ipsecActivePeers, ipsecPeers, ipsecPolicies } from "../../routeros/schema/menus/ipsec.ts";
import { defineTool } from "../define.ts";
import { menuDialect } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

const PEER = z.object({
  name: z.string(),
  address: z.string(),
  exchange_mode: z.string(),
  disabled: z.boolean(),
  established: z.boolean(),
  state: z.string(),
  uptime: z.string(),
});
const POLICY = z.object({
  id: z.string(),
  peer: z.string(),
  src_address: z.string(),
  dst_address: z.string(),
  tunnel: z.boolean(),
  active: z.boolean(),
  ph2_state: z.string(),
  disabled: z.boolean(),
});

/** An address without a host prefix length: `192.0.2.30/32` is `192.0.2.30`. */
const host = (a: unknown) => String(a ?? "").replace(/\/(32|128)$/, "");

/** `router_ipsec_status`. */
export const ipsecStatus = defineTool({
  name: "router_ipsec_status",
  title: "IPsec status overview",
  description:
    "Show IPsec at a glance: each configured peer with whether phase 1 is established (and " +
    "since when), and each policy (templates left out) with its phase 2 state. Start here when " +
    "a site-to-site or road-warrior tunnel is down.",
  toolset: "vpn",
  input: {},
  output: {
    peers: z.array(PEER),
    policies: z.array(POLICY),
    established: z.number().describe("Peers with phase 1 up"),
    active_policies: z.number().describe("Policies with phase 2 up"),
  },
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const dialect = await menuDialect(ipsecPeers, ctx);
    const release = dialect.release;
    const script = new Script(dialect);
    const peersRead = script.read(readSpecOf(ipsecPeers, release));
    const activeRead = script.read(readSpecOf(ipsecActivePeers, release));
    const policiesRead = script.read(readSpecOf(ipsecPolicies, release));
    const out = await ctx.client.run(script, { idempotent: true, what: "/ip/ipsec" });
    const active = out.get(activeRead).items.map((r) => toItem(ipsecActivePeers, release, r));
    const peers = out.get(peersRead).items.map((r) => toItem(ipsecPeers, release, r)).map(
      (p) => {
        const up = active.find((a) => host(a.remote_address) === host(p.address));
        const state = String(up?.state ?? "");
        return {
          name: String(p.name ?? ""),
          address: String(p.address ?? ""),
          exchange_mode: String(p.exchange_mode ?? ""),
          disabled: p.disabled === true,
          established: state === "established",
          state: state || "no phase 1",
          uptime: String(up?.uptime ?? ""),
        };
      },
    );
    const policies = out.get(policiesRead).items.map((r) => toItem(ipsecPolicies, release, r))
      .filter((p) => p.template !== true)
      .map((p) => ({
        id: String(p.id),
        peer: String(p.peer ?? ""),
        src_address: String(p.src_address ?? ""),
        dst_address: String(p.dst_address ?? ""),
        tunnel: p.tunnel === true,
        active: p.active === true,
        ph2_state: String(p.ph2_state ?? ""),
        disabled: p.disabled === true,
      }));
    const established = peers.filter((p) => p.established).length;
    const activePolicies = policies.filter((p) => p.active).length;
    return {
      structured: { peers, policies, established, active_policies: activePolicies },
      text: [
        `${established} of ${peers.length} peers established, ${activePolicies} of ` +
        `${policies.length} policies active`,
        renderTable(peers, ["name", "address", "state", "uptime", "disabled"]),
        renderTable(policies, ["id", "peer", "src_address", "dst_address", "ph2_state"]),
      ].join("\n"),
    };
  },
});

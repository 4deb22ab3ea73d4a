/**
 * The lock-out rule of the ARP table (`/ip/arp`): the router reaches this
 * server's SSH session through one ARP entry, that of this host's address
 * when it is on a connected subnet, else that of the gateway the route
 * back to it goes through. A static entry there with a wrong MAC address
 * sends the router's answers to nobody; removing or disabling one that an
 * interface with `arp=reply-only` relies on leaves it no entry at all. So
 * any write to an entry for either address needs `confirm`.
 *
 * Reads (only when the entry is not for this host's own address): the
 * active routes that hold this host's address, in one exec; the most
 * specific of them is the route back. IPv4 only (ARP
 * is IPv4's); behind NAT, this host's address is the one the socket shows,
 * and the route back is that of the router's view of it.
 *
 * @module
 */
import { bracket, cmd, local, variable } from "../../routeros/command.ts";
import { isIpv4 } from "../../routeros/ip_address.ts";
import { quoteValue } from "../../routeros/quote.ts";
import type { ToolContext } from "../tool.ts";
import type { LockoutRule } from "./lockout.ts";

/** The length of a route's prefix (`10.0.0.0/8` -> 8). */
function prefixLength(dst: unknown): number {
  const m = /\/(\d+)$/.exec(String(dst ?? ""));
  return m ? Number(m[1]) : 32;
}

/**
 * The IPv4 gateways (`gateway`, `immediate-gw`) of the most specific active
 * routes that hold `ip`: the next hops the router sends this host's packets to.
 */
async function gatewaysTo(ip: string, ctx: ToolContext): Promise<string[]> {
  const script = await ctx.client.script();
  script.do(local("d", bracket(`:toip ${quoteValue(ip)}`)));
  const section = script.records(
    bracket(cmd("/ip/route", "print", {
      switches: ["as-value"],
      where: [{ key: "dst-address", contains: variable("d") }, { key: "active", value: true }],
    })),
    true,
    ["dst-address", "gateway", "immediate-gw"],
  );
  const routes = (await ctx.client.run(script, { idempotent: true, what: "/ip/route" }))
    .get(section);
  const longest = Math.max(-1, ...routes.map((r) => prefixLength(r["dst-address"])));
  return routes.filter((r) => prefixLength(r["dst-address"]) === longest).flatMap((r) =>
    [r.gateway, r["immediate-gw"]].flatMap((v) =>
      (Array.isArray(v) ? v : String(v ?? "").split(/[,;]/))
        .map((g) => String(g).trim().split("%")[0])
        .filter(isIpv4)
    )
  );
}

/** A static ARP entry for this host's address or for the gateway back to it. */
export const sessionArpEntry: LockoutRule = {
  verbs: ["add", "update", "remove", "enable", "disable"],
  updates: ["address", "mac_address", "interface", "disabled"],
  check: async ({ before, after }, ctx) => {
    const host = ctx.client.session().local;
    if (!host || !isIpv4(host)) return undefined;
    const addresses = [before?.address, after.address]
      .filter((a): a is string => typeof a === "string" && isIpv4(a));
    if (!addresses.length) return undefined;
    const what = "a wrong MAC address there, or no entry where the interface has arp=reply-only, " +
      "cuts the session";
    if (addresses.includes(host)) {
      return `the entry is for ${host}, the address this server's SSH session comes from; ${what}`;
    }
    const gateways = await gatewaysTo(host, ctx);
    const gateway = addresses.find((a) => gateways.includes(a));
    return gateway
      ? `the entry is for ${gateway}, the gateway of the route back to this server (${host}); ${what}`
      : undefined;
  },
};

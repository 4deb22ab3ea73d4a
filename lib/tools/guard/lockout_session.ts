/**
 * This server's SSH session as the router's firewall sees it, from what the
 * lock-out guard read: the packets of a new connection from this host to
 * the router's SSH service, in the firewall's terms ({@linkcode Flow}).
 *
 * - Source: this host's address on the socket, when `/user active` lists
 *   it among this user's ssh sessions (or lists none); otherwise each
 *   address it lists (the router sees this host behind NAT).
 * - Destination: the router address the socket reached, when the router
 *   holds it (unknown behind a port forward); the port of `/ip service
 *   ssh` (what the router sees, whatever port this host dialled).
 * - In-interface: the interface of an address whose subnet holds the
 *   source; else the best active route back to the source (its immediate
 *   gateway's interface); else the interface of the reached address.
 * - Three kinds of packet: the opening SYN (connection-state new, the
 *   server reconnects at any time, so it is what matters), the rest of the
 *   connection coming in (established) and the router's answers going out
 *   (established, src-port 22). The source port is ephemeral (1024-65535).
 *
 * @module
 */
import type { Flow, PortRange, RouterFacts } from "../../routeros/rule_match.ts";
import { isYes } from "../../routeros/rule_match.ts";
import { addressInSpec, addressOf, sameAddress } from "../../routeros/prefix.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";

/** A row read from the router, values as text. */
export type Row = Readonly<Record<string, string>>;

/** What the guard read about how this server reaches the router. */
export interface SessionReads {
  /** The router's end of the socket. */
  routerAddress?: string;
  /** This host's end of the socket. */
  localAddress?: string;
  /** The port this host dialled (used when `/ip service ssh` says none). */
  dialledPort: number;
  /** `/ip service` rows of ssh: port, disabled. */
  services: readonly Row[];
  /** `/user active` rows of this user's ssh sessions: address. */
  active: readonly Row[];
  /** `/ip address` (or `/ipv6 address`) rows: address, interface, disabled, invalid. */
  addresses: readonly Row[];
  /** Active routes holding this host's address: dst-address, gateway, immediate-gw, distance... */
  routes: readonly Row[];
}

/** Which packet of the session a flow is. */
export type PacketKind = "new" | "established" | "reply";

/** One packet of the session, and how a message names it. */
export interface SessionFlow {
  kind: PacketKind;
  flow: Flow;
  text: string;
}

/** An ephemeral source port. */
export const EPHEMERAL: PortRange = { from: 1024, to: 65535 };

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function live(rows: readonly Row[]): Row[] {
  return rows.filter((r) => !isYes(r.disabled) && !isYes(r.invalid));
}

/** The interfaces that hold an address whose subnet has `ip`. */
function connectedTo(addresses: readonly Row[], ip: string): string[] {
  return unique(
    live(addresses).filter((a) => a.address && a.interface && addressInSpec(a.address, ip))
      .map((a) => a.interface),
  );
}

function prefixLength(text: string | undefined): number {
  const m = /\/(\d+)$/.exec(text ?? "");
  return m ? Number(m[1]) : 0;
}

/** The interface(s) of the best route in the main table, from what its gateway says. */
function routeInterfaces(addresses: readonly Row[], routes: readonly Row[]): string[] {
  const main = routes.filter((r) =>
    !isYes(r.disabled) && (r["routing-table"] ?? "main") === "main" && !r["routing-mark"]
  ).sort((a, b) =>
    prefixLength(b["dst-address"]) - prefixLength(a["dst-address"]) ||
    Number(a.distance ?? 0) - Number(b.distance ?? 0)
  );
  const best = main[0];
  if (!best) return [];
  const out: string[] = [];
  for (const hop of (best["immediate-gw"] || best.gateway || "").split(/[,;]/)) {
    const [gw, zone] = hop.trim().split("%");
    if (zone) out.push(zone);
    else if (gw && !isIpv4(gw) && !isIpv6(gw)) out.push(gw);
    else if (gw) out.push(...connectedTo(addresses, gw));
  }
  const via = /reachable via\s+(\S+)/.exec(best["gateway-status"] ?? "");
  if (!out.length && via) out.push(via[1]);
  return unique(out);
}

/**
 * The addresses the router sees this host's session come from: this host's
 * end of the socket when `/user active` lists it among this user's ssh
 * sessions (or lists none), else each address it lists (behind NAT).
 */
export function sessionSources(
  localAddress: string | undefined,
  active: readonly Row[],
): (string | undefined)[] {
  const listed = unique(active.map((a) => a.address).filter((a) => a && a !== ""));
  const local = localAddress;
  return local && (listed.length === 0 || listed.some((a) => sameAddress(a, local)))
    ? [local]
    : listed.length
    ? listed
    : [undefined];
}

/** The router addresses this host's session may come from, and the router's own address. */
function ends(r: SessionReads): { sources: (string | undefined)[]; router?: string } {
  const sources = sessionSources(r.localAddress, r.active);
  const held = r.routerAddress &&
    live(r.addresses).some((a) => a.address && sameAddress(addressOf(a.address), r.routerAddress!));
  return { sources, router: held ? r.routerAddress : undefined };
}

/** The in-interfaces the session's packets from `src` may arrive on. */
function inInterfaces(
  r: SessionReads,
  src: string | undefined,
  router?: string,
): (string | undefined)[] {
  const own = router
    ? live(r.addresses).filter((a) => a.address && sameAddress(addressOf(a.address), router))
    : [];
  if (src) {
    const mine = own.filter((a) => addressInSpec(a.address, src)).map((a) => a.interface);
    if (mine.length) return unique(mine);
    const connected = connectedTo(r.addresses, src);
    if (connected.length) return connected;
    if (src === r.localAddress) {
      const routed = routeInterfaces(r.addresses, r.routes);
      if (routed.length) return routed;
    }
  }
  const reached = unique(own.map((a) => a.interface).filter(Boolean));
  return reached.length ? reached : [undefined];
}

/**
 * The interfaces this server's SSH session arrives on and the router's
 * replies leave by (the route back, one or more per source), and the ones
 * that hold the address it reached (a loopback bridge, when the router is
 * managed at a /32 there): each is an interface whose loss cuts the session.
 */
export function sessionInterfaces(r: SessionReads): { path: string[]; held: string[] } {
  const { sources, router } = ends(r);
  const path = sources.flatMap((src) => inInterfaces(r, src, router));
  const held = router
    ? live(r.addresses).filter((a) => a.address && sameAddress(addressOf(a.address), router))
      .map((a) => a.interface)
    : [];
  return {
    path: unique(path.filter((i): i is string => !!i)),
    held: unique(held.filter(Boolean)),
  };
}

/** The ssh service's ports as the router has them. */
function sshPorts(r: SessionReads): number[] {
  const ports = live(r.services).map((s) => Number(s.port)).filter((p) =>
    Number.isInteger(p) && p > 0
  );
  return ports.length ? unique(ports) : [r.dialledPort];
}

/** Every packet of the session the firewall may see, for each way it may arrive. */
export function sessionFlows(r: SessionReads): SessionFlow[] {
  const { sources, router } = ends(r);
  const flows: SessionFlow[] = [];
  for (const src of sources) {
    for (const iface of inInterfaces(r, src, router)) {
      for (const port of sshPorts(r)) {
        const base = {
          protocol: "tcp",
          connectionNatState: [] as string[],
          connectionType: null,
        };
        const peer = src ?? "(unknown address)";
        const on = iface ? ` on ${iface}` : "";
        const there = `${router ?? "the router"}:${port}`;
        const incoming: Flow = {
          ...base,
          srcAddress: src,
          dstAddress: router,
          srcPort: EPHEMERAL,
          dstPort: port,
          inInterface: iface,
          outInterface: null,
          srcAddressTypes: ["unicast"],
          dstAddressTypes: ["local", "unicast"],
        };
        flows.push({
          kind: "new",
          flow: { ...incoming, connectionState: "new", tcpFlags: ["syn"] },
          text: `src ${peer} \u2192 ${there} tcp${on}, new connection`,
        });
        flows.push({
          kind: "established",
          flow: { ...incoming, connectionState: "established" },
          text: `src ${peer} \u2192 ${there} tcp${on}, established connection`,
        });
        flows.push({
          kind: "reply",
          flow: {
            ...base,
            srcAddress: router,
            dstAddress: src,
            srcPort: port,
            dstPort: EPHEMERAL,
            inInterface: null,
            outInterface: iface,
            connectionState: "established",
            srcAddressTypes: ["local", "unicast"],
            dstAddressTypes: ["unicast"],
          },
          text: `the router's reply ${there} \u2192 ${peer} tcp${iface ? ` out ${iface}` : ""}`,
        });
      }
    }
  }
  return flows;
}

/** The facts a rule may need beyond the flow. */
export function sessionFacts(
  interfaceLists: RouterFacts["interfaceLists"],
  interfaces: readonly Row[],
  addressLists: RouterFacts["addressLists"],
): RouterFacts {
  return {
    interfaceLists,
    addressLists,
    interfaceTypes: new Map(
      interfaces.filter((i) => i.name && i.type).map((i) => [i.name, i.type]),
    ),
  };
}

/**
 * A packet followed hop by hop across a fleet of routers, from what each
 * one prints, the way RouterOS's packet flow takes it (MikroTik's "Packet
 * Flow in RouterOS" manual):
 *
 * - arriving at a router: raw prerouting, mangle prerouting (its marks),
 *   NAT dstnat (a new connection's destination may change), the routing
 *   decision ({@linkcode lookupRoute}: VRF, routing mark, policy rules,
 *   main table); then either filter input (the destination is the router)
 *   or filter forward and NAT srcnat;
 * - sent by the first router itself (no source, or a source that is its
 *   own address): raw output, mangle output, the routing decision, filter
 *   output, NAT srcnat;
 * - a packet from another source enters the first router on the interface
 *   that reaches that source.
 *
 * Every firewall chain is walked with the lock-out guard's rule matcher
 * (`rule_match.ts`, `rule_chain.ts`) for the first packet of a new
 * connection. A rule whose match cannot be decided (the protocol was not
 * given, an address list was not read, a matcher on rates or payload) may
 * take the packet: a drop the walk is not sure of is reported and the
 * trace goes on; a sure drop stops it. Marks set by mangle in one chain are
 * seen from the next chain on.
 *
 * The next router is the fleet device that holds the next hop's address
 * ({@linkcode TraceFleet.owner}). The trace stops when the destination is
 * reached (a router's own address, or a host on a router's connected
 * subnet), the packet leaves the fleet (a gateway no fleet device holds),
 * there is no route, the route is a blackhole (or unreachable, prohibit), a
 * rule drops it, it comes back to a router with the same addresses (a
 * loop), a router cannot be read, or after {@linkcode MAX_HOPS}.
 *
 * @module
 */
import {
  addressOn,
  filterChain,
  flowOf,
  mangleChain,
  type Marks,
  natChain,
  packetOf,
  type State,
  takesPorts,
} from "./trace_chains.ts";
import {
  connectedInterface,
  describeRoute,
  type LookupResult,
  lookupRoute,
  ownAddress,
  type RoutingFacts,
} from "./route_lookup.ts";
import type {
  RuleStep,
  TraceFacts,
  TraceFleet,
  TraceHop,
  TraceOutcome,
  TraceRequest,
  TraceResult,
} from "./trace_types.ts";

export type * from "./trace_types.ts";

/** Hops followed at most. */
export const MAX_HOPS = 32;

function routeOf(r: LookupResult): TraceHop["route"] {
  const route = r.route;
  return {
    ...(route?.[".id"] ? { id: route[".id"] } : {}),
    ...(route?.["dst-address"] ? { dst_address: route["dst-address"] } : {}),
    ...(route?.gateway ? { gateway: route.gateway } : {}),
    ...(route?.distance ? { distance: route.distance } : {}),
    table: r.table,
    kind: r.kind ?? "unicast",
  };
}

/** The routing facts of `f` for a lookup of `address` (its routes, asked of the fleet when it can). */
async function routingFor(
  fleet: TraceFleet,
  f: TraceFacts,
  address: string,
): Promise<RoutingFacts> {
  if (!fleet.routes) return f.routing;
  return { ...f.routing, routes: [...f.routing.routes, ...await fleet.routes(f.title, address)] };
}

/** The interface a packet from `src` comes in on: its connected subnet, else the route back. */
async function arrivingOn(
  fleet: TraceFleet,
  f: TraceFacts,
  src: string,
): Promise<string | undefined> {
  const routing = await routingFor(fleet, f, src);
  const connected = connectedInterface(routing, src);
  if (connected) return connected;
  const back = lookupRoute(routing, { dst: src, inInterface: null });
  return back.hops?.[0]?.interface;
}

/** Follow `req` across the fleet. */
export async function tracePath(req: TraceRequest, fleet: TraceFleet): Promise<TraceResult> {
  const hops: TraceHop[] = [];
  const seen = new Set<string>();
  const max = req.maxHops ?? MAX_HOPS;
  const end = (
    outcome: TraceOutcome,
    reason: string,
    stopped?: TraceResult["stopped_at"],
  ): TraceResult => ({ outcome, reason, hops, ...(stopped ? { stopped_at: stopped } : {}) });

  let first: TraceFacts;
  try {
    first = await fleet.facts(req.from);
  } catch (err) {
    return end("device-unreachable", `${req.from} could not be read: ${(err as Error).message}`, {
      device: req.from,
    });
  }
  const sentHere = req.source === undefined || ownAddress(first.routing.addresses, req.source);
  let s: State = {
    device: req.from,
    inInterface: sentHere ? null : await arrivingOn(fleet, first, req.source!),
    packet: {
      ...(req.source ? { src: req.source } : {}),
      dst: req.destination,
      ...(req.protocol ? { protocol: req.protocol } : {}),
      ...(takesPorts(req.protocol) && req.port !== undefined ? { dstPort: req.port } : {}),
    },
    dstnatted: false,
  };
  let f: TraceFacts | undefined = first;

  for (let n = 0; n < max; n++) {
    if (!f) {
      try {
        f = await fleet.facts(s.device);
      } catch (err) {
        return end(
          "device-unreachable",
          `${s.device} could not be read: ${(err as Error).message}`,
          { device: s.device },
        );
      }
    }
    const key = `${s.device}|${s.inInterface}|${s.packet.src}|${s.packet.dst}|${s.packet.dstPort}`;
    if (seen.has(key)) {
      const ring = hops.map((h) => h.device);
      return end(
        "loop",
        `the packet came back to ${s.device} as it was before: a routing loop (${
          [...ring, s.device].join(" \u2192 ")
        })`,
        { device: s.device },
      );
    }
    seen.add(key);
    const originating = s.inInterface === null;
    const hop: TraceHop = {
      device: s.device,
      ...(s.inInterface ? { in_interface: s.inInterface } : {}),
      packet: packetOf(s.packet),
      rules: [],
      nat: [],
      decision: [],
      notes: [...f.notes ?? []],
    };
    hops.push(hop);
    if (s.inInterface === undefined) {
      hop.notes.push("the interface the packet arrives on is not known");
    }
    const marks: Marks = { connection: null, packet: null, routing: null };
    const drop = (step: RuleStep) =>
      end(
        "dropped",
        `${s.device} ${step.table} ${step.chain} rule ${step.rule_id} ${
          step.certain ? "drops" : "may drop"
        } it: ${step.rule}`,
        { device: s.device, rule_id: step.rule_id },
      );

    // Prerouting (arriving) or output (sent here).
    // Before the routing decision the outgoing interface is unknown (output) or none (prerouting).
    const rawChain = originating ? "output" : "prerouting";
    const early = originating ? undefined : null;
    const raw = filterChain("raw", f.raw, rawChain, flowOf(s, f, early, marks), f.facts);
    hop.rules.push(...raw.steps);
    if (raw.dropped) return drop(raw.dropped);
    mangleChain(f, rawChain, flowOf(s, f, early, marks), marks, hop);
    if (!originating) {
      natChain(f, "dstnat", flowOf(s, f, null, marks), s, hop, {
        inAddress: addressOn(f, s.inInterface ?? undefined),
      });
    }

    // Routing decision.
    const routing = await routingFor(fleet, f, s.packet.dst);
    const r = lookupRoute(routing, {
      dst: s.packet.dst,
      src: s.packet.src,
      inInterface: originating ? null : s.inInterface,
      routingMark: marks.routing,
    });
    hop.decision = r.steps.map((x) => x.text);
    if (r.outcome === "local") {
      if (!originating) {
        const input = filterChain("filter", f.filter, "input", flowOf(s, f, null, marks), f.facts);
        hop.rules.push(...input.steps);
        if (input.dropped) return drop(input.dropped);
      }
      return end("reached-router", `${s.packet.dst} is ${s.device}'s own address`, {
        device: s.device,
      });
    }
    if (r.outcome === "no-route") {
      return end("no-route", `${s.device} has no route to ${s.packet.dst} (table ${r.table})`, {
        device: s.device,
      });
    }
    if (r.outcome === "drop" || r.outcome === "unreachable") {
      const id = r.rule?.[".id"];
      return end(
        r.outcome === "drop" ? "dropped" : "unreachable",
        `${s.device} policy routing rule ${id ?? ""} ${r.outcome}s it`.replace("  ", " "),
        { device: s.device, ...(id ? { rule_id: id } : {}) },
      );
    }
    hop.route = routeOf(r);
    if (r.kind && r.kind !== "unicast") {
      return end(
        r.kind,
        `${s.device} route ${describeRoute(r.route!)} is ${
          r.kind === "blackhole" ? "a blackhole" : r.kind
        }`,
        { device: s.device, ...(r.route?.[".id"] ? { route_id: r.route[".id"] } : {}) },
      );
    }
    const hopsOut = r.hops ?? [];
    if (hopsOut.length > 1) {
      hop.notes.push(
        `equal-cost paths: ${
          hopsOut.map((h) => h.gateway ?? h.interface).join(", ")
        }; the first is followed`,
      );
    }
    const next = hopsOut[0];
    const outInterface = next?.interface;
    const nextHop = next?.gateway ?? s.packet.dst;
    if (outInterface) hop.out_interface = outInterface;
    hop.next_hop = nextHop;
    const outAddress = r.route?.["pref-src"] || addressOn(f, outInterface);
    if (originating && !s.packet.src && outAddress) {
      s.packet.src = outAddress;
      hop.packet = packetOf(s.packet);
    }

    // Forward or output, then srcnat.
    const chain = originating ? "output" : "forward";
    const filter = filterChain(
      "filter",
      f.filter,
      chain,
      flowOf(s, f, outInterface, marks),
      f.facts,
    );
    hop.rules.push(...filter.steps);
    if (filter.dropped) return drop(filter.dropped);
    natChain(f, "srcnat", flowOf(s, f, outInterface, marks), s, hop, { outAddress });

    // The next router.
    const owner = fleet.owner(nextHop);
    if (!owner) {
      if (!next?.gateway) {
        return end(
          "delivered",
          `${s.packet.dst} is on ${s.device}'s connected subnet ${
            r.route?.["dst-address"] ?? ""
          } out of ${outInterface ?? "?"}: a host no fleet device is`,
          { device: s.device },
        );
      }
      return end(
        "left-fleet",
        `the next hop ${nextHop} (out of ${
          outInterface ?? "?"
        } of ${s.device}) is not a fleet device`,
        { device: s.device },
      );
    }
    if (owner.device === s.device) {
      return end("reached-router", `${nextHop} is ${s.device}'s own address`, { device: s.device });
    }
    s = { ...s, device: owner.device, inInterface: owner.interface, packet: { ...s.packet } };
    f = undefined;
  }
  return end("too-many-hops", `the trace stopped after ${max} hops`, { device: s.device });
}

/**
 * Path tracing (`lib/routeros/path_trace.ts`) over a made fleet of three
 * routers in a row, gw — core — edge, with a LAN behind edge and the
 * internet behind gw: hops and routes, a forward rule that drops, one that
 * may drop, a port forward (dstnat) and masquerade (srcnat), a routing mark
 * from mangle picking another table, a blackhole, no route, a loop, a
 * device that cannot be read, and leaving the fleet.
 */
import assert from "node:assert/strict";
import { type TraceFacts, type TraceFleet, tracePath } from "../../lib/routeros/path_trace.ts";
import type { FirewallRule } from "../../lib/routeros/rule_match.ts";
import type { Row } from "../../lib/routeros/route_lookup.ts";
import { interfaceListMembers } from "../../lib/routeros/interface_lists.ts";

const connected = (dst: string, iface: string): Row => ({
  "dst-address": dst,
  gateway: iface,
  connect: "true",
  active: "true",
  distance: "0",
});
const via = (id: string, dst: string, gw: string, extra: Row = {}): Row => ({
  ".id": id,
  "dst-address": dst,
  gateway: gw,
  active: "true",
  distance: "1",
  ...extra,
});

interface Made {
  addresses: [string, string][];
  routes: Row[];
  filter?: FirewallRule[];
  nat?: FirewallRule[];
  mangle?: FirewallRule[];
  rules?: Row[];
  wan?: string[];
}

function facts(title: string, m: Made): TraceFacts {
  const addresses = m.addresses.map(([address, iface]) => ({ address, interface: iface }));
  return {
    title,
    routing: {
      addresses,
      routes: [
        ...m.addresses.map(([a, i]) => {
          const [ip, len] = a.split("/");
          const parts = ip.split(".").map(Number);
          const size = 2 ** (32 - Number(len));
          const n = parts.reduce((x, p) => x * 256 + p, 0);
          const net = n - (n % size);
          return connected(
            `${[net >>> 24, (net >>> 16) & 255, (net >>> 8) & 255, net & 255].join(".")}/${len}`,
            i,
          );
        }),
        ...m.routes,
      ],
      rules: m.rules ?? [],
    },
    filter: m.filter ?? [],
    nat: m.nat ?? [],
    mangle: m.mangle ?? [],
    raw: [],
    facts: {
      interfaceLists: interfaceListMembers(
        [{ name: "WAN" }],
        (m.wan ?? []).map((i) => ({ list: "WAN", interface: i })),
      ),
    },
  };
}

function fleet(devices: Record<string, Made>, down: string[] = []): TraceFleet {
  const all = Object.fromEntries(Object.entries(devices).map(([k, v]) => [k, facts(k, v)]));
  return {
    facts(device) {
      if (down.includes(device)) return Promise.reject(new Error("connection timed out"));
      return Promise.resolve(all[device]);
    },
    owner(address) {
      for (const [device, f] of Object.entries(all)) {
        const a = f.routing.addresses.find((x) => x.address?.split("/")[0] === address);
        if (a) return { device, interface: a.interface! };
      }
      return undefined;
    },
  };
}

/** gw (ether1 to the internet) — core — edge (LAN 10.5.0.0/24). */
function made(): Record<string, Made> {
  return {
    gw: {
      addresses: [["203.0.113.2/30", "ether1"], ["10.0.12.1/30", "ether2"]],
      routes: [
        via("*1", "0.0.0.0/0", "203.0.113.1"),
        via("*2", "10.5.0.0/24", "10.0.12.2"),
        via("*3", "10.0.23.0/30", "10.0.12.2"),
      ],
      nat: [
        { ".id": "*1", chain: "srcnat", action: "masquerade", "out-interface-list": "WAN" },
        {
          ".id": "*2",
          chain: "dstnat",
          action: "dst-nat",
          protocol: "tcp",
          "dst-port": "8080",
          "in-interface-list": "WAN",
          "to-addresses": "10.5.0.20",
          "to-ports": "80",
        },
      ],
      wan: ["ether1"],
    },
    core: {
      addresses: [["10.0.12.2/30", "ether3"], ["10.0.23.1/30", "ether2"]],
      routes: [
        via("*1", "0.0.0.0/0", "10.0.12.1"),
        via("*2", "10.5.0.0/24", "10.0.23.2"),
        via("*3", "10.66.0.0/16", "", { blackhole: "true" }),
        via("*4", "10.99.0.0/24", "10.0.23.2"),
        via("*5", "10.5.0.128/25", "10.0.12.1", { "routing-table": "detour" }),
      ],
      filter: [
        { ".id": "*1", chain: "forward", action: "accept", "connection-state": "established" },
        {
          ".id": "*2",
          chain: "forward",
          action: "drop",
          protocol: "tcp",
          "dst-port": "23",
          "dst-address": "10.5.0.0/24",
          comment: "no telnet to the LAN",
        },
        {
          ".id": "*3",
          chain: "forward",
          action: "drop",
          "src-address-list": "blocked",
          "dst-address": "10.5.0.99",
        },
      ],
      mangle: [{
        ".id": "*1",
        chain: "prerouting",
        action: "mark-routing",
        "new-routing-mark": "detour",
        "src-address": "203.0.113.66",
        passthrough: "yes",
      }],
    },
    edge: {
      addresses: [["10.0.23.2/30", "ether3"], ["10.5.0.1/24", "bridge"]],
      routes: [via("*1", "0.0.0.0/0", "10.0.23.1"), via("*2", "10.99.0.0/24", "10.0.23.1")],
    },
  };
}

const path = (r: { hops: { device: string }[] }) => r.hops.map((h) => h.device).join(" > ");

Deno.test("trace: hop by hop to a LAN host, with routes, interfaces and next hops", async () => {
  const r = await tracePath(
    { from: "gw", destination: "10.5.0.10", protocol: "tcp", port: 443 },
    fleet(made()),
  );
  assert.equal(r.outcome, "delivered");
  assert.equal(path(r), "gw > core > edge");
  assert.deepEqual(r.hops[0].packet, {
    src: "10.0.12.1",
    dst: "10.5.0.10",
    protocol: "tcp",
    dst_port: 443,
  });
  assert.equal(r.hops[0].route?.id, "*2");
  assert.equal(r.hops[0].out_interface, "ether2");
  assert.equal(r.hops[0].next_hop, "10.0.12.2");
  assert.equal(r.hops[1].in_interface, "ether3");
  assert.match(
    r.reason,
    /10\.5\.0\.10 is on edge's connected subnet 10\.5\.0\.0\/24 out of bridge/,
  );
  // core's "may drop" rule (an address list it has not read) is shown, and the trace went on
  const may = r.hops[1].rules.find((s) => s.rule_id === "*3");
  assert.equal(may, undefined, "*3 takes only 10.5.0.99");
});

Deno.test("trace: a forward rule that drops names the rule; one that may drop is shown", async () => {
  const r = await tracePath(
    { from: "gw", destination: "10.5.0.10", protocol: "tcp", port: 23 },
    fleet(made()),
  );
  assert.equal(r.outcome, "dropped");
  assert.deepEqual(r.stopped_at, { device: "core", rule_id: "*2" });
  assert.match(
    r.reason,
    /^core filter forward rule \*2 drops it: chain=forward action=drop protocol=tcp dst-address=10\.5\.0\.0\/24 dst-port=23$/,
  );
  const maybe = await tracePath(
    { from: "gw", destination: "10.5.0.99", protocol: "udp", port: 53 },
    fleet(made()),
  );
  assert.equal(maybe.outcome, "delivered");
  const step = maybe.hops[1].rules.find((s) => s.rule_id === "*3");
  assert.equal(step?.certain, false);
  assert.deepEqual(step?.unknown, ["src-address-list=blocked (address list blocked was not read)"]);
  // no protocol given: the telnet rule may match
  const any = await tracePath({ from: "gw", destination: "10.5.0.10" }, fleet(made()));
  assert.equal(any.outcome, "delivered");
  assert.ok(any.hops[1].rules.some((s) => s.rule_id === "*2" && !s.certain));
});

Deno.test("trace: a port forward from outside (dstnat) and masquerade on the way out (srcnat)", async () => {
  const inbound = await tracePath(
    { from: "gw", source: "198.51.100.7", destination: "203.0.113.2", protocol: "tcp", port: 8080 },
    fleet(made()),
  );
  assert.equal(inbound.outcome, "delivered");
  assert.equal(inbound.hops[0].in_interface, "ether1");
  assert.deepEqual(inbound.hops[0].nat, [{
    chain: "dstnat",
    rule_id: "*2",
    text: "dst 203.0.113.2:8080 → 10.5.0.20:80 (dst-nat)",
  }]);
  assert.equal(path(inbound), "gw > core > edge");
  assert.deepEqual(inbound.hops[2].packet, {
    src: "198.51.100.7",
    dst: "10.5.0.20",
    protocol: "tcp",
    dst_port: 80,
  });

  const outbound = await tracePath(
    { from: "edge", source: "10.5.0.10", destination: "8.8.8.8", protocol: "udp", port: 53 },
    fleet(made()),
  );
  assert.equal(outbound.outcome, "left-fleet");
  assert.equal(path(outbound), "edge > core > gw");
  assert.equal(outbound.hops[0].in_interface, "bridge");
  assert.deepEqual(outbound.hops[2].nat.map((n) => n.text), [
    "src 10.5.0.10 → 203.0.113.2 (masquerade)",
  ]);
  assert.match(
    outbound.reason,
    /next hop 203\.0\.113\.1 \(out of ether1 of gw\) is not a fleet device/,
  );
});

Deno.test("trace: a mangle routing mark picks another table", async () => {
  const r = await tracePath(
    { from: "gw", source: "203.0.113.66", destination: "10.5.0.200", protocol: "icmp" },
    fleet(made()),
  );
  // core marks it "detour", whose route sends it back to gw, which sends it to core again
  assert.equal(r.hops[1].route?.table, "detour");
  assert.ok(r.hops[1].rules.some((s) => s.effect === "mark-routing" && s.certain));
  assert.equal(r.outcome, "loop");
});

Deno.test("trace: blackhole, no route, loop, a device that cannot be read, the router itself", async () => {
  const black = await tracePath({ from: "gw", destination: "10.66.1.1" }, fleet(made()));
  assert.equal(black.outcome, "left-fleet", "gw sends it to the internet");
  const black2 = await tracePath({ from: "core", destination: "10.66.1.1" }, fleet(made()));
  assert.equal(black2.outcome, "blackhole");
  assert.deepEqual(black2.stopped_at, { device: "core", route_id: "*3" });

  const noRoute = await tracePath(
    { from: "edge", destination: "10.77.0.1" },
    fleet({
      ...made(),
      edge: { ...made().edge, routes: [] },
    }),
  );
  assert.equal(noRoute.outcome, "no-route");
  assert.match(noRoute.reason, /edge has no route to 10\.77\.0\.1 \(table main\)/);

  const loop = await tracePath({ from: "core", destination: "10.99.0.5" }, fleet(made()));
  assert.equal(loop.outcome, "loop");
  assert.match(loop.reason, /routing loop \(core → edge → core/);

  const down = await tracePath({ from: "gw", destination: "10.5.0.10" }, fleet(made(), ["core"]));
  assert.equal(down.outcome, "device-unreachable");
  assert.match(down.reason, /core could not be read: connection timed out/);

  const own = await tracePath({ from: "gw", destination: "10.0.23.2" }, fleet(made()));
  assert.equal(own.outcome, "reached-router");
  assert.equal(path(own), "gw > core > edge");
});

Deno.test("trace: the input chain of the router that is the destination", async () => {
  const m = made();
  m.edge.filter = [{ ".id": "*7", chain: "input", action: "drop", "in-interface": "ether3" }];
  const r = await tracePath(
    { from: "gw", destination: "10.5.0.1", protocol: "tcp", port: 22 },
    fleet(m),
  );
  assert.equal(r.outcome, "dropped");
  assert.deepEqual(r.stopped_at, { device: "edge", rule_id: "*7" });
});

Deno.test("trace: ipsec-policy is decided when the router has no IPsec policy, else it may match", async () => {
  const m = made();
  m.gw.nat = [{
    ".id": "*1",
    chain: "srcnat",
    action: "masquerade",
    "ipsec-policy": "out,none",
    "out-interface-list": "WAN",
  }];
  const from = {
    from: "edge",
    source: "10.5.0.10",
    destination: "8.8.8.8",
    protocol: "udp",
    port: 53,
  };
  const unknown = await tracePath(from, fleet(m));
  assert.deepEqual(unknown.hops[2].nat, []);
  assert.ok(unknown.hops[2].rules.some((r) => r.effect === "may translate" && !r.certain));
  const base = fleet(m);
  const noIpsec: TraceFleet = {
    ...base,
    facts: async (d) => ({ ...await base.facts(d), noIpsec: true }),
  };
  const known = await tracePath(from, noIpsec);
  assert.deepEqual(known.hops[2].nat.map((n) => n.text), [
    "src 10.5.0.10 → 203.0.113.2 (masquerade)",
  ]);
});

/**
 * Route lookup (`lib/routeros/route_lookup.ts`) on real RouterOS route
 * tables (MikroTik's v7 policy routing example, a RouterOS 6 table) and on
 * made ones: longest prefix, distance, ECMP, routing marks, policy rules
 * (lookup, lookup-only-in-table, drop, min-prefix), VRFs, blackholes;
 * NAT translation (`nat_translate.ts`); WAN detection (`wan.ts`).
 */
import assert from "node:assert/strict";
import {
  gatewayResolver,
  lookupRoute,
  nextHops,
  type Row,
} from "../../lib/routeros/route_lookup.ts";
import { translate } from "../../lib/routeros/nat_translate.ts";
import { lanPrefixes, taggedWan, wanInterfaces } from "../../lib/routeros/wan.ts";
import { interfaceListMembers } from "../../lib/routeros/interface_lists.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";
import { detailRecords } from "../helpers/detail_records.ts";

const V7_FLAGS = { A: "active", D: "dynamic", c: "connect", s: "static", X: "disabled" };
const V6_FLAGS = { A: "active", D: "dynamic", C: "connect", S: "static", X: "disabled" };

Deno.test({
  name: "route lookup: MikroTik's v7 policy routing example (main, a routing mark, rules, a VRF)",
  ignore: !realOutputAvailable(),
  fn() {
    const c = capture("print-ip-route-detail-v7-policy-routing-docs.txt");
    const routes = detailRecords(c.blocks[1], V7_FLAGS);
    assert.equal(routes.length, 5);
    const addresses = [
      { address: "172.16.1.2/24", interface: "ether8" },
      { address: "172.16.2.2/24", interface: "ether7" },
    ];
    const facts = { routes, addresses };
    const main = lookupRoute(facts, { dst: "8.8.8.8" });
    assert.equal(main.outcome, "route");
    assert.equal(main.route?.["dst-address"], "8.8.8.8/32");
    assert.deepEqual(main.hops, [{ gateway: "172.16.1.1", interface: "ether8" }]);
    assert.equal(lookupRoute(facts, { dst: "1.1.1.1" }).route?.["dst-address"], "0.0.0.0/0");
    const onLink = lookupRoute(facts, { dst: "172.16.2.9" });
    assert.deepEqual(onLink.hops, [{ interface: "ether7" }]);
    assert.equal(lookupRoute(facts, { dst: "172.16.2.2" }).outcome, "local");

    // mangle's mark-routing=myTable: that table first
    const marked = lookupRoute(facts, { dst: "8.8.8.8", routingMark: "myTable" });
    assert.equal(marked.table, "myTable");
    assert.deepEqual(marked.hops, [{ gateway: "172.16.2.1", interface: "ether7" }]);
    // a mark whose table has no route: the lookup goes on to main
    const fellBack = lookupRoute(facts, { dst: "1.1.1.1", routingMark: "myTable" });
    assert.equal(fellBack.table, "main");
    assert.match(fellBack.steps[0].text, /table myTable has no route to 1\.1\.1\.1/);

    const rules = (r: Row) => ({ ...facts, rules: [{ ".id": "*1", ...r }] });
    const only = lookupRoute(
      rules({ "src-address": "172.16.2.0/24", action: "lookup-only-in-table", table: "myTable" }),
      { dst: "1.1.1.1", src: "172.16.2.9" },
    );
    assert.equal(only.outcome, "no-route");
    assert.equal(only.table, "myTable");
    const lookup = lookupRoute(
      rules({ "src-address": "172.16.2.0/24", action: "lookup", table: "myTable" }),
      { dst: "1.1.1.1", src: "172.16.2.9" },
    );
    assert.equal(lookup.table, "main", "lookup goes on when its table has no route");
    const viaRule = lookupRoute(
      rules({ "dst-address": "8.8.8.0/24", action: "lookup", table: "myTable" }),
      { dst: "8.8.8.8" },
    );
    assert.equal(viaRule.route?.gateway, "172.16.2.1");
    const dropped = lookupRoute(rules({ "dst-address": "8.8.8.8", action: "drop" }), {
      dst: "8.8.8.8",
    });
    assert.equal(dropped.outcome, "drop");
    assert.equal(dropped.rule?.[".id"], "*1");
    const unknownSource = lookupRoute(
      rules({ "src-address": "10.0.0.0/8", action: "drop" }),
      { dst: "8.8.8.8" },
    );
    assert.equal(unknownSource.outcome, "route");
    assert.match(unknownSource.steps[0].text, /may match .*source is not known/);
    // min-prefix=0 hides the default route of the table it looks up
    const suppressed = lookupRoute(
      rules({ action: "lookup-only-in-table", table: "main", "min-prefix": "0" }),
      { dst: "1.1.1.1" },
    );
    assert.equal(suppressed.outcome, "no-route");
    // an interface in a VRF looks up the VRF's table only
    const vrf = lookupRoute({
      ...facts,
      vrfs: [{ ".id": "*1", name: "myTable", interfaces: "ether7" }],
    }, {
      dst: "1.1.1.1",
      inInterface: "ether7",
    });
    assert.equal(vrf.outcome, "no-route");
    assert.equal(vrf.table, "myTable");
  },
});

Deno.test({
  name: "route lookup: a RouterOS 6 table (gateway-status, routing-mark, inactive routes)",
  ignore: !realOutputAvailable(),
  fn() {
    const c = capture("print-ip-route-detail-v6-ansible.txt");
    const routes = detailRecords(c.blocks[0], V6_FLAGS);
    assert.ok(routes.length >= 5);
    const facts = { routes, addresses: [] };
    const def = lookupRoute(facts, { dst: "8.8.8.8" });
    assert.equal(def.route?.gateway, "85.15.75.109");
    assert.deepEqual(def.hops, [{ gateway: "85.15.75.109", interface: "Internet-VTK" }]);
    // 10.10.1.4/30 is not active (gateway RB2011 unreachable): not used
    assert.equal(lookupRoute(facts, { dst: "10.10.1.5" }).route?.gateway, "85.15.75.109");
    // the connected route of routing mark altegro is in that table only
    assert.equal(lookupRoute(facts, { dst: "10.10.66.2" }).route?.gateway, "85.15.75.109");
    const marked = lookupRoute(facts, { dst: "10.10.66.2", routingMark: "altegro" });
    assert.deepEqual(marked.hops, [{ interface: "bridge1" }]);
  },
});

Deno.test("route lookup: longest prefix, then distance; ECMP; blackhole and RouterOS 6 route types", () => {
  const routes: Row[] = [
    { ".id": "*1", "dst-address": "0.0.0.0/0", gateway: "10.0.0.1", distance: "1", active: "true" },
    {
      ".id": "*2",
      "dst-address": "10.9.0.0/16",
      gateway: "10.0.0.2",
      distance: "5",
      active: "true",
    },
    {
      ".id": "*3",
      "dst-address": "10.9.0.0/16",
      gateway: "10.0.0.3",
      distance: "2",
      active: "true",
    },
    {
      ".id": "*4",
      "dst-address": "10.9.9.0/24",
      gateway: "10.0.0.4,10.0.0.5",
      distance: "1",
      active: "true",
    },
    {
      ".id": "*5",
      "dst-address": "10.66.0.0/16",
      blackhole: "true",
      distance: "1",
      active: "true",
    },
    {
      ".id": "*6",
      "dst-address": "10.67.0.0/16",
      type: "unreachable",
      distance: "1",
      active: "yes",
    },
    { ".id": "*7", "dst-address": "10.68.0.0/16", gateway: "10.0.0.9", disabled: "true" },
    {
      ".id": "*8",
      "dst-address": "10.0.0.0/24",
      gateway: "ether1",
      connect: "true",
      active: "true",
    },
  ];
  const facts = { routes, addresses: [{ address: "10.0.0.254/24", interface: "ether1" }] };
  assert.equal(lookupRoute(facts, { dst: "10.9.1.1" }).route?.[".id"], "*3");
  const ecmp = lookupRoute(facts, { dst: "10.9.9.9" });
  assert.deepEqual(ecmp.hops, [
    { gateway: "10.0.0.4", interface: "ether1" },
    { gateway: "10.0.0.5", interface: "ether1" },
  ]);
  assert.equal(lookupRoute(facts, { dst: "10.66.1.1" }).kind, "blackhole");
  assert.equal(lookupRoute(facts, { dst: "10.67.1.1" }).kind, "unreachable");
  assert.equal(lookupRoute(facts, { dst: "10.68.1.1" }).route?.[".id"], "*1");
  assert.deepEqual(nextHops({ gateway: "192.0.2.1%pppoe-out1" }, facts), [
    { gateway: "192.0.2.1", interface: "pppoe-out1" },
  ]);
  assert.deepEqual(nextHops({ gateway: "10.0.0.1@main" }, facts), [
    { gateway: "10.0.0.1", interface: "ether1" },
  ]);
  assert.equal(lookupRoute({ routes: [], addresses: [] }, { dst: "1.1.1.1" }).outcome, "no-route");
});

Deno.test("NAT: dst-nat, redirect, netmap, src-nat, masquerade, with ranges noted", () => {
  const p = { src: "198.51.100.7", dst: "203.0.113.2", dstPort: 8080 };
  const fwd = translate(
    { chain: "dstnat", action: "dst-nat", "to-addresses": "10.5.0.20", "to-ports": "80" },
    "dstnat",
    p,
  );
  assert.deepEqual(fwd.after, { src: "198.51.100.7", dst: "10.5.0.20", dstPort: 80 });
  assert.equal(fwd.text, "dst 203.0.113.2:8080 → 10.5.0.20:80 (dst-nat)");
  const redirect = translate(
    { chain: "dstnat", action: "redirect", "to-ports": "3128" },
    "dstnat",
    p,
    {
      inAddress: "10.1.0.1",
    },
  );
  assert.deepEqual(redirect.after, { ...p, dst: "10.1.0.1", dstPort: 3128 });
  const map = translate(
    { chain: "dstnat", action: "netmap", "to-addresses": "10.50.0.0/24" },
    "dstnat",
    { dst: "203.0.113.77" },
  );
  assert.equal(map.after.dst, "10.50.0.77");
  const masq = translate({ chain: "srcnat", action: "masquerade" }, "srcnat", {
    src: "10.5.0.10",
    dst: "8.8.8.8",
  }, { outAddress: "203.0.113.2" });
  assert.equal(masq.after.src, "203.0.113.2");
  assert.equal(masq.text, "src 10.5.0.10 → 203.0.113.2 (masquerade)");
  const pool = translate(
    { chain: "srcnat", action: "src-nat", "to-addresses": "198.51.100.10-198.51.100.20" },
    "srcnat",
    { src: "10.5.0.10", dst: "8.8.8.8" },
  );
  assert.equal(pool.after.src, "198.51.100.10");
  assert.match(pool.note ?? "", /several values/);
});

Deno.test("WAN: inventory tags and the WAN list; else the default route's interface unless it is LAN", () => {
  const lists = interfaceListMembers(
    [{ name: "WAN" }, { name: "LAN" }],
    [
      { list: "WAN", interface: "ether1" },
      { list: "LAN", interface: "bridge" },
    ],
  );
  const addresses = [
    { address: "192.168.88.1/24", interface: "bridge" },
    { address: "100.64.0.2/30", interface: "ether2" },
    { address: "10.9.0.1/24", interface: "ether3" },
  ];
  const routes: Row[] = [
    { ".id": "*1", "dst-address": "0.0.0.0/0", gateway: "100.64.0.1", active: "true" },
    { ".id": "*2", "dst-address": "0.0.0.0/0", gateway: "192.168.88.254", active: "true" },
    { "dst-address": "100.64.0.0/30", gateway: "ether2", connect: "true", active: "true" },
    { "dst-address": "192.168.88.0/24", gateway: "bridge", connect: "true", active: "true" },
  ];
  const wan = wanInterfaces({
    lists,
    routes,
    addresses,
    tagged: taggedWan(["core", "wan:lte1", "WAN:sfp1"]),
  });
  assert.deepEqual(wan, [
    { name: "lte1", why: ["inventory tag wan:lte1"] },
    { name: "sfp1", why: ["inventory tag wan:sfp1"] },
    { name: "ether1", why: ["interface list WAN"] },
  ]);
  assert.deepEqual(lanPrefixes(addresses, wan), [
    "192.168.88.0/24",
    "100.64.0.0/30",
    "10.9.0.0/24",
  ]);
  // Without a WAN list or tags: the default route's interface, unless it is in the LAN list.
  const byRoute = wanInterfaces({
    lists: interfaceListMembers([{ name: "LAN" }], [{ list: "LAN", interface: "bridge" }]),
    routes,
    addresses,
  });
  assert.deepEqual(byRoute, [
    { name: "ether2", why: ["default route *1 via 100.64.0.1 (ether2)"] },
  ]);
  assert.deepEqual(lanPrefixes(addresses, byRoute), ["192.168.88.0/24", "10.9.0.0/24"]);
});

Deno.test({
  name:
    "route lookup: gateways resolved by scope and target-scope agree with MikroTik's v7 example",
  ignore: !realOutputAvailable(),
  fn() {
    // Every route of the capture is active (A): with the router's word taken
    // away, the model resolves each gateway through the connected /24 (scope 10,
    // target-scope 10) and decides as the router did.
    const c = capture("print-ip-route-detail-v7-policy-routing-docs.txt");
    const routes = detailRecords(c.blocks[1], V7_FLAGS).map(({ active: _a, ...r }) => r);
    const addresses = [
      { address: "172.16.1.2/24", interface: "ether8" },
      { address: "172.16.2.2/24", interface: "ether7" },
    ];
    const resolve = gatewayResolver({ routes, addresses });
    for (const r of routes) assert.ok(resolve(r), `${r["dst-address"]} resolves`);
    assert.equal(
      lookupRoute({ routes, addresses }, { dst: "8.8.8.8" }).route?.["dst-address"],
      "8.8.8.8/32",
    );
    // target-scope 5 reaches no connected route (scope 10): the route is not in use.
    const narrowed = routes.map((r) =>
      r["dst-address"] === "8.8.8.8/32" && r["routing-table"] === "main"
        ? { ...r, "target-scope": "5" }
        : r
    );
    assert.equal(
      lookupRoute({ routes: narrowed, addresses }, { dst: "8.8.8.8" }).route?.["dst-address"],
      "0.0.0.0/0",
    );
  },
});

Deno.test("route lookup: a gateway resolves through routes of scope at most the route's target-scope, recursively", () => {
  const addresses = [{ address: "10.0.0.2/30", interface: "ether2" }];
  const back = (o: Row = {}): Row => ({
    ".id": "*1",
    "dst-address": "127.0.0.0/8",
    gateway: "10.0.0.1",
    distance: "1",
    ...o,
  });
  const via: Row = { ".id": "*2", "dst-address": "1.2.3.0/24", gateway: "10.0.0.1", distance: "1" };
  const at = (routes: Row[]) => lookupRoute({ routes, addresses }, { dst: "127.0.0.1" });
  // Defaults: static target-scope 10 reaches the connected /30 (scope 10).
  assert.equal(at([back()]).route?.[".id"], "*1");
  assert.equal(at([back({ "target-scope": "5" })]).outcome, "no-route");
  // The router's word wins: a route printed active is in use.
  assert.equal(at([back({ "target-scope": "5", active: "true" })]).route?.[".id"], "*1");
  // Recursive: 1.2.3.4 lies beyond the static 1.2.3.0/24 (scope 30).
  assert.equal(at([back({ gateway: "1.2.3.4" }), via]).outcome, "no-route");
  const recursive = back({ gateway: "1.2.3.4", "target-scope": "30" });
  assert.equal(at([recursive, via]).route?.[".id"], "*1");
  assert.deepEqual(gatewayResolver({ routes: [recursive, via], addresses })(recursive), [
    via,
    { "dst-address": "10.0.0.0/30", gateway: "ether2", connect: "true", scope: "10" },
  ]);
  assert.equal(at([recursive, { ...via, scope: "40" }]).outcome, "no-route");
  // A resolving route of scope 10 serves the default target-scope.
  assert.equal(at([back({ gateway: "1.2.3.4" }), { ...via, scope: "10" }]).route?.[".id"], "*1");
  // Interface gateways and address%interface need no lookup; a blackhole none at all.
  assert.equal(at([back({ gateway: "ether2", "target-scope": "0" })]).route?.[".id"], "*1");
  assert.equal(
    at([back({ gateway: "10.9.9.9%ether2", "target-scope": "0" })]).route?.[".id"],
    "*1",
  );
  // Two routes resolving through each other resolve nothing.
  const loop: Row[] = [
    { ".id": "*3", "dst-address": "9.9.9.0/24", gateway: "8.8.8.8", "target-scope": "30" },
    { ".id": "*4", "dst-address": "8.8.8.0/24", gateway: "9.9.9.9", "target-scope": "30" },
  ];
  assert.equal(lookupRoute({ routes: loop, addresses }, { dst: "9.9.9.1" }).outcome, "no-route");
});

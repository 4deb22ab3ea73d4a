/**
 * The lock-out guard's IPv6 decisions, on real IPv6 inputs: the route back
 * an `/ipv6/address` change leaves (lockout_routes.ts `routeBackChange`,
 * the function the address rule calls with what it read) and the
 * interfaces the session arrives on (lockout_session.ts
 * `sessionInterfaces`).
 *
 * Why a unit test, not one through MCP against the simulator: the
 * simulator and this server meet on one machine, so the router end and
 * this host's end of the SSH socket are one address. On `::1` the
 * simulated router holds `::1/128`, and on any other local IPv6 address the
 * kernel takes the destination itself as the source (RFC 6724 rule 1), so
 * every lookup of the route back ends on the router itself ("local"), which
 * the rule rightly leaves alone. Adding a ULA to `lo` from a test would
 * change the host's routing for every process on it (here `fd00::1` is the
 * machine's IPv6 default gateway), and the product has no source-address
 * option to make the ends differ.
 *
 * The rows have the shapes RouterOS 7 prints (real-output
 * print-ipv6-route-detail-v7-docs.txt: a SLAAC default route through a
 * link-local gateway `fe80::...%ether1`, `immediate-gw` likewise; the
 * address print's `2001:db8::1/64` on ether1).
 */
import assert from "node:assert/strict";
import { routeBackChange } from "../../lib/tools/guard/lockout_routes.ts";
import { sessionInterfaces, type SessionReads } from "../../lib/tools/guard/lockout_session.ts";
import type { RoutingFacts } from "../../lib/routeros/route_lookup.ts";

/** The router, managed at 2001:db8:ffff::1/128 on the bridge `loopback`, uplink ether1. */
const ROUTER = "2001:db8:ffff::1";
/** This server, reached through the default route. */
const SERVER = "2001:db8:5::3";

const FACTS: RoutingFacts = {
  addresses: [
    { ".id": "*1", address: "2001:db8::1/64", interface: "ether1" },
    { ".id": "*2", address: `${ROUTER}/128`, interface: "loopback" },
    { ".id": "*3", address: "fe80::219:d1ff:fe39:3535/64", interface: "ether1", dynamic: "true" },
  ],
  routes: [
    {
      ".id": "*80000001",
      "dst-address": "::/0",
      "routing-table": "main",
      gateway: "fe80::ba69:f4ff:fe84:7b2%ether1",
      "immediate-gw": "fe80::ba69:f4ff:fe84:7b2%ether1",
      distance: "1",
      active: "true",
      slaac: "true",
      dynamic: "true",
    },
    {
      ".id": "*80000002",
      "dst-address": "2001:db8::/64",
      "routing-table": "main",
      gateway: "ether1",
      "immediate-gw": "ether1",
      distance: "0",
      active: "true",
      connect: "true",
      dynamic: "true",
    },
  ],
};

Deno.test("routeBackChange IPv6: an address on another port whose network holds this server's address cuts", () => {
  const cut = routeBackChange(
    FACTS,
    { address: { added: { address: "2001:db8:5::1/64", interface: "ether5" } } },
    ROUTER,
    [SERVER],
  );
  assert.ok(cut, "2001:db8:5::1/64 on ether5 takes the replies to 2001:db8:5::3 away from ether1");
  assert.match(cut, /\(2001:db8:ffff::1 → 2001:db8:5::3\) would go via ether5 by route/);
  // The new connected route is named as RouterOS prints it (RFC 5952), not 2001:db8:5:0:0:0:0:0.
  assert.match(cut, / 2001:db8:5::\/64 via ether5 /);
  assert.match(cut, /now they go via fe80::ba69:f4ff:fe84:7b2 on ether1 by route \*80000001 ::\/0/);
  // A longer prefix given in full form is the same network.
  assert.ok(
    routeBackChange(
      FACTS,
      { address: { added: { address: "2001:0db8:0005:0000::1/96", interface: "ether5" } } },
      ROUTER,
      [SERVER],
    ),
  );
});

Deno.test("routeBackChange IPv6: another network, the same network on the same port, or this router's own address cut nothing; a covering /32 does", () => {
  const other = { address: "2001:db8:6::1/64", interface: "ether5" };
  assert.equal(routeBackChange(FACTS, { address: { added: other } }, ROUTER, [SERVER]), undefined);
  // A /32 on ether5 holds the server too, and is more specific than ::/0.
  assert.ok(
    routeBackChange(
      FACTS,
      { address: { added: { address: "2001:db8:5::1/32", interface: "ether5" } } },
      ROUTER,
      [SERVER],
    ),
  );
  // A server on ether1's own subnet: a second address of that subnet on ether1 changes nothing.
  assert.equal(
    routeBackChange(
      FACTS,
      { address: { added: { address: "2001:db8::2/64", interface: "ether1" } } },
      ROUTER,
      ["2001:db8::99"],
    ),
    undefined,
  );
  // The server's address held by the router (the simulator on ::1): the lookup ends there.
  assert.equal(
    routeBackChange(
      FACTS,
      { address: { added: { address: "::1/128", interface: "lo" } } },
      ROUTER,
      [ROUTER],
    ),
    undefined,
  );
});

Deno.test("routeBackChange IPv6: removing the address whose connected route carries the replies cuts", () => {
  const cut = routeBackChange(
    FACTS,
    { address: { removed: { ".id": "*1", address: "2001:db8::1/64", interface: "ether1" } } },
    ROUTER,
    ["2001:db8::99"],
  );
  assert.ok(cut, "the replies to 2001:db8::99 leave by ether1's connected route 2001:db8::/64");
  assert.match(cut, /now they go via ether1/);
});

Deno.test("sessionInterfaces IPv6: a loopback-managed router is reached through the link-local gateway's port", () => {
  const reads: SessionReads = {
    routerAddress: ROUTER,
    localAddress: SERVER,
    dialledPort: 22,
    services: [{ name: "ssh", port: "22", disabled: "false" }],
    active: [{ address: SERVER }],
    addresses: FACTS.addresses.map((a) => ({ ...a, disabled: "false", invalid: "false" })),
    routes: [FACTS.routes[0]].map((r) => ({ ...r }) as Record<string, string>),
  };
  assert.deepEqual(sessionInterfaces(reads), { path: ["ether1"], held: ["loopback"] });
  // On ether1's own subnet: ether1, whatever the routes say.
  assert.deepEqual(
    sessionInterfaces({ ...reads, localAddress: "2001:db8::99", active: [], routes: [] }),
    { path: ["ether1"], held: ["loopback"] },
  );
});

/**
 * What an address change does to the routing facts a route lookup sees:
 * its connected route, and the routes whose gateway it reached
 * (lib/routeros/connected_routes.ts), on rows shaped as RouterOS 7 and 6
 * print them (real-output terse-ip-route-mixed-v6-v7.txt: `DAc` rows on 7,
 * `ADC` with `distance=0` on 6).
 */
import assert from "node:assert/strict";
import { isConnectedRouteOf, withAddressChange } from "../../lib/routeros/connected_routes.ts";
import { networkOf } from "../../lib/routeros/prefix.ts";
import { lookupRoute, type RoutingFacts } from "../../lib/routeros/route_lookup.ts";

const FACTS: RoutingFacts = {
  addresses: [
    { address: "10.255.0.1/32", interface: "loopback" },
    { address: "198.51.100.2/30", interface: "ether1" },
  ],
  routes: [
    { ".id": "*1", "dst-address": "0.0.0.0/0", gateway: "198.51.100.1", distance: "1" },
    {
      ".id": "*80000001",
      "dst-address": "198.51.100.0/30",
      gateway: "ether1",
      distance: "0",
      connect: "true",
    },
  ],
};

const via = (facts: RoutingFacts, dst: string) => {
  const r = lookupRoute(facts, { dst, src: "10.255.0.1", inInterface: null });
  return r.outcome === "route" ? r.hops?.map((h) => h.gateway ?? h.interface).join(",") : r.outcome;
};

Deno.test("networkOf: the network of an interface address, IPv4 and IPv6", () => {
  assert.equal(networkOf("10.0.5.3/16"), "10.0.0.0/16");
  assert.equal(networkOf("127.0.0.2/24"), "127.0.0.0/24");
  assert.equal(networkOf("10.0.0.1/32"), "10.0.0.1/32");
  assert.equal(networkOf("2001:db8:99::1/64"), "2001:db8:99::/64");
  // RFC 5952, as RouterOS prints it: the longest zero run (the first of equal ones) as "::".
  assert.equal(networkOf("::/0"), "::/0");
  assert.equal(networkOf("fe80::219:d1ff:fe39:3535/64"), "fe80::/64");
  assert.equal(networkOf("2001:db8:0:1:0:0:5:1/128"), "2001:db8:0:1::5:1/128");
  assert.equal(networkOf("2001:0:0:1:0:0:0:1/128"), "2001:0:0:1::1/128");
  assert.equal(networkOf("2001:db8:1:2:3:4:5:6/127"), "2001:db8:1:2:3:4:5:6/127");
  assert.equal(networkOf("1:0:0:0:0:0:0:0/16"), "1::/16");
  assert.equal(networkOf("0:0:0:0:0:0:0:1/128"), "::1/128");
  assert.equal(networkOf("10.0.0.1"), undefined);
  assert.equal(networkOf("10.0.0.1/33"), undefined);
});

Deno.test("withAddressChange: an added address's connected route is more specific", () => {
  assert.equal(via(FACTS, "203.0.113.7"), "198.51.100.1");
  const after = withAddressChange(FACTS, {
    added: { address: "203.0.113.1/24", interface: "ether5" },
  });
  assert.equal(via(after, "203.0.113.7"), "ether5");
  assert.equal(via(after, "192.0.2.1"), "198.51.100.1", "elsewhere unchanged");
});

Deno.test("withAddressChange: a removed address takes its connected route and the gateways it reached", () => {
  const after = withAddressChange(FACTS, {
    removed: { address: "198.51.100.2/30", interface: "ether1" },
  });
  assert.equal(after.routes.length, 0, "the connected route and the default route through it go");
  assert.equal(via(after, "203.0.113.7"), "no-route");
  // Another address of ether1 in the same network keeps the connected route.
  const two = {
    ...FACTS,
    addresses: [...FACTS.addresses, { address: "198.51.100.3/30", interface: "ether1" }],
  };
  const kept = withAddressChange(two, {
    removed: { address: "198.51.100.2/30", interface: "ether1" },
  });
  assert.equal(via(kept, "203.0.113.7"), "198.51.100.1");
  // Moving it to another interface: the connected route moves with it.
  const moved = withAddressChange(FACTS, {
    removed: { address: "198.51.100.2/30", interface: "ether1" },
    added: { address: "198.51.100.2/30", interface: "ether2" },
  });
  assert.equal(via(moved, "198.51.100.1"), "ether2");
});

Deno.test("isConnectedRouteOf: RouterOS 7 `connect`, RouterOS 6 dynamic with distance 0", () => {
  const a = { address: "192.168.1.1/24", interface: "bridge-lan" };
  const v7 = { "dst-address": "192.168.1.0/24", gateway: "bridge-lan", connect: "true" };
  const v6 = {
    "dst-address": "192.168.1.0/24",
    gateway: "bridge-lan",
    distance: "0",
    dynamic: "true",
  };
  assert.equal(isConnectedRouteOf(v7, a), true);
  assert.equal(isConnectedRouteOf(v6, a), true);
  assert.equal(isConnectedRouteOf({ ...v7, gateway: "ether2" }, a), false);
  assert.equal(isConnectedRouteOf({ ...v7, "dst-address": "192.168.0.0/16" }, a), false);
  assert.equal(isConnectedRouteOf({ ...v7, connect: "false", distance: "1" }, a), false);
});

Deno.test("withAddressChange: a point-to-point /32 routes to its network; a port's address to its bridge", () => {
  const ptp = withAddressChange(FACTS, {
    added: { address: "10.9.9.1/32", network: "203.0.113.7", interface: "ether6" },
  });
  assert.equal(via(ptp, "203.0.113.7"), "ether6");
  assert.equal(via(ptp, "203.0.113.8"), "198.51.100.1");
  // An address bound to a bridge (a port's): its connected route goes out of the bridge.
  const onPort = {
    ...FACTS,
    addresses: [...FACTS.addresses, {
      ".id": "*9",
      address: "203.0.113.1/24",
      interface: "ether3",
      "actual-interface": "bridge",
    }],
    routes: [...FACTS.routes, {
      "dst-address": "203.0.113.0/24",
      gateway: "bridge",
      distance: "0",
      connect: "true",
    }],
  };
  assert.equal(via(onPort, "203.0.113.7"), "bridge");
  const gone = withAddressChange(onPort, {
    removed: { ".id": "*9", address: "203.0.113.1/24", interface: "bridge" },
  });
  assert.equal(via(gone, "203.0.113.7"), "198.51.100.1");
});

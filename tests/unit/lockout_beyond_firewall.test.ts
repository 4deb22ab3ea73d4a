/**
 * The lock-out guard's decisions beyond the firewall tables, on tables of
 * routes and IPsec policies: which route changes take away the way the
 * router's replies reach this server, and which policy changes discard or
 * encrypt its session. The routes are those of the RouterOS 7 policy
 * routing example in MikroTik's manual (`../shared/real-output/
 * print-ip-route-detail-v7-policy-routing-docs.txt`: a default route via
 * 172.16.1.1 on ether8, connected 172.16.1.0/24 and 172.16.2.0/24, and a
 * `myTable` route via 172.16.2.1), as `print as-value` gives them.
 */
import assert from "node:assert/strict";
import { routeBackChange } from "../../lib/tools/guard/lockout_routes.ts";
import { ipsecChange } from "../../lib/tools/guard/lockout_ipsec.ts";
import type { FirewallRule } from "../../lib/routeros/rule_match.ts";

const ROUTES: Record<string, string>[] = [
  {
    ".id": "*80000001",
    "dst-address": "0.0.0.0/0",
    "routing-table": "main",
    gateway: "172.16.1.1",
    "immediate-gw": "172.16.1.1%ether8",
    distance: "1",
    active: "true",
    dynamic: "true",
  },
  {
    ".id": "*80000003",
    "dst-address": "172.16.1.0/24",
    "routing-table": "main",
    gateway: "ether8",
    "immediate-gw": "ether8",
    distance: "0",
    active: "true",
    connect: "true",
  },
  {
    ".id": "*1",
    "dst-address": "8.8.8.8/32",
    "routing-table": "myTable",
    gateway: "172.16.2.1",
    "immediate-gw": "172.16.2.1%ether7",
    distance: "1",
    active: "true",
  },
];
const ADDRESSES = [
  { address: "172.16.1.2/24", interface: "ether8" },
  { address: "172.16.2.2/24", interface: "ether7" },
];
const ROUTER = "172.16.1.2";
/** The server: behind the default route, and one on the connected subnet. */
const FAR = "198.51.100.7";
const NEAR = "172.16.1.50";

function cut(
  change: Parameters<typeof routeBackChange>[1],
  sources = [FAR],
  rules: Record<string, string>[] = [],
) {
  const covering = ROUTES.filter((r) =>
    r["dst-address"] === "0.0.0.0/0" || sources.some((s) => s.startsWith("172.16.1."))
  );
  return routeBackChange(
    { routes: covering, addresses: ADDRESSES, rules },
    change,
    ROUTER,
    sources,
  );
}

Deno.test("route back: what takes the router's replies away, and what does not", () => {
  // A blackhole for the server's address, or a prefix holding it.
  assert.match(
    cut({
      added: { ".id": "(new)", "dst-address": `${FAR}/32`, blackhole: "true", distance: "1" },
    })!,
    /\(172\.16\.1\.2 → 198\.51\.100\.7\) would meet blackhole route \(new\) 198\.51\.100\.7\/32 blackhole .* \(now they go via 172\.16\.1\.1 on ether8 by route \*80000001/,
  );
  // RouterOS 6 says blackhole with type=.
  assert.match(
    cut({ added: { ".id": "(new)", "dst-address": "198.51.100.0/24", type: "blackhole" } })!,
    /would meet blackhole route/,
  );
  // A more specific route through another gateway.
  assert.match(
    cut({ added: { ".id": "(new)", "dst-address": "198.51.100.0/24", gateway: "172.16.2.1" } })!,
    /would go via 172\.16\.2\.1 on ether7 by route \(new\)/,
  );
  // The default route removed, disabled or re-pointed.
  assert.match(cut({ removed: "*80000001" })!, /would find no route \(table main\)/);
  assert.match(
    cut({
      removed: "*80000001",
      added: { ...ROUTES[0], gateway: "172.16.2.1", "immediate-gw": "" },
    })!,
    /would go via 172\.16\.2\.1/,
  );
  // Harmless: another prefix, another table, a worse distance, the same gateway.
  assert.equal(
    cut({ added: { ".id": "(new)", "dst-address": "10.0.0.0/8", gateway: "172.16.2.1" } }),
    undefined,
  );
  assert.equal(
    cut({
      added: {
        ".id": "(new)",
        "dst-address": "198.51.100.0/24",
        gateway: "172.16.2.1",
        "routing-table": "myTable",
      },
    }),
    undefined,
  );
  assert.equal(
    cut({
      added: { ".id": "(new)", "dst-address": "0.0.0.0/0", gateway: "172.16.2.1", distance: "5" },
    }),
    undefined,
  );
  assert.equal(
    cut({ added: { ".id": "(new)", "dst-address": "198.51.100.0/24", gateway: "172.16.1.1" } }),
    undefined,
  );
  // A server on the connected subnet does not need the default route.
  assert.equal(cut({ removed: "*80000001" }, [NEAR]), undefined);
  assert.match(
    cut({ added: { ".id": "(new)", "dst-address": `${NEAR}/32`, blackhole: "true" } }, [NEAR])!,
    /172\.16\.1\.50\) would meet blackhole route .* \(now they go via ether8 by route \*80000003/,
  );
  // A policy rule that already sends the replies to myTable (no route there): the default route
  // does not carry them, so removing it changes nothing; the rule is what the refusal names.
  const onlyMyTable = [{
    ".id": "*2",
    "dst-address": "198.51.100.0/24",
    action: "lookup-only-in-table",
    table: "myTable",
  }];
  assert.equal(cut({ removed: "*80000001" }, [FAR], onlyMyTable), undefined);
  assert.equal(
    cut(
      {
        added: {
          ".id": "(new)",
          "dst-address": "198.51.100.0/24",
          gateway: "172.16.2.1",
          "routing-table": "myTable",
        },
      },
      [FAR],
      onlyMyTable,
    ),
    undefined,
    "a way back where the guard sees none is no cut",
  );
  const unreachable = [{ ".id": "*3", "dst-address": "198.51.100.7", action: "unreachable" }];
  assert.equal(cut({ removed: "*80000001" }, [FAR], unreachable), undefined);
  // Removing a blackhole (a rollback) gives a way back: no cut.
  const blackholed = [...ROUTES, { ".id": "*9", "dst-address": `${FAR}/32`, blackhole: "true" }];
  assert.equal(
    routeBackChange({ routes: blackholed, addresses: ADDRESSES }, { removed: "*9" }, ROUTER, [FAR]),
    undefined,
  );
});

const REPLY = { router: "10.0.0.1", sources: ["192.0.2.10"], ports: [22] };

function policies(...rows: Record<string, string>[]): FirewallRule[] {
  return [
    {
      ".id": "*1",
      default: "true",
      template: "true",
      "src-address": "::/0",
      "dst-address": "::/0",
      protocol: "all",
    },
    ...rows,
  ];
}

function ipsec(before: FirewallRule[], after: FirewallRule[], changed?: string) {
  return ipsecChange({ before, after, changed }, REPLY.router, REPLY.sources, REPLY.ports);
}

Deno.test("IPsec policies: discard or encrypt the session's packets, in order", () => {
  const discard = {
    ".id": "*2",
    "src-address": "10.0.0.0/24",
    "dst-address": "192.0.2.0/24",
    action: "discard",
  };
  assert.match(
    ipsec(policies(), policies(discard), "*2")!,
    /the policy would discard the packets of this server's SSH session: action=discard src-address=10\.0\.0\.0\/24 dst-address=192\.0\.2\.0\/24 matches \(the router's replies 10\.0\.0\.1:22 → 192\.0\.2\.10/,
  );
  // The other way round selects the packets the router never sends.
  assert.equal(
    ipsec(
      policies(),
      policies({ ...discard, "src-address": "192.0.2.0/24", "dst-address": "10.0.0.0/24" }),
      "*2",
    ),
    undefined,
  );
  // A protocol or port that is not the session's.
  assert.equal(ipsec(policies(), policies({ ...discard, protocol: "udp" }), "*2"), undefined);
  assert.equal(
    ipsec(policies(), policies({ ...discard, protocol: "tcp", "src-port": "23" }), "*2"),
    undefined,
  );
  assert.match(
    ipsec(policies(), policies({ ...discard, protocol: "tcp", "src-port": "22" }), "*2")!,
    /matches/,
  );
  // Part of the ephemeral ports: may match, counted.
  assert.match(
    ipsec(policies(), policies({ ...discard, protocol: "6", "dst-port": "40000" }), "*2")!,
    /may match/,
  );
  // encrypt, whatever the level; a template selects nothing; a none above exempts the session.
  const encrypt = { ...discard, action: "encrypt", level: "use", peer: "hq" };
  assert.match(
    ipsec(policies(), policies(encrypt), "*2")!,
    /would send into an IPsec tunnel \(to hq, level=use/,
  );
  assert.equal(ipsec(policies(), policies({ ...encrypt, template: "true" }), "*2"), undefined);
  const none = {
    ".id": "*3",
    "src-address": "10.0.0.1/32",
    "dst-address": "192.0.2.10/32",
    action: "none",
  };
  assert.equal(ipsec(policies(none), policies(none, discard), "*2"), undefined);
  // Removing or disabling that exemption is the cut.
  assert.match(
    ipsec(policies(none, discard), policies(discard))!,
    /after the change, policy \*2 would discard/,
  );
  assert.match(
    ipsec(policies(none, discard), policies({ ...none, disabled: "true" }, discard))!,
    /policy \*2 would discard/,
  );
});

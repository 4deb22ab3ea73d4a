/**
 * The fleet graph (`lib/routeros/topology.ts`): neighbours matched to
 * devices by identity, MAC or address (a real RouterOS 6 neighbour table),
 * far ports from `interface-name` or the far side's own entry, links
 * inferred from two-device subnets, shared segments, link state, the paths
 * between two devices, and the Mermaid text.
 */
import assert from "node:assert/strict";
import { buildTopology, type DeviceFacts, pathsBetween } from "../../lib/routeros/topology.ts";
import { topologyMermaid } from "../../lib/routeros/topology_mermaid.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";
import { detailRecords } from "../helpers/detail_records.ts";

const ether = (name: string, mac: string, running = true) => ({
  name,
  type: "ether",
  "mac-address": mac,
  running: String(running),
  disabled: "false",
});

Deno.test({
  name: "topology: a real RouterOS 6 neighbour table, matched by identity and MAC",
  ignore: !realOutputAvailable(),
  fn() {
    const c = capture("print-ip-neighbor-detail-v6-ansible.txt");
    const neighbors = detailRecords(c.blocks[0], {});
    assert.equal(neighbors.length, 4);
    const core: DeviceFacts = {
      title: "core",
      identity: "core",
      interfaces: ["ether2-master", "ether3", "ether5", "ether10"].map((n, i) =>
        ether(n, `02:00:00:00:00:0${i}`)
      ),
      addresses: [],
      neighbors,
    };
    // router1 by identity; router2 by its MAC (its identity differs in the inventory)
    const r1: DeviceFacts = {
      title: "router1",
      identity: "router1",
      interfaces: [ether("ether1", "D4:CA:6D:C6:16:4C"), { name: "bridge", type: "bridge" }],
      addresses: [{ address: "10.37.129.3/24", interface: "bridge" }],
      neighbors: [],
    };
    const r2: DeviceFacts = {
      title: "ap-hall",
      identity: "ap-hall",
      interfaces: [ether("ether1", "D4:CA:6D:C6:18:2F"), {
        name: "bridge",
        type: "bridge",
        running: "false",
      }],
      addresses: [],
      neighbors: [],
    };
    const t = buildTopology([core, r1, r2]);
    const names = t.devices.map((d) => `${d.name}${d.external ? " (external)" : ""}`);
    assert.deepEqual(names, [
      "core",
      "router1",
      "ap-hall",
      "router3 (B8:69:F4:37:F0:C8) (external)",
      "router4 (6C:3B:6B:A1:0B:63) (external)",
    ]);
    const toR1 = t.links.find((l) => l.b.device === "router1");
    assert.deepEqual(toR1?.a, { device: "core", interface: "ether2-master", running: true });
    assert.equal(toR1?.b.interface, "bridge", "the far port is its interface-name");
    assert.deepEqual(toR1?.via, ["mndp"]);
    const toR2 = t.links.find((l) => l.b.device === "ap-hall");
    assert.equal(toR2?.b.interface, "bridge");
    assert.equal(toR2?.up, false, "a link is down when one end is not running");
  },
});

/** A ring of four routers and a branch, one link down, one LAN shared by three. */
function lab(): DeviceFacts[] {
  const dev = (
    n: number,
    ports: [string, string, boolean][],
    neighbors: DeviceFacts["neighbors"] = [],
  ): DeviceFacts => ({
    title: `r${n}`,
    identity: `r${n}`,
    version: "7.16",
    interfaces: ports.map(([p, , up]) => ether(p, `02:00:00:0${n}:00:0${p.slice(-1)}`, up)),
    addresses: ports.map(([p, a]) => ({ address: a, interface: p })),
    neighbors,
  });
  const nb = (iface: string, identity: string, far: string) => ({
    interface: iface,
    identity,
    "interface-name": far,
  });
  return [
    dev(1, [["ether2", "10.0.12.1/30", true], ["ether3", "10.0.41.2/30", true], [
      "ether5",
      "10.9.0.1/24",
      true,
    ]], [nb("ether2", "r2", "ether3"), nb("ether3", "r4", "ether2")]),
    dev(2, [["ether3", "10.0.12.2/30", true], ["ether2", "10.0.23.1/30", true], [
      "ether4",
      "10.0.24.1/30",
      false,
    ]]),
    dev(3, [["ether3", "10.0.23.2/30", true], ["ether2", "10.0.34.1/30", true], [
      "ether4",
      "10.0.35.1/30",
      true,
    ], ["ether5", "10.9.0.3/24", true]]),
    dev(4, [["ether3", "10.0.34.2/30", true], ["ether2", "10.0.41.1/30", true], [
      "ether4",
      "10.0.24.2/30",
      false,
    ], ["ether5", "10.9.0.4/24", true]]),
    dev(5, [["ether2", "10.0.35.2/30", true]]),
  ];
}

Deno.test("topology: discovery and subnet links, ports at both ends, state, segments, paths", () => {
  const t = buildTopology(lab());
  const line = (l: (typeof t.links)[number]) =>
    `${l.a.device}:${l.a.interface}-${l.b.device}:${l.b.interface} ${l.up ? "up" : "down"} ${
      l.via.join("+")
    } ${l.subnet ?? ""}`.trim();
  assert.deepEqual(t.links.map(line).sort(), [
    "r1:ether2-r2:ether3 up mndp+subnet 10.0.12.0/30",
    "r1:ether3-r4:ether2 up mndp+subnet 10.0.41.0/30",
    "r2:ether2-r3:ether3 up subnet 10.0.23.0/30",
    "r2:ether4-r4:ether4 down subnet 10.0.24.0/30",
    "r3:ether2-r4:ether3 up subnet 10.0.34.0/30",
    "r3:ether4-r5:ether2 up subnet 10.0.35.0/30",
  ]);
  const segment = t.subnets.find((s) => s.prefix === "10.9.0.0/24");
  assert.deepEqual(segment?.members.map((m) => m.device), ["r1", "r3", "r4"]);

  // r2 to r4: two shortest paths over up links (the direct link is down)
  const p = pathsBetween(t, "r2", "r4");
  const shown = p.paths.map((path) =>
    path.map((s) => `${s.from}:${s.out}>${s.to}:${s.in}`).join(" ")
  );
  assert.deepEqual(shown.sort(), [
    "r2:ether2>r3:ether3 r3:ether2>r4:ether3",
    "r2:ether2>r3:ether3 r3:ether5>r4:ether5",
    "r2:ether3>r1:ether2 r1:ether3>r4:ether2",
    "r2:ether3>r1:ether2 r1:ether5>r4:ether5",
  ]);
  assert.equal(p.paths[0].length, 2);
  assert.deepEqual(pathsBetween(t, "r5", "r3").paths, [[{
    from: "r5",
    out: "ether2",
    to: "r3",
    in: "ether4",
    up: true,
  }]]);

  // with every other link down, only the down path is left
  const cut = buildTopology(
    lab().map((d) =>
      d.title === "r2"
        ? { ...d, interfaces: d.interfaces.map((i) => ({ ...i, running: "false" })) }
        : d
    ),
  );
  const none = pathsBetween(cut, "r2", "r4");
  assert.deepEqual(none.paths, []);
  assert.equal(none.downPaths.length, 1);
  assert.equal(none.downPaths[0][0].up, false);

  const mmd = topologyMermaid(t);
  assert.match(mmd, /^graph LR\n/);
  assert.match(mmd, /d0\["r1<br\/>7\.16"\]/);
  assert.match(mmd, /d1 -\.-\|"ether4 — ether4 \(down\)"\| d3/);
  assert.match(mmd, /s\d\(\("10\.9\.0\.0\/24"\)\)/);
});

Deno.test("topology: an unreachable device is a node without links", () => {
  const [r1, r2] = lab();
  const t = buildTopology([r1, { ...r2, interfaces: [], addresses: [], error: "timed out" }]);
  assert.deepEqual(t.devices.find((d) => d.name === "r2"), {
    name: "r2",
    external: false,
    identity: "r2",
    version: "7.16",
    reachable: false,
    error: "timed out",
  });
  // r1 still sees r2 by discovery
  assert.ok(t.links.some((l) => l.b.device === "r2" && l.b.interface === "ether3"));
});

/**
 * router_topology and router_trace_path end to end, through MCP and real
 * SSH, on the ring-and-branch lab (`helpers/insight_lab.ts`: five routers
 * of RouterOS 6.49.13, 7.12.2, 7.16.2, 7.20.8 and 7.24, a ring r1–r2–r3–r4,
 * a branch r3–r5, an unplugged cable r2–r4): the topology resources show
 * every link with the ports at both ends and whether it is up; the paths
 * between two routers; traces that reach a host, that name the rule that
 * drops a blocked one, that follow a port forward and masquerade, and that
 * stop at a loop, a blackhole and the edge of the fleet.
 */
import assert from "node:assert/strict";
import { startLab } from "../lib/sim/lab.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { RING_LAB } from "./helpers/insight_lab.ts";
import { callTool } from "./helpers/mcp.ts";

interface Link {
  a: { device: string; interface?: string; address?: string; running?: boolean };
  b: { device: string; interface?: string; address?: string; running?: boolean };
  up?: boolean;
  via: string[];
  subnet?: string;
}
interface Trace {
  outcome: string;
  reason: string;
  hops: {
    device: string;
    in_interface?: string;
    out_interface?: string;
    next_hop?: string;
    packet: { src?: string; dst: string; dst_port?: number };
    route?: { id?: string; dst_address?: string };
    nat: { chain: string; rule_id: string; text: string }[];
    rules: { rule_id: string; effect: string; certain: boolean }[];
  }[];
  stopped_at?: { device: string; rule_id?: string; route_id?: string };
}

Deno.test("topology and path tracing on a five-router ring with a branch", async (t) => {
  const lab = await startLab(RING_LAB);
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(lab.inventory()),
    "--host-key-policy",
    "off",
  ]);
  const trace = async (args: Record<string, unknown>): Promise<Trace> => {
    const r = await callTool(session, "router_trace_path", args);
    assert.ok(!r.isError, r.content[0].text);
    return r.structuredContent as unknown as Trace;
  };
  const devices = (tr: Trace) => tr.hops.map((h) => h.device);
  try {
    await t.step(
      "the topology resource shows every link, with ports at both ends and state",
      async () => {
        const res = await session.client.readResource({ uri: "routeros://fleet/topology" });
        const graph = JSON.parse((res.contents[0] as { text: string }).text) as {
          devices: { name: string; version?: string; reachable: boolean }[];
          links: Link[];
        };
        assert.deepEqual(graph.devices.map((d) => `${d.name} ${d.version}`), [
          "r1 7.16.2",
          "r2 7.20.8",
          "r3 7.12.2",
          "r4 6.49.13",
          "r5 7.24",
        ]);
        const lines = graph.links.map((l) =>
          `${l.a.device}:${l.a.interface}=${l.a.address} ${l.b.device}:${l.b.interface}=${l.b.address} ${
            l.up ? "up" : "down"
          } ${l.via.join("+")}`
        ).sort();
        assert.deepEqual(lines, [
          "r1:ether2=10.0.12.1 r2:ether3=10.0.12.2 up mndp+subnet",
          "r1:ether3=10.0.41.2 r4:ether2=10.0.41.1 up mndp+subnet",
          "r2:ether2=10.0.23.1 r3:ether3=10.0.23.2 up mndp+subnet",
          "r2:ether4=10.0.24.1 r4:ether4=10.0.24.2 down subnet",
          "r3:ether2=10.0.34.1 r4:ether3=10.0.34.2 up mndp+subnet",
          "r3:ether4=10.0.35.1 r5:ether2=10.0.35.2 up mndp+subnet",
        ]);
        const mmd = await session.client.readResource({ uri: "routeros://fleet/topology.mmd" });
        const text = (mmd.contents[0] as { text: string; mimeType: string }).text;
        assert.equal(mmd.contents[0].mimeType, "text/vnd.mermaid");
        assert.match(text, /^graph LR\n/);
        assert.equal(text.match(/---\|/g)?.length, 5, "five links up");
        assert.match(text, /-\.-\|"ether4 — ether4 \(down\)"\|/);
      },
    );

    await t.step(
      "what is between r2 and r4: two paths around the ring (the direct cable is down)",
      async () => {
        const r = await callTool(session, "router_topology", { from: "r2", to: "r4" });
        assert.ok(!r.isError, r.content[0].text);
        const p =
          (r.structuredContent as { paths: { paths: { from: string; to: string }[][] } }).paths;
        assert.deepEqual(
          p.paths.map((x) => x.map((s) => `${s.from}>${s.to}`).join(" ")).sort(),
          ["r2>r1 r1>r4", "r2>r3 r3>r4"],
        );
        assert.match(
          r.content[0].text,
          /^path 1: r2 ether\d → ether\d r[13]; r[13] ether\d → ether\d r4/,
        );
      },
    );

    await t.step("a trace to a host behind r5 takes r1, r2, r3, r5", async () => {
      const tr = await trace({ from: "r1", destination: "10.5.0.10", protocol: "tcp", port: 443 });
      assert.equal(tr.outcome, "delivered");
      assert.deepEqual(devices(tr), ["r1", "r2", "r3", "r5"]);
      assert.deepEqual(tr.hops.map((h) => `${h.in_interface ?? "-"}>${h.out_interface}`), [
        "->ether2",
        "ether3>ether2",
        "ether3>ether4",
        "ether2>bridge",
      ]);
      const route = lab.routers.get("r2")!.items("/ip/route").find((r) =>
        r["dst-address"] === "10.5.0.0/24"
      );
      assert.equal(tr.hops[1].route?.id, route?.[".id"]);
      assert.equal(tr.hops[0].packet.src, "10.0.12.1");
    });

    await t.step("a blocked one names the rule that drops it", async () => {
      const rule = lab.routers.get("r3")!.items("/ip/firewall/filter")
        .find((r) => r.comment === "no telnet to the branch LAN")!;
      const tr = await trace({ from: "r1", destination: "10.5.0.10", protocol: "tcp", port: 23 });
      assert.equal(tr.outcome, "dropped");
      assert.deepEqual(tr.stopped_at, { device: "r3", rule_id: rule[".id"] });
      assert.equal(
        tr.reason,
        `r3 filter forward rule ${rule[".id"]} drops it: chain=forward action=drop protocol=tcp ` +
          "dst-address=10.5.0.0/24 dst-port=23",
      );
      assert.deepEqual(devices(tr), ["r1", "r2", "r3"]);
    });

    await t.step("a port forward on r1 is followed to its inside address", async () => {
      const tr = await trace({
        from: "r1",
        source: "198.51.100.7",
        destination: "203.0.113.2",
        protocol: "tcp",
        port: 8080,
      });
      assert.equal(tr.outcome, "delivered");
      assert.equal(tr.hops[0].in_interface, "ether1");
      assert.deepEqual(tr.hops[0].nat.map((n) => n.text), [
        "dst 203.0.113.2:8080 → 10.5.0.20:80 (dst-nat)",
      ]);
      assert.deepEqual(tr.hops.at(-1)?.packet, {
        src: "198.51.100.7",
        dst: "10.5.0.20",
        protocol: "tcp",
        dst_port: 80,
      });
    });

    await t.step(
      "a host behind r5 reaching the internet: masquerade on r1, then out of the fleet",
      async () => {
        const tr = await trace({
          from: "r5",
          source: "10.5.0.10",
          destination: "8.8.8.8",
          protocol: "udp",
          port: 53,
        });
        assert.equal(tr.outcome, "left-fleet");
        assert.deepEqual(devices(tr), ["r5", "r3", "r2", "r1"]);
        assert.deepEqual(tr.hops[3].nat.map((n) => n.text), [
          "src 10.5.0.10 → 203.0.113.2 (masquerade)",
        ]);
        assert.match(
          tr.reason,
          /next hop 203\.0\.113\.1 \(out of ether1 of r1\) is not a fleet device/,
        );
      },
    );

    await t.step(
      "a loop, a blackhole (RouterOS 6), the input chain of the destination router",
      async () => {
        const loop = await trace({ from: "r2", destination: "10.99.0.1" });
        assert.equal(loop.outcome, "loop");
        assert.deepEqual(devices(loop), ["r2", "r3", "r2"]);
        const black = await trace({ from: "r4", destination: "10.66.0.1" });
        assert.equal(black.outcome, "blackhole");
        assert.equal(black.stopped_at?.device, "r4");
        const input = await trace({
          from: "r4",
          destination: "10.5.0.1",
          protocol: "tcp",
          port: 22,
        });
        assert.equal(input.outcome, "dropped");
        assert.equal(input.stopped_at?.device, "r5");
        assert.match(
          input.reason,
          /^r5 filter input rule \*\w+ drops it: chain=input action=drop in-interface-list=!LAN$/,
        );
      },
    );

    await t.step("router_print gives every matcher of a rule on RouterOS 6 and 7.12", async () => {
      for (const device of ["r4", "r3"]) {
        const r = await callTool(session, "router_print", {
          device,
          path: "/ip/firewall/filter",
          where: { comment: "defconf: accept in ipsec policy" },
        });
        assert.ok(!r.isError, r.content[0].text);
        const [rule] = (r.structuredContent as { items: Record<string, unknown>[] }).items;
        assert.equal(rule["ipsec-policy"], "in,ipsec", device);
      }
    });

    await t.step("argument errors: unknown device, port without tcp or udp", async () => {
      const bad = await callTool(session, "router_trace_path", {
        from: "r9",
        destination: "10.5.0.1",
      });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /unknown device "r9"; valid devices: r1, r2, r3, r4, r5/);
      const port = await callTool(session, "router_trace_path", {
        from: "r1",
        destination: "10.5.0.1",
        port: 80,
      });
      assert.match(port.content[0].text, /port needs protocol tcp or udp/);
      const noFrom = await callTool(session, "router_trace_path", { destination: "10.5.0.1" });
      assert.match(noFrom.content[0].text, /give from: the device the trace starts on/);
    });
  } finally {
    await session.close();
    await lab.close();
  }
});

/**
 * The diagnostics that run on the router (torch, the quick sniffer, IP
 * scan, wake-on-LAN, the bandwidth test) through an MCP client against
 * simulated routers over real SSH: their results on RouterOS 6 and 7 with
 * the commands each release takes, their bounds checked before anything is
 * sent, progress while they run and cancellation that stops the command on
 * the router, roles, the bandwidth test between two routers of the fleet
 * with the server's test server checked there, and its password masked.
 */
import assert from "node:assert/strict";
import { PRINCIPAL_META_KEY } from "../lib/auth/principal.ts";
import { SimNetwork, type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools, type McpSession } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rec = Record<string, unknown>;

/** A simulator whose timed commands answer after a twentieth of their run time. */
async function quickSim(version: string, sent: string[], network?: SimNetwork) {
  return await startSimulator({
    version,
    timeScale: 0.05,
    onCommand: (c) => sent.push(c),
    ...(network ? { network } : {}),
  });
}

function serve(sim: SimRouter, more: string[] = []): Promise<McpSession> {
  return serveInProcess(["--host", sim.host, "--port", String(sim.port), ...more]);
}

/** The commands sent, without the version probe. */
function commands(sent: string[]): string[] {
  return sent.filter((c) => !c.includes("system resource get version"));
}

for (const version of ["6.49.13", "7.12.2", "7.16.2", "7.24"]) {
  Deno.test(`on-router diagnostics on RouterOS ${version}`, async (t) => {
    const sent: string[] = [];
    const sim = await quickSim(version, sent);
    const s = await serve(sim);
    const newer = version >= "7.16";
    try {
      await t.step("torch: the LAN's talkers, busiest first, proplist from 7.16", async () => {
        sent.length = 0;
        const r = await callTool(s, "router_torch", { interface: "bridge", duration_s: 2 });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const flows = r.structuredContent!.flows as Rec[];
        assert.deepEqual(flows.map((f) => f.src_address), ["192.168.88.254", "192.168.88.253"]);
        assert.equal(flows[0].tx_bps, 3_600_000);
        assert.equal(flows[0].rx_bps, 145_500);
        const [cmd] = commands(sent);
        assert.match(cmd, /\/tool torch interface="bridge" src-address="0\.0\.0\.0\/0"/);
        assert.match(cmd, /duration="2s" freeze-frame-interval="1s"/);
        assert.equal(cmd.includes("proplist="), newer, cmd);

        const ports = await callTool(s, "router_torch", {
          interface: "bridge",
          duration_s: 2,
          group_by: ["src-address", "dst-address", "port", "protocol"],
          protocol: "udp",
          limit: 1,
        });
        const p = ports.structuredContent as { flows: Rec[]; more: number };
        assert.deepEqual(p.flows, [{
          src_address: "192.168.88.254",
          src_port: 50254,
          dst_address: "192.168.88.1",
          dst_port: 53,
          service: "dns",
          ip_protocol: "udp",
          ...(newer ? {} : { mac_protocol: "ip" }),
          tx_bps: 1200,
          rx_bps: 680,
          tx_packets_per_s: 1,
          rx_packets_per_s: 1,
        }]);
        assert.equal(p.more, 1, "the other host's DNS flow is left out by limit");
      });

      await t.step("sniffer: packets of one protocol, the newest kept", async () => {
        sent.length = 0;
        const r = await callTool(s, "router_sniff_packets", {
          interface: "bridge",
          duration_s: 2,
          protocol: "icmp",
          max_packets: 3,
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const { packets, more } = r.structuredContent as { packets: Rec[]; more: number };
        assert.equal(packets.length, 3);
        assert.ok(packets.every((x) => x.protocol === "ip:icmp" && x.interface === "bridge"));
        assert.deepEqual(packets.at(-1), {
          time_s: 1.099,
          num: 7,
          interface: "bridge",
          direction: "tx",
          src_mac: "48:A9:8A:12:34:01",
          dst_mac: "A4:83:E7:44:55:66",
          src_address: "192.168.88.1",
          dst_address: "192.168.88.253",
          protocol: "ip:icmp",
          size: 98,
        });
        assert.equal(more, newer ? 0 : 5, "before 7.16 the tool keeps the newest itself");
        const [cmd] = commands(sent);
        assert.equal(cmd.includes(` rows="3" `), newer, cmd);
        assert.ok(!cmd.includes("show-frame"), "payloads are never asked for");
      });

      await t.step(
        "ip-scan: the LAN's hosts; a range over 1,024 addresses is refused",
        async () => {
          const r = await callTool(s, "router_ip_scan", {
            address_range: "192.168.88.0/24",
            duration_s: 1,
          });
          assert.equal(r.isError, undefined, r.content[0]?.text);
          assert.deepEqual(r.structuredContent!.hosts, [
            { address: "192.168.88.1", time_ms: 0 },
            {
              address: "192.168.88.253",
              mac_address: "A4:83:E7:44:55:66",
              time_ms: 2,
              netbios: "PHONE",
            },
            {
              address: "192.168.88.254",
              mac_address: "3C:22:FB:11:22:33",
              time_ms: 3,
              netbios: "LAPTOP",
            },
          ]);
          sent.length = 0;
          const big = await callTool(s, "router_ip_scan", { address_range: "10.0.0.0/16" });
          assert.equal(big.isError, true);
          assert.match(big.content[0].text, /address_range: covers 65536 addresses/);
          const none = await callTool(s, "router_ip_scan", {});
          assert.match(none.content[0].text, /give address_range or interface/);
          assert.deepEqual(commands(sent), [], "nothing was sent");
        },
      );

      await t.step("wake-on-LAN: sent out of the interface; a dry run sends nothing", async () => {
        sent.length = 0;
        const dry = await callTool(s, "router_wake_on_lan", {
          mac: "3c:22:fb:11:22:33",
          interface: "bridge",
          dry_run: true,
        });
        const plan = dry.structuredContent!.dry_run as { commands: string[] };
        assert.deepEqual(plan.commands, ['/tool wol mac="3C:22:FB:11:22:33" interface="bridge"']);
        assert.deepEqual(commands(sent), []);
        const r = await callTool(s, "router_wake_on_lan", {
          mac: "3c:22:fb:11:22:33",
          interface: "bridge",
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.deepEqual(commands(sent), plan.commands);
        const bad = await callTool(s, "router_wake_on_lan", {
          mac: "3C:22:FB:11:22:33",
          interface: "ether9",
        });
        assert.equal(bad.isError, true);
        assert.match(bad.content[0].text, /input does not match any value of interface/);
        assert.match(bad.content[0].text, /No packet was sent/);
      });

      await t.step("bandwidth test to the router itself: rates both ways", async () => {
        const r = await callTool(s, "router_bandwidth_test", {
          to: "127.0.0.1",
          user: "admin",
          direction: "both",
          duration_s: 3,
          local_tx_speed_mbps: 50,
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const out = r.structuredContent!;
        assert.equal(out.status, "done testing");
        assert.equal(out.duration_s, 3);
        assert.deepEqual(out.tx, {
          current_bps: 50_000_000,
          avg_10s_bps: 50_000_000,
          avg_total_bps: 50_000_000,
        });
        assert.equal((out.rx as Rec).current_bps, 941_500_000);
        assert.equal(out.connection_count, version === "6.49.13" ? undefined : 20);
      });
    } finally {
      await s.close();
      await sim.close();
    }
  });
}

Deno.test("bandwidth test between two routers of the fleet: the server's side checked, the password masked", async () => {
  const network = new SimNetwork();
  const sentA: string[] = [];
  const sentB: string[] = [];
  const a = await quickSim("7.24", sentA, network);
  // B listens on 127.0.0.2 and holds it: A's bandwidth test reaches it where the server does.
  const b = await startSimulator({
    version: "7.16.2",
    host: "127.0.0.2",
    timeScale: 0.05,
    network,
    onCommand: (c) => sentB.push(c),
  });
  b.run("/ip address add address=127.0.0.2/32 interface=ether2");
  b.run("/user group add name=btest policy=test,winbox");
  b.run('/user add name=btest group=btest password="s3cret pass"');
  b.run("/tool bandwidth-server set enabled=no");
  const dir = await Deno.makeTempDir({ prefix: "btest-audit-" });
  const audit = `${dir}/audit.jsonl`;
  const inventory = [
    { title: "A", host: a.host, port: a.port },
    { title: "B", host: b.host, port: b.port },
  ];
  const s = await serveInProcess(["--inventory", JSON.stringify(inventory), "--audit-log", audit]);
  try {
    const toB = { device: "A", to: "B", user: "btest", duration_s: 2 };
    const off = await callTool(s, "router_bandwidth_test", {
      device: "A",
      to: "B",
      user: "btest",
      password: "s3cret pass",
    });
    assert.equal(off.isError, true);
    assert.match(off.content[0].text, /device "B" has its bandwidth test server off/);
    assert.match(off.content[0].text, /router_update_bandwidth_server/);
    assert.match(off.content[0].text, /nothing was changed/);
    assert.deepEqual(commands(sentA), [], "nothing was sent to A");
    assert.ok(
      !commands(sentB).some((c) => c.includes("bandwidth-server set")),
      "B was not changed",
    );

    const dry = await callTool(s, "router_bandwidth_test", {
      ...toB,
      password: "s3cret pass",
      dry_run: true,
    });
    const plan = dry.structuredContent!.dry_run as { commands: string[]; problems: string[] };
    assert.match(plan.commands[0], /^\/tool bandwidth-test address="127\.0\.0\.2" protocol="tcp"/);
    assert.ok(!plan.commands[0].includes("s3cret"), plan.commands[0]);
    assert.match(plan.problems[0], /bandwidth test server off/);
    const on = await callTool(s, "router_update_bandwidth_server", { device: "B", enabled: true });
    assert.equal(on.isError, undefined, on.content[0]?.text);
    const wrong = await callTool(s, "router_bandwidth_test", { ...toB, password: "guess" });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0].text, /ended with "authentication failed"/);
    assert.match(wrong.content[0].text, /No configuration was changed on either router/);
    const r = await callTool(s, "router_bandwidth_test", {
      ...toB,
      password: "s3cret pass",
      protocol: "udp",
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    assert.equal(r.structuredContent!.status, "done testing");
    assert.equal(r.structuredContent!.lost_packets, 0);
    assert.equal((r.structuredContent!.rx as Rec).current_bps, 957_300_000);

    // The command reached A with the password; the audit log has it masked.
    assert.ok(commands(sentA).some((c) => c.includes('password="s3cret pass"')));
    const log = await Deno.readTextFile(audit);
    assert.ok(log.includes("router_bandwidth_test"), "audited like a write");
    assert.ok(!log.includes("s3cret"), "the password never reaches the audit log");
    for (const x of [off, wrong, r]) assert.ok(!x.content[0].text.includes("s3cret"));
  } finally {
    await s.close();
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("roles and annotations: the sniffer is admin's, a bandwidth test and WoL need operate", async () => {
  const sent: string[] = [];
  const sim = await quickSim("7.24", sent);
  const s = await serve(sim);
  const as = (role: string) => ({ [PRINCIPAL_META_KEY]: { name: `a ${role} key`, role } });
  const call = (name: string, args: Rec, role: string) =>
    s.client.callTool({ name, arguments: args, _meta: as(role) }) as Promise<
      { isError?: boolean; content: { text: string }[] }
    >;
  try {
    type Listed = { name: string; annotations: Rec };
    const tools = new Map(
      ((await listAllTools(s.client)) as Listed[]).map((x) => [x.name, x]),
    );
    assert.deepEqual(tools.get("router_sniff_packets")?.annotations, {
      readOnlyHint: true,
      openWorldHint: false,
    });
    assert.equal(tools.get("router_ip_scan")?.annotations.openWorldHint, true);
    assert.equal(tools.get("router_wake_on_lan")?.annotations.readOnlyHint, false);
    assert.equal(tools.get("router_bandwidth_test")?.annotations.readOnlyHint, false);
    assert.equal(tools.get("router_bandwidth_test")?.annotations.destructiveHint, false);

    const sniff = { interface: "bridge", duration_s: 1 };
    const refused = await call("router_sniff_packets", sniff, "operate");
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /needs the admin role/);
    assert.equal((await call("router_sniff_packets", sniff, "admin")).isError, undefined);
    const wol = await call(
      "router_wake_on_lan",
      { mac: "3C:22:FB:11:22:33", interface: "bridge" },
      "read",
    );
    assert.match(wol.content[0].text, /needs the operate role/);
    const bt = await call("router_bandwidth_test", { to: "127.0.0.1", user: "admin" }, "read");
    assert.match(bt.content[0].text, /needs the operate role/);
    assert.equal(
      (await call("router_torch", { interface: "bridge", duration_s: 2 }, "read")).isError,
      undefined,
    );
    assert.equal(
      (await call("router_ip_scan", { interface: "bridge", duration_s: 1 }, "read")).isError,
      undefined,
    );
  } finally {
    await s.close();
    await sim.close();
  }
});

Deno.test("a torch reports progress each second; a cancelled bandwidth test stops on the router", async () => {
  // Real time here: a 3 s torch takes 3 s.
  const sim = await startSimulator({ version: "7.24" });
  const s = await serve(sim);
  try {
    const progress: { progress: number; total?: number }[] = [];
    const r = await s.client.callTool(
      { name: "router_torch", arguments: { interface: "bridge", duration_s: 3 } },
      undefined,
      { onprogress: (p: { progress: number; total?: number }) => void progress.push(p) },
    ) as { isError?: boolean };
    assert.equal(r.isError, undefined);
    assert.ok(progress.length >= 2, `${progress.length} progress notifications`);
    for (let i = 1; i < progress.length; i++) {
      assert.ok(progress[i].progress > progress[i - 1].progress);
    }
    assert.deepEqual(progress.at(-1), { progress: 3, total: 3, message: "torch on bridge: done" });

    const controller = new AbortController();
    const started = performance.now();
    const call = s.client.callTool(
      {
        name: "router_bandwidth_test",
        arguments: { to: "127.0.0.1", user: "admin", duration_s: 20 },
      },
      undefined,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 1000);
    await assert.rejects(call);
    assert.ok(performance.now() - started < 5000, "the call ended at once");
    for (let i = 0; i < 50 && sim.counters.interrupted === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(sim.counters.interrupted, 1, "the router saw the command stopped");
    const next = await callTool(s, "router_wake_on_lan", {
      mac: "3C:22:FB:11:22:33",
      interface: "bridge",
    });
    assert.equal(next.isError, undefined, "the connection still serves calls");
  } finally {
    await s.close();
    await sim.close();
  }
});

Deno.test("a run that could outlast --command-timeout is refused before it is sent", async () => {
  const sent: string[] = [];
  const sim = await quickSim("7.24", sent);
  const s = await serve(sim, ["--command-timeout", "8"]);
  try {
    const r = await callTool(s, "router_torch", { interface: "bridge", duration_s: 10 });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /could take up to 13 s, more than the 6 s allowed/);
    assert.match(r.content[0].text, /lower duration_s/);
    assert.ok(!commands(sent).some((c) => c.includes("torch")), "torch was not sent");
    const ok = await callTool(s, "router_torch", { interface: "bridge", duration_s: 3 });
    assert.equal(ok.isError, undefined, ok.content[0]?.text);
  } finally {
    await s.close();
    await sim.close();
  }
});

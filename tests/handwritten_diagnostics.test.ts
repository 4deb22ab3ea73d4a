/**
 * Hand-written diagnostics tools through MCP against the simulator:
 * router_print (allow-list, filters, proplist, masking, injection),
 * router_run_command (only with --allow-raw-commands, destructive), and the
 * bounds of ping and traceroute.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rec = Record<string, unknown>;

/** The simulator's configuration without the export's dated header comments. */
function config(sim: { export(): string }): string {
  return sim.export().replace(/^#.*\n/gm, "");
}

Deno.test("diagnostics tools against a simulated 7.16", async (t) => {
  const sim = await startSimulator({ version: "7.16" });
  const args = ["--host", sim.host, "--port", String(sim.port)];
  const raw = await serveInProcess([...args, "--allow-raw-commands"]);
  const plain = await serveInProcess(args);
  try {
    await t.step(
      "router_run_command is listed only with --allow-raw-commands, as destructive",
      async () => {
        const without = (await listAllTools(plain.client)).map((x: { name: string }) => x.name);
        assert.ok(!without.includes("router_run_command"));
        assert.ok(without.includes("router_print"));
        const tool = (await listAllTools(raw.client)).find((x: { name: string }) =>
          x.name === "router_run_command"
        );
        assert.ok(tool);
        assert.equal(tool.annotations?.destructiveHint, true);
        assert.equal(tool.annotations?.readOnlyHint, false);
        assert.match(tool.description ?? "", /DANGER/);
        const refused = await callTool(plain, "router_run_command", {
          command: ":put 1",
          confirm: true,
        });
        assert.equal(refused.isError, true);
        assert.match(refused.content[0].text, /restart it with --allow-raw-commands/);
        assert.doesNotMatch(refused.content[0].text, /--toolsets/);
      },
    );

    await t.step("router_run_command needs confirm, then returns the raw output", async () => {
      const refused = await callTool(raw, "router_run_command", {
        command: '/system identity set name="changed"',
      });
      assert.equal(refused.isError, true);
      assert.equal(sim.items("/system/identity")[0].name, "MikroTik", "nothing was sent");
      const r = await callTool(raw, "router_run_command", {
        command: ":put [/system identity get name]",
        confirm: true,
      });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal((r.structuredContent?.output as string).trim(), "MikroTik");
      const bad = await callTool(raw, "router_run_command", {
        command: "/nonsense",
        confirm: true,
      });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /\/ has no menu or command "nonsense" on this router/);
      // What passes the check and fails on the router comes back as the router's error.
      const gone = await callTool(raw, "router_run_command", {
        command: "/ip address remove numbers=*99",
        confirm: true,
      });
      assert.equal(gone.isError, true);
      assert.match(gone.content[0].text, /no such item/);
    });

    await t.step(
      "router_print: filters and proplist give exactly the simulator's item",
      async () => {
        const r = await callTool(plain, "router_print", {
          path: "/interface",
          where: { name: "ether2" },
          proplist: ["name", "type", "mtu"],
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const items = r.structuredContent?.items as Rec[];
        const want = sim.items("/interface").filter((i) => i.name === "ether2");
        assert.equal(items.length, 1);
        assert.equal(items[0].name, want[0].name);
        assert.equal(items[0].type, want[0].type);
        assert.equal(String(items[0].mtu), want[0].mtu);
        assert.deepEqual(Object.keys(items[0]).filter((k) => k !== ".id").sort(), [
          "mtu",
          "name",
          "type",
        ]);
      },
    );

    await t.step("router_print: a settings menu gives one record", async () => {
      const r = await callTool(plain, "router_print", { path: "/system/identity" });
      assert.deepEqual((r.structuredContent?.items as Rec[]).map((i) => i.name), ["MikroTik"]);
    });

    await t.step("router_print: secrets are masked", async () => {
      sim.run("/interface wireguard add name=wg-test listen-port=13999");
      const key = sim.items("/interface").find((i) => i.name === "wg-test")?.["private-key"];
      assert.ok(key && key.length > 20, "the simulator made a private key");
      const r = await callTool(plain, "router_print", { path: "/interface/wireguard" });
      const wg = (r.structuredContent?.items as Rec[]).find((i) => i.name === "wg-test");
      assert.equal(wg?.["private-key"], "********");
      assert.ok(!JSON.stringify(r).includes(key), "the private key never appears");
    });

    await t.step("router_print: hostile where values are matched literally", async () => {
      const before = config(sim);
      for (const value of ['ether1" or name~".*', "ether1$x", "[/system reboot]", "a\nb"]) {
        const r = await callTool(plain, "router_print", {
          path: "/interface",
          where: { name: value },
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.equal(r.structuredContent?.count, 0, `nothing is named ${JSON.stringify(value)}`);
      }
      assert.equal(config(sim), before);
    });

    await t.step("router_print: paths and keys outside the allow-lists are refused", async () => {
      const path = await callTool(plain, "router_print", { path: "/tool/sniffer" });
      assert.equal(path.isError, true);
      const key = await callTool(plain, "router_print", {
        path: "/interface",
        where: { "name ~": "x" },
      });
      assert.equal(key.isError, true);
      assert.match(key.content[0].text, /not allowed/);
    });

    await t.step(
      "ping and traceroute refuse to outlast their time budget, sending nothing",
      async () => {
        const sent = sim.counters.commands;
        const p = await callTool(plain, "router_ping", {
          address: "10.0.0.1",
          count: 20,
          interval_ms: 5000,
        });
        assert.equal(p.isError, true);
        assert.match(p.content[0].text, /could take up to 102 s/);
        const tr = await callTool(plain, "router_traceroute", {
          address: "10.0.0.1",
          max_hops: 30,
          count: 5,
          timeout_ms: 3000,
        });
        assert.equal(tr.isError, true);
        assert.match(tr.content[0].text, /lower the count/);
        const big = await callTool(plain, "router_ping", { address: "10.0.0.1", count: 21 });
        assert.equal(big.isError, true);
        assert.equal(sim.counters.commands, sent, "no command reached the router");
      },
    );

    await t.step(
      "ping reports replies and loss (needs /ping as-value in the simulator)",
      async () => {
        const r = await callTool(plain, "router_ping", {
          address: "127.0.0.1",
          count: 2,
          interval_ms: 100,
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.equal(r.structuredContent?.sent, 2);
        assert.equal(r.structuredContent?.received, 2);
        assert.equal(r.structuredContent?.packet_loss_percent, 0);
      },
    );

    await t.step("traceroute lists hops (needs traceroute as-value in the simulator)", async () => {
      const r = await callTool(plain, "router_traceroute", {
        address: "127.0.0.1",
        max_hops: 3,
        timeout_ms: 200,
      });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const hops = r.structuredContent?.hops as Rec[];
      assert.ok(hops.length >= 1);
      assert.equal(hops.at(-1)?.address, "127.0.0.1");
    });
  } finally {
    await raw.close();
    await plain.close();
    await sim.close();
  }
});

Deno.test("ping and traceroute on older RouterOS versions", async (t) => {
  for (const version of ["7.12", "6.49"] as const) {
    const sim = await startSimulator({ version });
    const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
    try {
      await t.step(`${version}: ping counts replies`, async () => {
        const r = await callTool(session, "router_ping", {
          address: "127.0.0.1",
          count: 2,
          interval_ms: 100,
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.equal(r.structuredContent?.sent, 2);
        assert.equal(r.structuredContent?.received, 2);
        const lost = await callTool(session, "router_ping", {
          address: "192.0.2.1",
          count: 2,
          interval_ms: 100,
        });
        assert.equal(lost.isError, undefined, lost.content[0]?.text);
        assert.equal(lost.structuredContent?.received, 0, "a documentation address times out");
      });
      await t.step(`${version}: traceroute`, async () => {
        const r = await callTool(session, "router_traceroute", {
          address: "127.0.0.1",
          max_hops: 3,
          timeout_ms: 200,
        });
        if (version === "6.49") {
          assert.equal(r.isError, true);
          assert.match(r.content[0].text, /needs RouterOS 7/);
        } else {
          assert.equal(r.isError, undefined, r.content[0]?.text);
          assert.equal((r.structuredContent?.hops as Rec[]).at(-1)?.address, "127.0.0.1");
        }
      });
    } finally {
      await session.close();
      await sim.close();
    }
  }
});

Deno.test("router_print refuses a menu or property the router's release lacks, before sending", async () => {
  for (
    const [version, path, where, needs] of [
      [
        "7.12.2",
        "/interface/wifi",
        undefined,
        /\/interface\/wifi is not on RouterOS 7\.12\.2: it needs RouterOS 7\.13 or later/,
      ],
      [
        "7.15.3",
        "/ip/service",
        { "max-sessions": 20 },
        /\/ip\/service has no property max-sessions on RouterOS 7\.15\.3: it needs RouterOS 7\.16 or later/,
      ],
    ] as const
  ) {
    const sim = await startSimulator({ version });
    const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
    try {
      await callTool(session, "router_get_identity", {});
      const sent = sim.counters.commands;
      const r = await callTool(session, "router_print", { path, ...(where ? { where } : {}) });
      assert.equal(r.isError, true, r.content[0].text);
      assert.match(r.content[0].text, needs);
      assert.equal(sim.counters.commands, sent, "nothing reached the router");
    } finally {
      await session.close();
      await sim.close();
    }
  }
});

Deno.test("router_run_command: menus, commands and argument names are checked against the router's own tree first", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--allow-raw-commands",
  ]);
  try {
    const run = (command: string) =>
      callTool(session, "router_run_command", { command, confirm: true });
    await run(":put [/system identity get name]");
    const before = sim.counters.commands;
    const sent = () => sim.counters.commands - before;
    for (
      const [command, why] of [
        [
          "/ip adress print",
          /\/ has no menu or command "adress"|\/ip has no menu or command "adress" on this router \(RouterOS 7\.16\.2\); did you mean address\?/,
        ],
        [
          "/ip/address/ad address=10.1.1.1/24 interface=ether2",
          /\/ip\/address has no menu or command "ad".*did you mean add/,
        ],
        [
          "/ip address add adress=10.1.1.1/24 interface=ether2",
          /\/ip\/address add has no argument "adress".*did you mean address/,
        ],
        [
          "/ip address\nadd adress=10.1.1.1/24 interface=ether2",
          /\/ip\/address add has no argument "adress"/,
        ],
        [
          "/interface wireguard add name=wg9 listen-port=13231 mtu=1420 privat-key=x",
          /has no argument "privat-key"/,
        ],
      ] as const
    ) {
      const r = await run(command);
      assert.equal(r.isError, true, command);
      assert.match(r.content[0].text, why, r.content[0].text);
    }
    // The inspections are reads; nothing of the commands themselves was sent.
    const inspected = sent();
    assert.ok(inspected > 0 && inspected <= 8, `inspections: ${inspected}`);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.1.1.1/24"));
    // A valid command passes, and a repeated path costs no new inspection.
    const ok = await run("/ip address add address=10.1.1.1/24 interface=ether2 comment=checked");
    assert.equal(ok.isError, undefined, ok.content[0]?.text);
    const again = sim.counters.commands;
    await run("/ip address add address=10.1.2.1/24 interface=ether2");
    assert.equal(sim.counters.commands - again, 1, "inspections are kept per connection");
    // Scripting is the router's business.
    const script = await run(':local x [/system identity get name]; :put "x=$x"');
    assert.equal(script.isError, undefined, script.content[0]?.text);
  } finally {
    await session.close();
    await sim.close();
  }
});

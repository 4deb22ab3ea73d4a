/**
 * The permissions `scripts/build.sh` compiles into the binary are enough for
 * every mode. `deno compile` cannot run here (it downloads its runtime), so
 * main.ts runs under `deno run` with exactly those flags and nothing more:
 * the simulator (`sim`), the server against it over real SSH (including the
 * known_hosts and audit-log writes), the REST proxy with a child server, the
 * audit verifier, the container error path and `--help`. A flag missing from
 * build.sh fails here. (The healthcheck runs with them in
 * distribution_healthcheck.test.ts.)
 */
import assert from "node:assert/strict";
import YAML from "yaml";
import {
  buildPermissions,
  callTool,
  connect,
  DENO,
  MAIN,
  Proc,
  ROOT,
  runMain,
} from "./distribution_helpers.ts";

const FLAGS = await buildPermissions();

/** What a missing Deno permission looks like in output. */
const PERMISSION_ERROR = /NotCapable|Requires \w+ access|run again with the --allow-/;

Deno.test("permissions: build.sh grants no more than the documented set", () => {
  assert.deepEqual(FLAGS, [
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-write",
    "--allow-sys=uid",
    "--allow-run",
  ]);
  const script = Deno.readTextFileSync(`${ROOT}/scripts/build.sh`);
  const block = script.slice(script.indexOf("PERMISSIONS=("), script.indexOf("\n)\n"));
  const lines = block.split("\n").slice(1).map((l) => l.trim());
  for (const flag of FLAGS) {
    const at = lines.indexOf(flag);
    assert.ok(at > 0, `${flag} is in the PERMISSIONS array`);
    assert.ok(lines[at - 1].startsWith("#"), `${flag} has its reason in a comment above it`);
  }
});

Deno.test("permissions: --help and --version", async () => {
  const help = await runMain(FLAGS, ["--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /Usage: mcp-server-router/);
  assert.match(help.stdout, /healthcheck --url U/);
});

Deno.test("permissions: the container error names the real uid (--allow-sys=uid)", async () => {
  const r = await runMain(FLAGS, [], {
    ROUTER_CONTAINER: "1",
    ROUTER_INVENTORY_FILE: "/config/inventory.yaml",
  });
  assert.equal(r.code, 2);
  assert.ok(r.stderr.includes(`(uid ${Deno.uid()})`), r.stderr);
  assert.doesNotMatch(r.stderr, PERMISSION_ERROR);
});

Deno.test("permissions: sim, the server over SSH, audit verify and the proxy", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "permissions-" });
  const home = `${dir}/home`;
  await Deno.mkdir(home);
  const sim = new Proc(
    ["run", ...FLAGS, MAIN, "sim", "--devices", "1", "--port", "0", "--state-file", `${dir}/sim`],
    {},
  );
  try {
    await sim.waitFor(() => sim.stderr.includes("simulating 1 RouterOS"), "the simulator");
    assert.doesNotMatch(sim.stderr, PERMISSION_ERROR);
    const inventory = YAML.parse(sim.stdout) as { title: string; host: string; port: number }[];
    assert.equal(inventory.length, 1);
    const inventoryFile = `${dir}/inventory.yaml`;
    await Deno.writeTextFile(inventoryFile, sim.stdout);
    const audit = `${dir}/audit.jsonl`;
    const title = inventory[0].title;

    await t.step("server: list and add over SSH, audit log written, metrics served", async () => {
      const session = await connect(
        FLAGS,
        ["--inventory-file", inventoryFile, "--audit-log", audit, "--metrics-port", "0"],
        { HOME: home },
      );
      try {
        const list = await callTool(session, "router_list_ip_addresses", { device: title });
        assert.equal(list.isError, false, list.text);
        const add = await callTool(session, "router_add_ip_address", {
          device: title,
          address: "10.99.0.1/24",
          interface: "ether2",
        });
        // Whether the router accepts the add is the tools' business; here it
        // must reach the router and the audit log, not stop at a permission.
        assert.doesNotMatch(add.text, PERMISSION_ERROR);
        // The process metrics need no permission beyond these (/proc/self needs --allow-all).
        const port = /metrics on http:\/\/127\.0\.0\.1:(\d+)\//.exec(session.stderr())?.[1];
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        assert.ok(Number(/^process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]) > 0, text);
        assert.doesNotMatch(text, /^process_(?!cpu)\w+ 0$/m, "no process series reads as zero");
        assert.match(text, /^mcp_router_tool_calls_total\{tool="router_list_ip_addresses"/m);
        assert.doesNotMatch(session.stderr(), PERMISSION_ERROR);
      } finally {
        await session.close();
      }
      const lines = Deno.readTextFileSync(audit).trim().split("\n").map((l) => JSON.parse(l));
      assert.ok(lines.some((l) => l.tool === "router_add_ip_address"), "the audit log was written");
    });

    await t.step("audit verify reads the log", async () => {
      const r = await runMain(FLAGS, ["audit", "verify", audit]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /chain intact/);
    });

    await t.step("proxy: starts a child server and serves its tools and Swagger UI", async () => {
      const config = `${dir}/proxy.json`;
      await Deno.writeTextFile(
        config,
        JSON.stringify({
          mcpServers: {
            router: {
              // The binary would start itself (mcp-server-router ...); here: main.ts.
              command: DENO,
              args: ["run", ...FLAGS, MAIN, "--inventory-file", inventoryFile],
              env: { HOME: home },
            },
          },
        }),
      );
      const proxy = new Proc(
        ["run", ...FLAGS, MAIN, "proxy", "--config", config, "--port", "0", "--host", "127.0.0.1"],
        {},
      );
      try {
        await proxy.waitFor(
          () => /listening on http:\/\/[^ ]+:\d+/.test(proxy.stderr),
          "the proxy",
        );
        const base = /listening on (http:\/\/[^ ]+:\d+)/.exec(proxy.stderr)![1];
        const health = await fetch(`${base}/health`);
        assert.equal(health.status, 200, await health.text());
        const docs = await fetch(`${base}/docs`);
        const page = await docs.text();
        assert.equal(docs.status, 200);
        assert.match(page, /swagger/i);
        const call = await fetch(`${base}/router/router_list_ip_addresses`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ device: title }),
        });
        const body = await call.text();
        assert.equal(call.status, 200, body);
        assert.ok(body.includes("192.168.88.1/24"), body);
      } finally {
        const code = await proxy.stop();
        assert.equal(code, 0, proxy.stderr);
      }
      assert.doesNotMatch(proxy.stderr, PERMISSION_ERROR);
    });
  } finally {
    const code = await sim.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    assert.equal(code, 0, sim.stderr);
    assert.doesNotMatch(sim.stderr, PERMISSION_ERROR);
  }
});

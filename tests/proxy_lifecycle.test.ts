/**
 * The proxy's children over their lives, observed from outside: a child
 * killed by pid answers 503 and then comes back; a server that cannot
 * start never stops the others; SIGTERM to the proxy ends every child and
 * grandchild (checked in /proc) before the proxy exits 0.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { DENO, MAIN } from "./helpers/mcp.ts";
import {
  childPids,
  getJson,
  postJson,
  processAlive,
  routerEntry,
  startProxy,
  waitFor,
} from "./proxy_helpers.ts";

/** All descendants of `pid`, from /proc. */
function tree(pid: number): number[] {
  const out: number[] = [];
  const queue = childPids(pid);
  while (queue.length) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...childPids(next));
  }
  return out;
}

Deno.test("proxy: restart after a kill, isolation of a broken server, no orphans", async (t) => {
  const sim = await startSimulator();
  const router = routerEntry(sim);
  // Started through a shell that stays around: the MCP server is a grandchild.
  const shellCommand = [DENO, "run", "--allow-all", MAIN, ...router.args.slice(3)]
    .map((a) => `'${a}'`).join(" ");
  const proxy = await startProxy({
    mcpServers: {
      router,
      wrapped: { command: "sh", args: ["-c", `${shellCommand}; echo wrapper-done >&2`] },
      broken: { command: "/nonexistent/mcp-server", args: ["--x"] },
    },
  });
  let stopped = false;
  try {
    await t.step("a server that cannot start is down; the others serve", async () => {
      const health = await getJson(proxy, "/health");
      assert.equal(health.status, 200);
      assert.equal(health.json.status, "degraded");
      assert.equal(health.json.servers.router.state, "up");
      assert.equal(health.json.servers.wrapped.state, "up");
      assert.ok(["down", "starting"].includes(health.json.servers.broken.state));
      assert.match(
        health.json.servers.broken.lastError ?? "",
        /^cannot start: server "broken" in \S+proxy\.json: field "command" names \/nonexistent\/mcp-server, which was not found; give its full path or put it on PATH$/,
      );
      const call = await postJson(proxy, "/broken/anything", {});
      assert.equal(call.status, 503);
      assert.equal(call.json.error.code, "server_unavailable");
      assert.ok(Number(call.headers.get("retry-after")) >= 1);
      const ok = await postJson(proxy, "/wrapped/router_list_ip_addresses", {});
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      assert.ok(ok.json.items.some((i: { address: string }) => i.address === "192.168.88.1/24"));
    });

    await t.step("killing a child by pid gives 503, then the restarted child answers", async () => {
      const before = (await getJson(proxy, "/health")).json.servers.router;
      const pid: number = before.pid;
      assert.ok(childPids(proxy.pid).includes(pid), "the pid in /health is the proxy's child");
      Deno.kill(pid, "SIGKILL");
      const down = await waitFor("a 503 after the kill", async () => {
        const r = await postJson(proxy, "/router/router_list_ip_addresses", {});
        return r.status === 200 ? undefined : r;
      }, 10_000);
      assert.equal(down.status, 503, JSON.stringify(down.json));
      assert.equal(down.json.error.code, "server_unavailable");
      assert.ok(["down", "starting"].includes(down.json.error.details.state));
      assert.equal(down.json.error.details.server, "router");
      assert.ok(Number(down.headers.get("retry-after")) >= 1);
      const up = await waitFor("the restarted child", async () => {
        const r = await postJson(proxy, "/router/router_list_ip_addresses", {});
        return r.status === 200 ? r : undefined;
      });
      assert.ok(up.json.items.length > 0);
      const after = (await getJson(proxy, "/health")).json.servers.router;
      assert.equal(after.state, "up");
      assert.ok(after.restarts >= 1);
      assert.notEqual(after.pid, pid);
      assert.ok(!processAlive(pid));
      const other = await postJson(proxy, "/wrapped/router_list_ip_addresses", {});
      assert.equal(other.status, 200, "the other server was not affected");
    });

    await t.step("SIGTERM stops every child and grandchild, then the proxy exits 0", async () => {
      const descendants = tree(proxy.pid);
      assert.ok(descendants.length >= 3, `router, sh and its deno: ${descendants}`);
      const code = await proxy.stop("SIGTERM");
      stopped = true;
      assert.equal(code, 0, proxy.stderr());
      const alive = descendants.filter(processAlive);
      assert.deepEqual(alive, [], `left running: ${alive}`);
      assert.match(proxy.stderr(), /proxy: stopped/);
    });
  } finally {
    if (!stopped) await proxy.stop("SIGTERM");
    await sim.close();
  }
});

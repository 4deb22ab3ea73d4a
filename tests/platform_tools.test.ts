/**
 * Platform tools through MCP against the simulator: a menu of an extra
 * package that the router lacks answers "package container (user-manager)
 * is not installed on this router" (the router says `bad command name`), a
 * script runs only with confirm: true, and containers start (and stop
 * only with confirm) on releases whose selection argument differs.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("package menus say which package is missing when RouterOS lacks the menu", async () => {
  // A router without the packages parses no script that names their menus.
  const sim = await startSimulator({
    version: "7.20.8",
    faults: {
      garble: (command, output) =>
        command.includes("/container")
          ? "bad command name container (line 1 column 2)\n"
          : command.includes("/user-manager")
          ? "bad command name user-manager (line 1 column 2)\n"
          : output,
    },
  });
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "platform",
  ]);
  try {
    for (
      const [tool, args] of [
        ["router_list_containers", {}],
        ["router_add_container", { remote_image: "library/nginx:latest", interface: "veth1" }],
      ] as const
    ) {
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, true, `${tool} fails`);
      assert.match(r.content[0].text, /package container is not installed on this router/);
    }
    const um = await callTool(session, "router_list_user_manager_users", {});
    assert.equal(um.isError, true);
    assert.match(um.content[0].text, /package user-manager is not installed on this router/);
    // Without the fault the same router has the menu.
    sim.faults.garble = undefined;
    const listed = await callTool(session, "router_list_containers", {});
    assert.notEqual(listed.isError, true, listed.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("router_run_script runs a script only with confirm", async () => {
  const sim = await startSimulator();
  sim.run('/system script add name=hello source=":log info \\"hello from a script\\""');
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "platform",
  ]);
  try {
    const refused = await callTool(session, "router_run_script", { name: "hello" });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /confirm/);
    assert.equal(sim.items("/system/script")[0]["run-count"], "0", "nothing ran");
    const ran = await callTool(session, "router_run_script", { name: "hello", confirm: true });
    assert.notEqual(ran.isError, true, ran.content[0].text);
    assert.equal((ran.structuredContent as { item: { run_count: number } }).item.run_count, 1);
    assert.equal(sim.items("/system/script")[0]["run-count"], "1");
    const missing = await callTool(session, "router_run_script", { name: "nope", confirm: true });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /no such script/);
  } finally {
    await session.close();
    await sim.close();
  }
});

for (const version of ["7.16.2", "7.24"] as const) {
  Deno.test(`containers start, and stop only with confirm, on RouterOS ${version}`, async () => {
    const sim = await startSimulator({ version });
    sim.run("/container add remote-image=library/nginx:latest interface=veth1 root-dir=disk1/n");
    const id = sim.items("/container")[0][".id"];
    const session = await serveInProcess([
      "--host",
      sim.host,
      "--port",
      String(sim.port),
      "--toolsets",
      "platform",
    ]);
    try {
      const started = await callTool(session, "router_start_container", { id });
      assert.notEqual(started.isError, true, started.content[0].text);
      assert.equal(
        (started.structuredContent as { item: { status: string } }).item.status,
        "running",
      );
      const refused = await callTool(session, "router_stop_container", { id });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /confirm/);
      assert.equal(sim.items("/container")[0].status, "running", "still running");
      const stopped = await callTool(session, "router_stop_container", { id, confirm: true });
      assert.notEqual(stopped.isError, true, stopped.content[0].text);
      assert.equal(sim.items("/container")[0].status, "stopped");
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

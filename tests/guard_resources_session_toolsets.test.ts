/**
 * With `--dynamic-toolsets` a session reaches only the toolsets it enabled
 * (guards.md: the selection guard checks the session's toolsets on every
 * call, nested ones too). The other MCP doors into the same tools pass the
 * same check: `resources/read` runs `router_export_config` and
 * `router_print` only once the session enabled `files` and `diagnostics`,
 * and a completion reads interface names only for a session that enabled
 * `interfaces` (found by the second hostile re-test of issue 31: resources
 * ran them for any session).
 *
 * In process against the simulator, --dynamic-toolsets.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("resources and completions pass the session's toolset check like the tools they run", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--host-key-policy",
    "off",
    "--dynamic-toolsets",
  ]);
  const uris = [`routeros://${sim.host}/export`, `routeros://${sim.host}/print/ip/address`];
  const read = (uri: string) =>
    session.client.readResource({ uri }).then(
      (r) => JSON.stringify(r),
      (err) => `refused: ${err}`,
    );
  const interfaces = async () =>
    (await session.client.complete({
      ref: { type: "ref/prompt", name: "troubleshoot_link" },
      argument: { name: "interface", value: "eth" },
      context: { arguments: { device: sim.host } },
    })).completion.values;
  try {
    await t.step("refused while the toolsets are not enabled", async () => {
      const tool = await callTool(session, "router_export_config", {});
      assert.equal(tool.isError, true, "control: the tool is refused until files is enabled");
      assert.match(tool.content[0].text, /not enabled in this session/);
      for (const uri of uris) {
        assert.match(
          await read(uri),
          /^refused: .*not enabled in this session: call router_enable_toolsets/,
          `${uri} ran a tool of a toolset this session has not enabled`,
        );
      }
      assert.deepEqual(await interfaces(), [], "interface names read without the toolset");
    });

    await t.step("answered once the session enables them", async () => {
      const r = await callTool(session, "router_enable_toolsets", {
        toolsets: ["files", "diagnostics", "interfaces"],
      });
      assert.equal(r.isError, undefined, r.content[0].text);
      for (const uri of uris) assert.doesNotMatch(await read(uri), /^refused/);
      assert.ok((await interfaces()).includes("ether1"));
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

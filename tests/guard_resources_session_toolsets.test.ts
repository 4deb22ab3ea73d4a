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
 * Hostile re-test 3: interface names read for one session are kept for a
 * few seconds (per device, shared by the server's sessions), and the cache
 * answered before the toolset check: a second session that had not enabled
 * `interfaces` got the names the first one read. The check now comes first,
 * whatever source answers (the tool each completion stands for, as
 * `tools/list` has it: the session's toolsets and the principal's role).
 *
 * In process against the simulator, --dynamic-toolsets; the shared cache
 * over streamable-http with two sessions of the test keys.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";
import { authClient, KEYS, startAuthServer } from "./http_auth_helpers.ts";

Deno.test("resources and completions pass the session's toolset check like the tools they run", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await serveInProcess([
    ...simArgs(sim),
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

Deno.test("a completion from the interface cache passes the session's toolset check too", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim, { dynamicToolsets: true });
  const first = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const second = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const interfaces = async (client: typeof first) =>
    (await client.complete({
      ref: { type: "ref/prompt", name: "troubleshoot_link" },
      argument: { name: "interface", value: "eth" },
      context: { arguments: { device: "r1" } },
    })).completion.values;
  try {
    const r = await first.callTool({
      name: "router_enable_toolsets",
      arguments: { toolsets: ["interfaces"] },
    });
    assert.equal(r.isError, undefined, JSON.stringify(r));
    assert.ok((await interfaces(first)).includes("ether1"), "control: the first session reads");
    assert.deepEqual(
      await interfaces(second),
      [],
      "the cache answered a session without the toolset",
    );
  } finally {
    await first.close().catch(() => {});
    await second.close().catch(() => {});
    await srv.close();
    await sim.close();
  }
});

/**
 * Fail closed on answers that do not have the shape of the menu: a list read
 * answered with an object that is no item, an item without a valid id, or a
 * get by id that returns another id, on each read form (JSON on 7.17,
 * guarded JSON on 7.16, terse on 7.12). Each is a tool error quoting a short
 * excerpt, never a success with a phantom item. Through MCP against a
 * simulator that garbles its answers.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const CASES: {
  version: string;
  /** Rewrite the answer to a list read. */
  list: (out: string) => string;
  /** Rewrite the answer to a get of *1 so it names *9. */
  get: (out: string) => string;
}[] = [
  {
    version: "7.17",
    list: (out) => out.replace(/^\[.*\]/m, '{"a":1}'),
    get: (out) => out.replace(/"\*1"/g, '"*9"'),
  },
  {
    version: "7.16.2",
    list: (out) => out.replace(/^\[.*\]/m, '[{"a":1}]'),
    get: (out) => out.replace(/"s\*1"/g, '"s*9"'),
  },
  {
    version: "7.12.2",
    list: (out) => out.replace(/^\*1 [^\r\n]*/m, "a=1"),
    get: (out) => out.replace(/^\*1\b/m, "*9"),
  },
];

for (const c of CASES) {
  Deno.test(`answers without the menu's shape are errors quoting them (${c.version})`, async () => {
    const sim = await startSimulator({ version: c.version });
    const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
    try {
      const good = await callTool(session, "router_list_ip_addresses", {});
      assert.notEqual(good.isError, true, good.content[0].text);

      sim.faults.garble = (cmd, out) => cmd.includes("/ip address") ? c.list(out) : out;
      const list = await callTool(session, "router_list_ip_addresses", {});
      assert.equal(list.isError, true, `a phantom item passed: ${JSON.stringify(list)}`);
      assert.match(list.content[0].text, /a=?1|"a":1|\\"a\\":1/, list.content[0].text);
      assert.ok(list.content[0].text.length < 600);

      sim.faults.garble = (cmd, out) => cmd.includes("/ip address") ? c.get(out) : out;
      const get = await callTool(session, "router_get_ip_address", { id: "*1" });
      assert.equal(get.isError, true, `another item passed as *1: ${JSON.stringify(get)}`);
      assert.match(get.content[0].text, /\*9/);
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

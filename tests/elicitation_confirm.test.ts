/**
 * Confirmation by elicitation: a client that supports `elicitation/create`
 * is asked, with a summary of what will change, when a destructive tool or
 * a lock-out is called without `confirm`; its answer decides, and a client
 * that cannot answer is refused as if it had no elicitation. Through an SDK
 * client against the simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { ElicitRequestSchema } from "../lib/mcp_sdk/types.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("elicitation: a destructive call without confirm asks the user; yes removes, no keeps, no answer refuses", async () => {
  const sim = await startSimulator();
  sim.run("/ip address add address=10.5.5.1/24 interface=ether2 comment=first");
  sim.run("/ip address add address=10.5.6.1/24 interface=ether2 comment=second");
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)], {}, {
    elicitation: {},
  });
  const asked: string[] = [];
  let answer = false;
  session.client.setRequestHandler(ElicitRequestSchema, (req: { params: { message: string } }) => {
    asked.push(req.params.message);
    return { action: "accept", content: { confirm: answer } };
  });
  try {
    const id = (comment: string) =>
      sim.items("/ip/address").find((a) => a.comment === comment)![".id"];
    const declined = await callTool(session, "router_remove_ip_address", { id: id("first") });
    assert.equal(declined.isError, true);
    assert.match(declined.content[0].text, /The user declined; nothing was done/);
    assert.equal(asked.length, 1);
    assert.match(
      asked[0],
      /router_remove_ip_address is destructive\. It would change .*10\.5\.5\.1\/24.* Proceed\?/,
    );
    assert.ok(sim.items("/ip/address").some((a) => a.comment === "first"), "kept");

    answer = true;
    const removed = await callTool(session, "router_remove_ip_address", { id: id("second") });
    assert.equal(removed.isError, undefined, removed.content[0]?.text);
    assert.equal(asked.length, 2);
    assert.ok(!sim.items("/ip/address").some((a) => a.comment === "second"), "removed");

    // With confirm: true nothing is asked.
    await callTool(session, "router_remove_ip_address", { id: id("first"), confirm: true });
    assert.equal(asked.length, 2);
    assert.ok(!sim.items("/ip/address").some((a) => a.comment === "first"));

    // A client that announced elicitation but fails to answer is treated as
    // one without: the call is refused until confirm: true, nothing removed.
    sim.run("/ip address add address=10.5.7.1/24 interface=ether2 comment=third");
    session.client.setRequestHandler(ElicitRequestSchema, () => {
      throw new Error("no user interface here");
    });
    const unanswered = await callTool(session, "router_remove_ip_address", { id: id("third") });
    assert.equal(unanswered.isError, true);
    assert.match(
      unanswered.content[0].text,
      /is destructive\. The client could not ask the user\. It needs confirm: true\. Nothing was done\./,
    );
    assert.ok(sim.items("/ip/address").some((a) => a.comment === "third"), "kept");
  } finally {
    await session.close();
    await sim.close();
  }
});

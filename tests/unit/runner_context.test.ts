/**
 * The context the guard chain gives a handler: a tool that acts on no
 * device (`perDevice: false`) has no router client, and reaching for one is
 * a programmer error that names the tool, not a call on `undefined`.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { type DeviceSet, ToolRunner } from "../../lib/tools/guard/runner.ts";
import { READ, type ToolDef } from "../../lib/tools/tool.ts";

const noDevices: DeviceSet = {
  fleet: false,
  titles: [],
  resolve: () => {
    throw new Error("no device");
  },
  summaries: () => [],
};

Deno.test("a tool that acts on no device has no client: using one is an error naming the tool", async () => {
  const tool: ToolDef = {
    name: "router_test_no_device",
    title: "Test",
    description: "Reaches for a client it does not have.",
    toolset: "fleet",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    annotations: READ,
    perDevice: false,
    async handler(_args, ctx) {
      await ctx.client.dialect();
      return { structured: { ok: true }, text: "ok" };
    },
  };
  const runner = new ToolRunner([tool], new Set([tool.name]), noDevices, {
    readOnly: false,
    revealSecrets: false,
  });
  await assert.rejects(
    () => runner.call(tool.name, {}, { caller: {} }),
    /router_test_no_device acts on no device, so it has no router client/,
  );
});

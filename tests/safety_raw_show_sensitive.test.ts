/**
 * `--reveal-secrets` is the operator's word that tools may show secrets
 * held on the router, raw commands included: without it,
 * `router_run_command` refuses text that would show them by its shape (an
 * `export show-sensitive` of any menu, a `get` of a secret property, a
 * filter on one) before anything is sent, and masks every secret
 * `name=value` in what the router prints (RouterOS 6 exports secrets unless
 * told `hide-sensitive`). In process against the simulator, with
 * `--allow-raw-commands`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";

const PASSWORD = "Ppp-Secret-4711";

async function rig(version: string | undefined, flags: string[]) {
  const sim = await startSimulator(version ? { version } : {});
  sim.run(`/ppp secret add name=road password=${PASSWORD} service=l2tp`);
  const session = await serveInProcess([
    ...simArgs(sim),
    "--allow-raw-commands",
    ...flags,
  ]);
  return { sim, session };
}

const textOf = (r: { content: { text?: string }[]; structuredContent?: unknown }) =>
  r.content.map((c) => c.text).join("\n") + JSON.stringify(r.structuredContent ?? {});

Deno.test("raw commands show no secrets without --reveal-secrets", async () => {
  const { sim, session } = await rig(undefined, []);
  try {
    const guarded = await callTool(session, "router_export_config", { show_sensitive: true });
    assert.equal(guarded.isError, true, "the export tool is guarded (control)");
    for (
      const command of [
        "/ppp secret export show-sensitive",
        "/ppp/secret/export show-sen",
        ":put [/ppp secret get [find name=road] password]",
        ':put [/ppp secret find password="Ppp-Secret-4711"]',
      ]
    ) {
      const r = await callTool(session, "router_run_command", { command, confirm: true });
      const text = textOf(r);
      assert.ok(!text.includes(PASSWORD), `${command} showed the PPP password: ${text}`);
      assert.equal(r.isError, true, command);
      assert.match(text, /--reveal-secrets/);
      assert.match(text, /Nothing was read/);
    }
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("raw command output is masked: RouterOS 6 exports secrets unless told", async () => {
  const { sim, session } = await rig("6.49.13", []);
  try {
    const r = await callTool(session, "router_run_command", {
      command: "/ppp secret export",
      confirm: true,
    });
    const text = textOf(r);
    assert.equal(r.isError, undefined, text);
    assert.ok(!text.includes(PASSWORD), `the export showed the password: ${text}`);
    assert.match(text, /name=road password=\*{8}/);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("with --reveal-secrets raw commands show what the router prints", async () => {
  const { sim, session } = await rig("6.49.13", ["--reveal-secrets"]);
  try {
    for (const command of ["/ppp secret export", ":put [/ppp secret get [find] password]"]) {
      const r = await callTool(session, "router_run_command", { command, confirm: true });
      assert.ok(textOf(r).includes(PASSWORD), `${command}: ${textOf(r)}`);
    }
  } finally {
    await session.close();
    await sim.close();
  }
});

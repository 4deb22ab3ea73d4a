/**
 * A filter on a secret is an oracle: `where {"password": "guess"}` that
 * returns the item when the guess is right tells the secret without showing
 * it. Without `--reveal-secrets` every way to filter on a secret is refused
 * before anything is read: `router_print`'s `where` on PPP and user
 * passwords and WireGuard private keys (declared secrets and secret-looking
 * names alike), the same through `router_fleet_query`, a list tool's
 * `where`, and a print resource with a query. Through MCP against the
 * simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const PPP_PASSWORD = "Gq3-ppp-right-guess";
const USER_PASSWORD = "Uq5-user-right-guess";
const WG_KEY = "U0VLUkVULWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY=";

/** Filters on secrets, each right: an oracle would answer with the item. */
const GUESSES: [string, Record<string, string>][] = [
  ["/ppp/secret", { password: PPP_PASSWORD }],
  ["/user", { password: USER_PASSWORD }],
  ["/interface/wireguard", { "private-key": WG_KEY }],
  ["/ppp/secret", { name: "road", password: PPP_PASSWORD }],
  // What RouterOS might read as the property abbreviated.
  ["/ppp/secret", { passw: PPP_PASSWORD }],
  ["/interface/wireguard", { priv: WG_KEY }],
];

async function rig(flags: string[] = []) {
  const sim = await startSimulator();
  for (
    const line of [
      `/ppp secret add name=road password=${PPP_PASSWORD} service=l2tp`,
      `/user add name=ops group=read password=${USER_PASSWORD}`,
      `/interface wireguard add name=wg1 private-key="${WG_KEY}"`,
    ]
  ) {
    const r = sim.run(line);
    assert.equal(r.exitCode, 0, `${line}: ${r.output}`);
  }
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "all",
    ...flags,
  ]);
  return { sim, session };
}

Deno.test("where on a secret is refused without --reveal-secrets, on every path to it", async () => {
  const { sim, session } = await rig();
  try {
    // The version is known: a refusal shows as no command at all.
    assert.equal(
      (await callTool(session, "router_print", { path: "/ppp/secret" })).isError,
      undefined,
    );
    const commands = sim.counters.commands;
    for (const [path, where] of GUESSES) {
      const r = await callTool(session, "router_print", { path, where });
      const text = r.content[0].text;
      assert.equal(r.isError, true, `${path} ${JSON.stringify(where)} answered: ${text}`);
      assert.match(
        text,
        /router_print would tell a secret: where on .* answers whether a guessed value is right/,
      );
      assert.match(text, /--reveal-secrets/);
      assert.match(text, /Nothing was read\./);
      for (const secret of [PPP_PASSWORD, USER_PASSWORD, WG_KEY]) {
        assert.ok(!text.includes(secret), `the refusal shows a secret: ${text}`);
      }
    }
    const fleet = await callTool(session, "router_fleet_query", {
      tool: "router_print",
      arguments: { path: "/ppp/secret", where: { password: PPP_PASSWORD } },
    });
    assert.equal(fleet.isError, true, fleet.content[0].text);
    assert.match(fleet.content[0].text, /would tell a secret: where on password answers whether/);
    assert.equal(sim.counters.commands, commands, "no command reached the router");

    // A list tool's where has no secret field at all.
    const list = await callTool(session, "router_list_ppp_secrets", {
      where: { password: PPP_PASSWORD },
    });
    assert.equal(list.isError, true, list.content[0].text);
    assert.match(list.content[0].text, /where: .*password/);
    assert.ok(!list.content[0].text.includes(PPP_PASSWORD));

    // A print resource takes no query: nothing can be filtered through its URI.
    const devices = await callTool(session, "router_list_devices");
    const title = (devices.structuredContent as { items: { title: string }[] }).items[0].title;
    const base = `routeros://${encodeURIComponent(title)}/print/ppp/secret`;
    for (const query of [`?password=${PPP_PASSWORD}`, `?where=password%3D${PPP_PASSWORD}`]) {
      await assert.rejects(
        session.client.readResource({ uri: base + query }),
        /not found: a resource URI takes no query/,
      );
    }
    assert.equal(sim.counters.commands, commands, "no command reached the router");

    // Filters on other fields work as before.
    const byName = await callTool(session, "router_print", {
      path: "/ppp/secret",
      where: { name: "road" },
    });
    assert.equal(byName.isError, undefined, byName.content[0].text);
    assert.equal((byName.structuredContent as { count: number }).count, 1);
    // A declared property that is the start of a secret's name is not one (OSPF auth, auth-key).
    const auth = await callTool(session, "router_print", {
      path: "/routing/ospf/interface-template",
      where: { auth: "md5" },
    });
    assert.equal(auth.isError, undefined, auth.content[0].text);
    assert.ok(!byName.content[0].text.includes(PPP_PASSWORD), "the password is masked");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("with --reveal-secrets router_print may filter on a secret (values stay masked)", async () => {
  const { sim, session } = await rig(["--reveal-secrets"]);
  try {
    const r = await callTool(session, "router_print", {
      path: "/ppp/secret",
      where: { password: PPP_PASSWORD },
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    assert.equal((r.structuredContent as { count: number }).count, 1);
    assert.ok(!r.content[0].text.includes(PPP_PASSWORD));
  } finally {
    await session.close();
    await sim.close();
  }
});

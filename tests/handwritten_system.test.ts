/**
 * Hand-written DHCP, user, system, WireGuard and interface tools through MCP
 * against the simulator, with their effects checked on the simulator state.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { makeKey } from "./helpers/keys.ts";

type Rec = Record<string, unknown>;

/** The simulator's configuration without the export's dated header comments. */
function config(sim: { export(): string }): string {
  return sim.export().replace(/^#.*\n/gm, "");
}

Deno.test("system tools against a simulated 7.16", async (t) => {
  const sim = await startSimulator({ version: "7.16" });
  sim.addUser({ name: "backup", password: "B4ckup-pw", group: "read" });
  const s = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    await t.step("make a dynamic DHCP lease static", async () => {
      const lease = sim.items("/ip/dhcp-server/lease").find((l) => l.dynamic === "true");
      assert.ok(lease, "the simulator has a dynamic lease");
      const before = config(sim);
      const dry = await callTool(s, "router_make_static_dhcp_lease", {
        mac_address: lease["mac-address"],
        dry_run: true,
      });
      assert.equal(dry.isError, undefined, dry.content[0]?.text);
      assert.equal(config(sim), before, "the dry run changed nothing");
      const r = await callTool(s, "router_make_static_dhcp_lease", { id: lease[".id"] });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const item = r.structuredContent?.item as Rec;
      assert.equal(item.id, lease[".id"]);
      assert.equal(item.dynamic, false);
      assert.equal(
        sim.items("/ip/dhcp-server/lease").find((l) => l[".id"] === lease[".id"])?.dynamic,
        "false",
      );
      const missing = await callTool(s, "router_make_static_dhcp_lease", { id: "*FFFF" });
      assert.equal(missing.isError, true);
    });

    await t.step(
      "add an SSH key to a user; the server's own password user is protected",
      async () => {
        const key = makeKey("ed25519", "openssh");
        const line = key.publicKey.replace(/ test$/, " alice@laptop");
        const r = await callTool(s, "router_add_user_ssh_key", {
          user: "backup",
          public_key: line,
        });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const stored = sim.items("/user/ssh-keys").filter((k) => k.user === "backup");
        assert.equal(stored.length, 1);
        assert.equal(stored[0]["key-type"], "ed25519");
        assert.deepEqual(
          (r.structuredContent?.keys as Rec[]).map((k) => k.id),
          stored.map((k) => k[".id"]),
        );
        const refused = await callTool(s, "router_add_user_ssh_key", {
          user: "admin",
          public_key: line,
        });
        assert.equal(refused.isError, true);
        assert.match(
          refused.content[0].text,
          /a key on that user makes the router refuse its password/,
        );
        assert.ok(!sim.items("/user/ssh-keys").some((k) => k.user === "admin"));
        const hostile = await callTool(s, "router_add_user_ssh_key", {
          user: "backup",
          public_key: 'ssh-ed25519 AAAA"; /system reboot',
        });
        assert.equal(hostile.isError, true, "not a key line");
      },
    );

    await t.step(
      "disconnect: destructive, needs confirm, unknown sessions are errors",
      async () => {
        const tool = (await listAllTools(s.client)).find((x: { name: string }) =>
          x.name === "router_disconnect_active_user"
        );
        assert.equal(tool?.annotations?.destructiveHint, true);
        const noConfirm = await callTool(s, "router_disconnect_active_user", { id: "*FFFF" });
        assert.equal(noConfirm.isError, true);
        assert.match(noConfirm.content[0].text, /confirm: true/);
        const unknown = await callTool(s, "router_disconnect_active_user", {
          id: "*FFFF",
          confirm: true,
        });
        assert.equal(unknown.isError, true);
      },
    );

    await t.step("reboot: dry run sends nothing; without confirm nothing happens", async () => {
      const before = config(sim);
      const sent = sim.counters.commands;
      const dry = await callTool(s, "router_reboot", { dry_run: true });
      assert.equal(dry.isError, undefined, dry.content[0]?.text);
      assert.deepEqual((dry.structuredContent?.dry_run as Rec).commands, [
        ':execute script="/system reboot"',
      ]);
      const refused = await callTool(s, "router_reboot");
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /needs confirm: true/);
      assert.equal(sim.counters.commands, sent, "no command reached the router");
      assert.equal(config(sim), before);
    });

    await t.step("WireGuard client config: router public key, never its private key", async () => {
      sim.run("/interface wireguard add name=wg0 listen-port=51820");
      sim.run(
        String
          .raw`/interface wireguard peers add interface=wg0 public-key="yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=" allowed-address=10.66.0.2/32`,
      );
      const wg = sim.items("/interface/wireguard").find((i) => i.name === "wg0")!;
      const peer = sim.items("/interface/wireguard/peers")[0];
      const r = await callTool(s, "router_wireguard_client_config", {
        peer_id: peer[".id"],
        endpoint_host: "vpn.example.net",
        dns: ["10.66.0.1"],
      });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const config = r.structuredContent?.config as string;
      assert.match(config, new RegExp(`PublicKey = ${wg["public-key"].replace(/[+/]/g, "\\$&")}`));
      assert.match(config, /Endpoint = vpn\.example\.net:51820/);
      assert.match(config, /Address = 10\.66\.0\.2\/32/);
      assert.match(config, /PrivateKey = <client private key>/);
      assert.ok(!JSON.stringify(r).includes(wg["private-key"]), "router private key never shown");
      assert.equal(r.structuredContent?.private_key_included, false);
      const byKey = await callTool(s, "router_wireguard_client_config", {
        peer_public_key: "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
      });
      assert.equal(byKey.isError, undefined, byKey.content[0]?.text);
      assert.match(
        byKey.structuredContent?.config as string,
        new RegExp(`Endpoint = ${sim.host}:51820`),
      );
    });

    await t.step("interface traffic (needs monitor-traffic in the simulator)", async () => {
      const r = await callTool(s, "router_interface_traffic", { interfaces: ["ether1", "bridge"] });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const items = r.structuredContent?.items as Rec[];
      assert.deepEqual(items.map((i) => i.name), ["ether1", "bridge"]);
      assert.ok(items.every((i) => typeof i.rx_bits_per_second === "number"));
    });

    await t.step("PoE monitor (needs poe monitor once as-value in the simulator)", async () => {
      const r = await callTool(s, "router_poe_monitor", { interfaces: ["ether5"] });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal((r.structuredContent?.items as Rec[])[0].poe_out, "auto-on");
    });
  } finally {
    await s.close();
    await sim.close();
  }
});

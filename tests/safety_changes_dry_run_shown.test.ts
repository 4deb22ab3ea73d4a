/**
 * What a change's dry run shows (found by the third hostile re-test of
 * issue 31). `router_apply_changes`'s dry run shows the revert job it would
 * arm: its commands, and per operation the inverse (`preview.operations[].
 * inverse`). Those undo steps are built from what the router holds now.
 *
 * The inverse of a removal re-adds the item with every property it had,
 * read with the router's print, which shows a PPP secret's password, a
 * WireGuard interface's private key, an SNMPv3 community's passwords or a
 * hotspot user's password; so an `operate` key could read the router's
 * secrets by asking for a dry run of their removal (nothing changed, no
 * --reveal-secrets). The dry run, and the confirm refusal that describes
 * it, show those secrets masked; the job armed for real keeps them (it
 * re-adds the item on the router).
 *
 * The inverse of clearing a script field (an operate key may set one to
 * "") restores the admin's old script, whose text is withheld whole from
 * principals below admin (docs/guards.md, "Masking raw console text":
 * masking by shape does not find a token in a URL's path). The dry run of
 * the change, and of `router_rollback_changes` once it is applied, withhold
 * it too; an admin's show it, masked by shape.
 *
 * Over streamable-http with the test keys, against the simulator (7.16.2).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

const CASES = [
  {
    setup: "/ppp secret add name=vpnuser password=Ppp-Secret-9911 service=any",
    path: "/ppp/secret",
    tool: "router_remove_ppp_secret",
    secrets: ["Ppp-Secret-9911"],
  },
  {
    setup:
      '/interface wireguard add name=wg9 private-key="oPVn0Jd7M0pQXkC3oHQ3q8oKqQF6Vn3pY2zZ0nXbM1Y="',
    path: "/interface/wireguard",
    tool: "router_remove_wireguard_interface",
    secrets: ["oPVn0Jd7M0pQXkC3oHQ3q8oKqQF6Vn3pY2zZ0nXbM1Y="],
  },
  {
    setup: "/snmp community add name=v3mon security=private authentication-protocol=SHA1 " +
      "authentication-password=Snmp-Auth-7788 encryption-protocol=AES " +
      "encryption-password=Snmp-Enc-6655",
    path: "/snmp/community",
    tool: "router_remove_snmp_community",
    secrets: ["Snmp-Auth-7788", "Snmp-Enc-6655"],
  },
  {
    setup: "/ip hotspot user add name=guest1 password=Hotspot-Pass-55",
    path: "/ip/hotspot/user",
    tool: "router_remove_hotspot_user",
    secrets: ["Hotspot-Pass-55"],
  },
];

const MARK = "T0KEN-IN-PATH-4711";
const SCRIPT =
  `/tool fetch url=("https://hooks.example.com/${MARK}/" . $leaseActIP) keep-result=no`;

Deno.test("a change's dry run shows no secret the router holds, nor a script its caller may not read", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  try {
    await t.step(
      "a removal's undo step: the item's secrets masked, the real job keeps them",
      async () => {
        const leaks: string[] = [];
        for (const c of CASES) {
          assert.equal(sim.run(c.setup).exitCode, 0, c.setup);
          const id = sim.items(c.path).at(-1)![".id"];
          const operations = [{ tool: c.tool, arguments: { id, confirm: true } }];
          const dry = await operator.callTool({
            name: "router_apply_changes",
            arguments: { device: "r1", dry_run: true, operations },
          });
          assert.equal(dry.isError, undefined, textOf(dry));
          const inverse = (dry.structuredContent as {
            dry_run: { preview: { operations: { inverse: string }[] } };
          }).dry_run.preview.operations[0].inverse;
          assert.match(inverse, /\*{8}/, `the undo step shows the mask: ${inverse}`);
          // Without confirm: the refusal describes the dry run.
          const refused = await operator.callTool({
            name: "router_apply_changes",
            arguments: { device: "r1", operations },
          });
          assert.equal(refused.isError, true, textOf(refused));
          for (const secret of c.secrets) {
            if (JSON.stringify([dry, refused]).includes(secret)) leaks.push(`${c.tool}: ${secret}`);
          }
        }
        assert.deepEqual(leaks, [], "the dry runs or refusals show these secrets in clear");

        // Applied and rolled back for real: the job re-adds the secret as it was.
        const id = sim.items("/ppp/secret").find((s) => s.name === "vpnuser")![".id"];
        const applied = await operator.callTool({
          name: "router_apply_changes",
          arguments: {
            device: "r1",
            confirm: true,
            operations: [{ tool: "router_remove_ppp_secret", arguments: { id, confirm: true } }],
          },
        });
        assert.equal(applied.isError, undefined, textOf(applied));
        assert.ok(!sim.items("/ppp/secret").some((s) => s.name === "vpnuser"), "removed");
        const rolled = await operator.callTool({
          name: "router_rollback_changes",
          arguments: {
            device: "r1",
            change_id: (applied.structuredContent as { change_id: string }).change_id,
            confirm: true,
          },
        });
        assert.equal(rolled.isError, undefined, textOf(rolled));
        assert.equal(
          sim.items("/ppp/secret").find((s) => s.name === "vpnuser")?.password,
          "Ppp-Secret-9911",
          "the revert job re-added the secret with its real password",
        );
      },
    );

    await t.step(
      "an admin's change of a script-holding item: its old script withheld from an operate key, which cannot roll it back",
      async () => {
        const set = await admin.callTool({
          name: "router_update_dhcp_server",
          arguments: { device: "r1", id: "*1", lease_script: SCRIPT },
        });
        assert.equal(set.isError, undefined, textOf(set));
        const read = await operator.callTool({
          name: "router_get_dhcp_server",
          arguments: { device: "r1", id: "*1" },
        });
        assert.ok(!JSON.stringify(read).includes(MARK), "control: the direct read withholds it");
        const operations = [{
          tool: "router_update_dhcp_server",
          arguments: { id: "*1", lease_script: "" },
        }];
        const refused = await operator.callTool({
          name: "router_apply_changes",
          arguments: { device: "r1", dry_run: true, operations },
        });
        assert.equal(refused.isError, true, "an item holding a script is admin's to change");
        assert.ok(!JSON.stringify(refused).includes(MARK), textOf(refused).slice(0, 400));
        const adminDry = await admin.callTool({
          name: "router_apply_changes",
          arguments: { device: "r1", dry_run: true, operations },
        });
        assert.ok(JSON.stringify(adminDry).includes(MARK), "admin reads scripts (masked by shape)");

        const applied = await admin.callTool({
          name: "router_apply_changes",
          arguments: { device: "r1", confirm: true, operations },
        });
        assert.equal(applied.isError, undefined, textOf(applied));
        const change = (applied.structuredContent as { change_id: string }).change_id;
        const listed = await operator.callTool({
          name: "router_list_pending_changes",
          arguments: { device: "r1" },
        });
        assert.ok(!JSON.stringify(listed).includes(MARK), "the pending list shows the script");
        // Its undo restores a script: rolling it back is admin's too.
        for (const dry_run of [true, false]) {
          const refusedRollback = await operator.callTool({
            name: "router_rollback_changes",
            arguments: {
              device: "r1",
              change_id: change,
              ...(dry_run ? { dry_run } : {}),
              confirm: true,
            },
          });
          assert.equal(refusedRollback.isError, true, textOf(refusedRollback));
          assert.match(textOf(refusedRollback), /admin role/);
          assert.ok(!JSON.stringify(refusedRollback).includes(MARK), textOf(refusedRollback));
        }
        const rolled = await admin.callTool({
          name: "router_rollback_changes",
          arguments: { device: "r1", change_id: change, confirm: true },
        });
        assert.equal(rolled.isError, undefined, textOf(rolled));
        assert.equal(sim.items("/ip/dhcp-server")[0]["lease-script"], SCRIPT, "restored whole");
      },
    );
  } finally {
    for (const c of [admin, operator]) await c.close().catch(() => {});
    await srv.close();
    await sim.close();
  }
});

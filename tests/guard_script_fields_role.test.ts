/**
 * A script the router runs is admin's to set, wherever it is stored.
 * `/system/script`, `/system/scheduler` and `/tool/netwatch` writes need
 * `admin`, and so does setting a field marked `script` in any other menu: a
 * DHCP server's `lease-script`, a PPP profile's `on-up`/`on-down`. The
 * router runs them with every policy, so an `operate` key that could set
 * one could add a `full` user, export the secrets to a file, reboot or
 * upgrade. Reading them, clearing them, and the menus' other properties
 * stay open to the roles that had them; a nested call and a dry run are
 * refused like a direct call. Over streamable-http with the auth tests'
 * keys (operator: operate, reader: read, admin).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";
import { listAllTools } from "./helpers/mcp.ts";

const PAYLOAD = "/user add name=backdoor group=full password=Bd-0123456789";
const HELD_SCRIPT =
  /changes an item that holds a script the router runs with its owner's rights, which needs the admin role/;

Deno.test("guard: an operate key cannot plant a script the router runs (lease-script, on-up)", async (t) => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  const op = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const planted = () =>
    [
      ...sim.items("/ip/dhcp-server").map((i) => i["lease-script"] ?? ""),
      ...sim.items("/ppp/profile").flatMap((i) => [i["on-up"] ?? "", i["on-down"] ?? ""]),
    ].filter((s) => s.includes("backdoor"));
  try {
    await t.step("the control: a script of its own needs admin", async () => {
      const script = await op.callTool({
        name: "router_add_script",
        arguments: { device: "r1", name: "x", source: PAYLOAD },
      });
      assert.match(textOf(script), /needs the admin role; "key:operator" has operate/);
    });

    await t.step(
      "lease_script, on_up, on_down: refused for operate, direct and dry run",
      async () => {
        const calls: [string, Record<string, unknown>, string][] = [
          ["router_update_dhcp_server", { id: "*1", lease_script: PAYLOAD }, "lease_script"],
          ["router_add_ppp_profile", { name: "hostile", on_up: PAYLOAD }, "on_up"],
          ["router_add_ppp_profile", { name: "hostile", on_down: PAYLOAD }, "on_down"],
          [
            "router_update_dhcp_server",
            { id: "*1", lease_script: PAYLOAD, dry_run: true },
            "lease_script",
          ],
        ];
        for (const [name, args, field] of calls) {
          const r = await op.callTool({ name, arguments: { device: "r1", ...args } });
          assert.equal(r.isError, true, `${name} ${field}: ${textOf(r).slice(0, 160)}`);
          assert.match(
            textOf(r),
            new RegExp(`${name} sets ${field}, a script the router runs .* needs the admin role`),
          );
        }
        assert.deepEqual(planted(), [], "an operate key stored code the router runs");
      },
    );

    await t.step("nested in router_apply_changes: refused the same way", async () => {
      const r = await op.callTool({
        name: "router_apply_changes",
        arguments: {
          device: "r1",
          operations: [{
            tool: "router_update_dhcp_server",
            arguments: { id: "*1", lease_script: PAYLOAD },
          }],
        },
      });
      assert.equal(r.isError, true, textOf(r).slice(0, 200));
      assert.match(
        textOf(r),
        /router_update_dhcp_server \(inside router_apply_changes\) sets lease_script/,
      );
      assert.deepEqual(planted(), []);
    });

    await t.step("operate may clear a script and change the rest; read may read it", async () => {
      const cleared = await op.callTool({
        name: "router_update_dhcp_server",
        arguments: { device: "r1", id: "*1", lease_script: "", lease_time: "1h" },
      });
      assert.notEqual(cleared.isError, true, textOf(cleared));
      const read = await reader.callTool({
        name: "router_list_dhcp_servers",
        arguments: { device: "r1" },
      });
      assert.notEqual(read.isError, true, textOf(read));
    });

    await t.step("admin may set one", async () => {
      const r = await admin.callTool({
        name: "router_update_dhcp_server",
        arguments: { device: "r1", id: "*1", lease_script: ':log info "lease"' },
      });
      assert.notEqual(r.isError, true, textOf(r));
      assert.equal(sim.items("/ip/dhcp-server")[0]["lease-script"], ':log info "lease"');
    });

    await t.step("the write tool says who may set it", async () => {
      const tools = await listAllTools(op);
      const add = tools.find((x) => x.name === "router_add_ppp_profile");
      const on = (add?.inputSchema.properties as Record<string, { description?: string }>).on_up;
      assert.match(on.description ?? "", /setting it needs the admin role/);
    });

    await t.step(
      "an item holding a script is admin's through every menu that lists it",
      async () => {
        // Hostile re-test 4 (issue 31): a VRRP interface whose on-master script
        // an admin wrote was refused to an operate key through its own menu
        // (router_enable_vrrp_interface), but the same item is an interface, and
        // router_enable_interface / router_update_interface (/interface, a menu
        // without privileged fields) enabled it, so the admin's script would run
        // whenever it became master, and renamed it under the admin's references.
        // The REST proxy's calls take the same tools.
        assert.equal(
          sim.run(
            '/interface vrrp add name=vrrp1 interface=ether3 vrid=7 on-master="/log info master" ' +
              "disabled=yes",
          ).exitCode,
          0,
        );
        const calls: [string, Record<string, unknown>][] = [
          ["router_enable_vrrp_interface", { name: "vrrp1" }],
          ["router_enable_interface", { name: "vrrp1" }],
          ["router_update_interface", { name: "vrrp1", new_name: "vrrp-renamed" }],
          ["router_update_interface", { id: sim.items("/interface/vrrp")[0][".id"], mtu: "1400" }],
          ["router_apply_changes", {
            confirm: true,
            operations: [{ tool: "router_enable_interface", arguments: { name: "vrrp1" } }],
          }],
        ];
        for (const [name, args] of calls) {
          const r = await op.callTool({ name, arguments: { device: "r1", ...args } });
          assert.equal(r.isError, true, `${name}: ${textOf(r)}`);
          assert.match(
            textOf(r),
            /changes an item that holds a script the router runs with its owner's rights/,
            name,
          );
        }
        const vrrp = sim.items("/interface/vrrp")[0];
        assert.deepEqual([vrrp.name, vrrp.disabled], ["vrrp1", "true"]);
        // Other interfaces stay operate's; admin may enable the VRRP as an interface.
        const plain = await op.callTool({
          name: "router_update_interface",
          arguments: { device: "r1", name: "ether3", comment: "uplink" },
        });
        assert.equal(plain.isError, undefined, textOf(plain));
        const r = await admin.callTool({
          name: "router_enable_interface",
          arguments: { device: "r1", name: "vrrp1" },
        });
        assert.equal(r.isError, undefined, textOf(r));
        // A change that wrote it as an interface is admin's to roll back (its undo re-enables it).
        const applied = await admin.callTool({
          name: "router_apply_changes",
          arguments: {
            device: "r1",
            confirm: true,
            operations: [{ tool: "router_disable_interface", arguments: { name: "vrrp1" } }],
          },
        });
        assert.equal(applied.isError, undefined, textOf(applied));
        const change = String((applied.structuredContent as { change_id: string }).change_id);
        for (
          const [name, who] of [["router_rollback_changes", op], [
            "router_commit_changes",
            admin,
          ]] as const
        ) {
          const done = await who.callTool({
            name,
            arguments: { device: "r1", change_id: change, confirm: true },
          });
          assert.equal(done.isError, who === op ? true : undefined, `${name}: ${textOf(done)}`);
        }
      },
    );

    await t.step(
      "the IPv6 DHCP client's script and server's binding-script are admin's",
      async () => {
        // Both run on a state change with the owner's rights (real 7.12 to 7.24
        // trees) but were not declared, so an item holding one was not checked.
        assert.equal(
          sim.run(
            '/ipv6 dhcp-client add interface=ether2 request=prefix pool-name=p6 script="/log info up"',
          ).exitCode,
          0,
        );
        assert.equal(
          sim.run('/ipv6 dhcp-server add name=v6srv interface=ether3 binding-script="/log info b"')
            .exitCode,
          0,
        );
        const client = sim.items("/ipv6/dhcp-client")[0][".id"];
        const calls: [string, Record<string, unknown>, RegExp][] = [
          ["router_update_ipv6_dhcp_client", { id: client, comment: "x" }, HELD_SCRIPT],
          ["router_disable_ipv6_dhcp_client", { id: client }, HELD_SCRIPT],
          ["router_update_ipv6_dhcp_server", { name: "v6srv", lease_time: "1h" }, HELD_SCRIPT],
          ["router_add_ipv6_dhcp_server", {
            name: "v6b",
            interface: "ether4",
            binding_script: PAYLOAD,
          }, /sets binding_script, a script the router runs/],
        ];
        for (const [name, args, said] of calls) {
          const r = await op.callTool({ name, arguments: { device: "r1", ...args } });
          assert.equal(r.isError, true, `${name}: ${textOf(r)}`);
          assert.match(textOf(r), said, name);
        }
        const r = await admin.callTool({
          name: "router_update_ipv6_dhcp_client",
          arguments: { device: "r1", id: client, comment: "admin's" },
        });
        assert.equal(r.isError, undefined, textOf(r));
      },
    );
  } finally {
    await admin.close();
    await reader.close();
    await op.close();
    await srv.close();
    await sim.close();
  }
});

Deno.test("guard: a logging action's script (target script, 7.22 on) is admin's", async () => {
  const sim = await startSimulator({ version: "7.22.3" });
  const srv = await startAuthServer(sim);
  const op = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  try {
    assert.equal(
      sim.run('/system logging action add name=hook target=script script="/log info m"').exitCode,
      0,
    );
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ["router_update_logging_action", { name: "hook", target: "memory" }, HELD_SCRIPT],
      [
        "router_add_logging_action",
        { name: "hook2", target: "script", script: PAYLOAD },
        /sets script/,
      ],
    ];
    for (const [name, args, said] of calls) {
      const r = await op.callTool({ name, arguments: { device: "r1", ...args } });
      assert.equal(r.isError, true, `${name}: ${textOf(r)}`);
      assert.match(textOf(r), said, name);
    }
    assert.deepEqual(
      sim.items("/system/logging/action").filter((a) => a.target === "script").map((a) => a.name),
      ["hook"],
    );
  } finally {
    await op.close();
    await srv.close();
    await sim.close();
  }
});

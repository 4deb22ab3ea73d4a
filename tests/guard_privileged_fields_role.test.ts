/**
 * A field the schema marks `privileged` is admin's to set, as script
 * fields are: SNMP `write-access` on `/snmp/community`. RouterOS's SNMP
 * write reaches MIKROTIK-MIB's reboot OID and runs a `/system/script` by its
 * run OID with its owner's policies (MikroTik's SNMP manual, "SNMP write"),
 * so whoever holds a write community (for v1/v2c its name, sent in clear,
 * shown to every read key) could reboot the router and run scripts, which
 * an `operate` key is refused (found by the second hostile re-test of issue
 * 31). Setting it off, and the community's other fields, stay `operate`'s;
 * a dry run and a nested call are refused like a direct call.
 *
 * Hostile re-test 3 (issue 31) found two more ways in. A `/radius` server
 * whose `service` includes `login` answers the router's own logins (Winbox,
 * SSH, API, WebFig) when `/user aaa use-radius=yes`, the usual set-up of
 * fleets whose administrators log in through RADIUS, and its Access-Accept
 * names the user's group (Mikrotik-Group=full): an operate key added a login
 * RADIUS server it controls, or pointed the existing one's `address` at its
 * own host, and then logged in with full rights. And an item that already
 * holds a privilege was taken over without setting it: an operate key gave
 * an admin's disabled SNMPv3 write community passwords of its own
 * (ordinary secret fields), opened its `addresses` to everyone and enabled
 * it. So `service` with `login` is privileged, and any write to an item
 * that holds a privilege needs admin (the item is read before the write).
 *
 * Over streamable-http with the test keys.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";
import { listAllTools } from "./helpers/mcp.ts";

const REFUSED =
  /sets write_access, SNMP write access, with which a manager can reboot the router and run its scripts, which needs the admin role; "key:operator" has operate\. Nothing was sent/;

const HELD =
  /changes an item that holds SNMP write access, with which a manager can reboot the router and run its scripts, which needs the admin role; "key:operator" has operate\. Nothing was sent/;

const UM_HELD =
  /changes an item that holds a login to the router with the user group its Mikrotik-Group attribute names/;

Deno.test("guard: an operate key cannot grant SNMP write access or login RADIUS, nor take over an item that has it", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const writers = () =>
    sim.items("/snmp/community").filter((c) => ["yes", "true"].includes(String(c["write-access"])))
      .map((c) => c.name);
  const community = { device: "r1", name: "ops-rw", addresses: ["192.0.2.10/32"] };
  try {
    await t.step("refused for operate: direct, dry run, update, nested", async () => {
      const control = await operator.callTool({
        name: "router_reboot",
        arguments: { device: "r1" },
      });
      assert.equal(control.isError, true, "control: an operate key may not reboot");
      const calls: [string, Record<string, unknown>][] = [
        ["router_add_snmp_community", { ...community, write_access: true }],
        ["router_add_snmp_community", { ...community, write_access: true, dry_run: true }],
        ["router_update_snmp_community", { device: "r1", name: "public", write_access: true }],
        ["router_apply_changes", {
          device: "r1",
          confirm: true,
          operations: [{
            tool: "router_add_snmp_community",
            arguments: { name: "ops-rw", write_access: true },
          }],
        }],
      ];
      for (const [name, args] of calls) {
        const r = await operator.callTool({ name, arguments: args });
        assert.equal(r.isError, true, `${name}: ${textOf(r).slice(0, 160)}`);
        assert.match(textOf(r), REFUSED);
      }
      assert.deepEqual(writers(), [], "a write community reached the router");
    });

    await t.step("operate keeps the rest: a read-only community, write access off", async () => {
      const r = await operator.callTool({
        name: "router_add_snmp_community",
        arguments: { ...community, read_access: true, write_access: false },
      });
      assert.equal(r.isError, undefined, textOf(r));
      const off = await operator.callTool({
        name: "router_update_snmp_community",
        arguments: { device: "r1", name: "ops-rw", write_access: false, comment: "ro" },
      });
      assert.equal(off.isError, undefined, textOf(off));
    });

    await t.step("admin may grant it, and the write tool says who may", async () => {
      const r = await admin.callTool({
        name: "router_update_snmp_community",
        arguments: { device: "r1", name: "ops-rw", write_access: true },
      });
      assert.equal(r.isError, undefined, textOf(r));
      assert.deepEqual(writers(), ["ops-rw"]);
      const tools = await listAllTools(operator);
      const add = tools.find((x) => x.name === "router_add_snmp_community")!;
      const doc = (add.inputSchema.properties as Record<string, { description?: string }>)
        .write_access.description;
      assert.match(doc ?? "", /turning it on needs the admin role/);
    });

    await t.step("operate cannot take over an SNMP community that has write access", async () => {
      sim.run(
        "/snmp community add name=nms-rw security=private write-access=yes " +
          "authentication-protocol=SHA1 authentication-password=Admin-Auth-1 " +
          "encryption-protocol=AES encryption-password=Admin-Enc-1 addresses=10.9.9.9/32 " +
          "disabled=yes",
      );
      const calls: [string, Record<string, unknown>][] = [
        ["router_update_snmp_community", {
          device: "r1",
          name: "nms-rw",
          authentication_password: "Operator-Auth-1",
          encryption_password: "Operator-Enc-1",
          addresses: ["0.0.0.0/0"],
        }],
        ["router_update_snmp_community", { device: "r1", name: "nms-rw", comment: "x" }],
        ["router_enable_snmp_community", { device: "r1", name: "nms-rw", dry_run: true }],
        ["router_enable_snmp_community", { device: "r1", name: "nms-rw" }],
        ["router_remove_snmp_community", { device: "r1", name: "nms-rw", confirm: true }],
        ["router_apply_changes", {
          device: "r1",
          confirm: true,
          operations: [{
            tool: "router_enable_snmp_community",
            arguments: { name: "nms-rw" },
          }],
        }],
      ];
      for (const [name, args] of calls) {
        const r = await operator.callTool({ name, arguments: args });
        assert.equal(r.isError, true, `${name}: ${textOf(r).slice(0, 200)}`);
        assert.match(textOf(r), HELD, name);
      }
      const c = sim.items("/snmp/community").find((x) => x.name === "nms-rw")!;
      assert.deepEqual(
        [c["authentication-password"], c.addresses, c.disabled, c.comment ?? ""],
        ["Admin-Auth-1", "10.9.9.9/32", "true", ""],
      );
      const r = await admin.callTool({
        name: "router_update_snmp_community",
        arguments: { device: "r1", name: "nms-rw", comment: "admin's" },
      });
      assert.equal(r.isError, undefined, textOf(r));
    });

    await t.step("who answers the router's own logins is admin's (RADIUS login)", async () => {
      sim.run("/radius add service=login,ppp address=10.1.1.10 secret=Admin-Radius-1");
      sim.run("/radius add service=ppp address=10.1.1.20 secret=Admin-Radius-2");
      const login = sim.items("/radius").find((x) => x.address === "10.1.1.10")![".id"];
      const ppp = sim.items("/radius").find((x) => x.address === "10.1.1.20")![".id"];
      const added = await operator.callTool({
        name: "router_add_radius_server",
        arguments: { device: "r1", service: ["login"], address: "203.0.113.66", secret: "Mine-1" },
      });
      assert.equal(added.isError, true, textOf(added));
      assert.match(
        textOf(added),
        /sets service, RADIUS for the router's own logins, whose answers grant any user group, which needs the admin role/,
      );
      const moved = await operator.callTool({
        name: "router_update_radius_server",
        arguments: { device: "r1", id: login, address: "203.0.113.66", secret: "Mine-2" },
      });
      assert.equal(moved.isError, true, textOf(moved));
      assert.match(textOf(moved), /changes an item that holds RADIUS for the router's own logins/);
      const addresses = sim.items("/radius").map((x) => x.address).sort();
      assert.deepEqual(addresses, ["10.1.1.10", "10.1.1.20"]);
      // A PPP-only server stays operate's, but turning it into a login server is not.
      const pppOnly = await operator.callTool({
        name: "router_update_radius_server",
        arguments: { device: "r1", id: ppp, address: "10.1.1.21" },
      });
      assert.equal(pppOnly.isError, undefined, textOf(pppOnly));
      const toLogin = await operator.callTool({
        name: "router_update_radius_server",
        arguments: { device: "r1", id: ppp, service: ["ppp", "login"] },
      });
      assert.equal(toLogin.isError, true, textOf(toLogin));
      const tools = await listAllTools(operator);
      const add = tools.find((x) => x.name === "router_add_radius_server")!;
      const doc = (add.inputSchema.properties as Record<string, { description?: string }>)
        .service.description;
      assert.match(doc ?? "", /login needs the admin role, as does changing an item that has it/);
    });

    await t.step("User Manager logins that grant a router user group are admin's", async () => {
      // Hostile re-test 4 (issue 31): when the router's logins go to its own
      // User Manager (a login RADIUS server at 127.0.0.1, the User Manager's
      // /user-manager/router entry for itself, /user aaa use-radius=yes: the
      // usual way to give a fleet's administrators their own logins), every
      // /user-manager/user is a login to the router, with the group its
      // `attributes` (or its User Manager group's) name: Mikrotik-Group:full.
      // An operate key added such a user and logged in with every policy, or
      // reset an administrator's User Manager password and logged in as them.
      // (The simulator has no /user aaa; use-radius=yes changes nothing the tools see.)
      for (
        const line of [
          "/user-manager router add name=self address=127.0.0.1 shared-secret=Um-Shared-1",
          "/radius add service=login address=127.0.0.1 secret=Um-Shared-1",
          "/user-manager user add name=alice password=Alice-Admin-1 attributes=Mikrotik-Group:full",
          "/user-manager user group add name=admins attributes=Mikrotik-Group:full",
          "/user-manager user add name=carol password=Carol-Admin-1 group=admins",
          "/user-manager user add name=sub1 password=Sub-1",
        ]
      ) assert.equal(sim.run(line).exitCode, 0, line);
      const granted: [string, Record<string, unknown>, RegExp][] = [
        ["router_add_user_manager_user", {
          name: "op-backdoor",
          password: "Operator-Pw-1",
          attributes: "Mikrotik-Rate-Limit:1M/1M,Mikrotik-Group:full",
        }, /sets attributes, a login to the router .* which needs the admin role/],
        [
          "router_add_user_manager_user",
          {
            name: "op-backdoor",
            password: "Operator-Pw-1",
            group: "admins",
          },
          /sets group to "admins" \(\/user-manager\/user\/group "admins" holds a login to the router/,
        ],
        ["router_update_user_manager_user", { name: "sub1", group: "admins" }, /sets group/],
        ["router_update_user_manager_user", { name: "alice", password: "Operator-Pw-2" }, UM_HELD],
        ["router_update_user_manager_user", { name: "carol", password: "Operator-Pw-3" }, UM_HELD],
        ["router_apply_changes", {
          confirm: true,
          operations: [{
            tool: "router_update_user_manager_user",
            arguments: { name: "carol", password: "Operator-Pw-3" },
          }],
        }, UM_HELD],
      ];
      for (const [name, args, said] of granted) {
        const r = await operator.callTool({ name, arguments: { device: "r1", ...args } });
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}: ${textOf(r)}`);
        assert.match(textOf(r), said, `${name}: ${textOf(r)}`);
      }
      const users = sim.items("/user-manager/user").map((u) => `${u.name}:${u.password}`);
      assert.deepEqual(users, ["alice:Alice-Admin-1", "carol:Carol-Admin-1", "sub1:Sub-1"]);
      // Subscribers (PPP, hotspot) stay operate's: other attributes, the default group.
      for (
        const [name, args] of [
          ["router_add_user_manager_user", {
            name: "sub2",
            password: "Sub-2",
            group: "default",
            attributes: "Mikrotik-Rate-Limit:10M/10M",
          }],
          ["router_update_user_manager_user", { name: "sub1", password: "Sub-1b" }],
        ] as const
      ) {
        const r = await operator.callTool({ name, arguments: { device: "r1", ...args } });
        assert.equal(r.isError, undefined, `${name}: ${textOf(r)}`);
      }
      const r = await admin.callTool({
        name: "router_update_user_manager_user",
        arguments: { device: "r1", name: "carol", password: "Carol-Admin-2" },
      });
      assert.equal(r.isError, undefined, textOf(r));
    });

    await t.step("turning SNMP on while a write community exists is admin's", async () => {
      // Hostile re-test 4 (issue 31): with SNMP off and an admin's write
      // community configured, an operate key turned SNMP on
      // (router_update_snmp_settings {enabled: true}) and the write community
      // answered again. Turning it off, and the other settings, stay operate's.
      assert.equal(sim.run("/snmp set enabled=no").exitCode, 0);
      for (
        const [name, args] of [
          ["router_update_snmp_settings", { enabled: true }],
          ["router_update_snmp_settings", { enabled: true, dry_run: true }],
          ["router_apply_changes", {
            confirm: true,
            operations: [{ tool: "router_update_snmp_settings", arguments: { enabled: true } }],
          }],
        ] as const
      ) {
        const r = await operator.callTool({ name, arguments: { device: "r1", ...args } });
        assert.equal(r.isError, true, `${name}: ${textOf(r)}`);
        assert.match(
          textOf(r),
          /sets enabled \(\/snmp\/community "[a-z-]+" holds SNMP write access, .*\), which needs the admin role/,
        );
      }
      assert.equal(sim.items("/snmp")[0].enabled, "false");
      for (const args of [{ contact: "noc" }, { enabled: false }]) {
        const r = await operator.callTool({
          name: "router_update_snmp_settings",
          arguments: { device: "r1", ...args },
        });
        assert.equal(r.isError, undefined, textOf(r));
      }
      const on = await admin.callTool({
        name: "router_update_snmp_settings",
        arguments: { device: "r1", enabled: true },
      });
      assert.equal(on.isError, undefined, textOf(on));
      const off = await operator.callTool({
        name: "router_update_snmp_settings",
        arguments: { device: "r1", enabled: false },
      });
      assert.equal(off.isError, undefined, textOf(off));
    });
  } finally {
    await operator.close();
    await admin.close();
    await srv.close();
    await sim.close();
  }
});

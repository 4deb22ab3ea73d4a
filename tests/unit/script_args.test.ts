/**
 * The properties whose value is a script the router runs
 * (`lib/routeros/script_args.ts`), held against the real command trees
 * (every `add`/`set` argument named like a script is judged) and against
 * the schema (a declared field is marked `script` exactly when it is one);
 * and the role a privileged field (every script field, SNMP write access,
 * a login RADIUS server) asks for (`requiredRole`), also to change an item
 * that holds one (`authorizeHeld`, which fails closed when it cannot read).
 */
import assert from "node:assert/strict";
import { isScriptArgument, SCRIPT_ARGUMENTS } from "../../lib/routeros/script_args.ts";
import { grantsPrivilege, SCRIPT_PRIVILEGE } from "../../lib/routeros/schema/field.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";
import { itemsAreInterfaces } from "../../lib/routeros/schema/menu.ts";
import { authorizeHeld, requiredRole } from "../../lib/tools/guard/roles.ts";
import { READ, type ToolContext, type ToolDef, WRITE } from "../../lib/tools/tool.ts";
import { trees, treesAvailable } from "../helpers/trees.ts";

/**
 * Arguments of the trees named like a script that are not one, each with
 * why (`add`/`set` of RouterOS 7.12 to 7.24).
 */
const NOT_SCRIPT: Record<string, string> = {
  "/certificate/scep-server/ra on-smart-card": "yes/no",
  "/console/settings log-script-errors": "yes/no",
  "/interface/wireless on-fail-retry-time": "a duration",
  "/iot/mqtt/brokers parallel-scripts-limit": "a number",
  "/ipv6/nd/prefix on-link": "yes/no",
  "/routing/igmp-proxy/mfc source": "a multicast source address",
  "/task source": "what a recording task records (with file-name, max-lines), not code",
  "/tool/netinstall script-file": "a file name on the netinstall host",
};

Deno.test("script arguments: every script-like argument of the command trees is judged", () => {
  if (!treesAvailable()) return;
  const looksScript = /script|^on-|^source$/;
  const seen = new Set<string>();
  const unjudged = new Set<string>();
  for (const tree of trees()) {
    for (const [path, menu] of Object.entries(tree.menus)) {
      for (const command of ["add", "set"]) {
        for (const arg of (menu.c?.[command] ?? "").split(" ").filter(Boolean)) {
          if (!looksScript.test(arg)) continue;
          const at = `${path} ${arg}`;
          seen.add(at);
          if (!isScriptArgument(path, arg) && !(at in NOT_SCRIPT)) unjudged.add(at);
        }
      }
    }
  }
  assert.deepEqual([...unjudged], [], "add each to SCRIPT_ARGUMENTS or NOT_SCRIPT");
  // Each judged argument is in some tree (but the RouterBOARD buttons, which a CHR lacks).
  const listed = [...SCRIPT_ARGUMENTS].flatMap(([path, names]) =>
    [...names].map((n) => `${path} ${n}`)
  ).filter((at) => !at.startsWith("/system/routerboard/"));
  for (const at of [...listed, ...Object.keys(NOT_SCRIPT)]) {
    assert.ok(seen.has(at), `${at} is not an add/set argument of any tree`);
  }
});

Deno.test("script arguments: the schema marks exactly the script fields", () => {
  const wrong: string[] = [];
  for (const menu of MENU_SCHEMAS) {
    for (const [name, field] of Object.entries(menu.fields)) {
      const names = [name, field.v6Name].filter((n): n is string => !!n);
      const listed = names.some((n) => isScriptArgument(menu.path, n));
      if (listed && !field.script) wrong.push(`${menu.path} ${name}: a script, not marked`);
      if (!listed && field.script) wrong.push(`${menu.path} ${name}: marked, not listed`);
      if (field.script && field.filter) wrong.push(`${menu.path} ${name}: a script as a filter`);
    }
    // A declared menu declares each of its script arguments: an undeclared one
    // is never read, so an item holding it is not held to admin (found by the
    // fourth hostile re-test: /ipv6/dhcp-client script, /ipv6/dhcp-server
    // binding-script, /system/logging/action script).
    for (const n of SCRIPT_ARGUMENTS.get(menu.path) ?? []) {
      const declared = Object.entries(menu.fields).some(([name, f]) =>
        name === n || f.v6Name === n
      );
      if (!declared) wrong.push(`${menu.path} ${n}: a script argument, not declared`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("requiredRole: setting a privileged field needs admin; reading or clearing one does not", () => {
  const privilegedArgs = {
    lease_script: { grants: SCRIPT_PRIVILEGE },
    write_access: { grants: "SNMP write access" },
    service: { grants: "RADIUS for router logins", values: ["login"] },
  };
  const write = { annotations: WRITE, privilegedArgs };
  assert.equal(requiredRole(write), "operate");
  assert.equal(requiredRole(write, { name: "x" }), "operate");
  assert.equal(requiredRole(write, { lease_script: "" }), "operate");
  assert.equal(requiredRole(write, { lease_script: ":log info x" }), "admin");
  assert.equal(requiredRole(write, { write_access: false }), "operate");
  assert.equal(requiredRole(write, { write_access: null }), "operate");
  assert.equal(requiredRole(write, { write_access: true }), "admin");
  // Only the values that grant it, in a list or comma-separated text.
  assert.equal(requiredRole(write, { service: ["ppp", "hotspot"] }), "operate");
  assert.equal(requiredRole(write, { service: [] }), "operate");
  assert.equal(requiredRole(write, { service: ["ppp", "login"] }), "admin");
  assert.equal(requiredRole(write, { service: ["ppp,LOGIN"] }), "admin");
  assert.equal(requiredRole({ ...write, role: "admin" }, { name: "x" }), "admin");
  const read = { annotations: READ, privilegedArgs };
  assert.equal(requiredRole(read, { lease_script: ":log info x" }), "read");
});

Deno.test("privileged fields: every script field is one, SNMP write access, login RADIUS and User Manager's Mikrotik-Group", () => {
  const privileged = MENU_SCHEMAS.flatMap((m) =>
    Object.entries(m.fields).flatMap(([name, f]) => f.privileged ? [{ m, name, f }] : [])
  );
  for (const { m, name, f } of privileged) {
    if (f.script) assert.equal(f.privileged, SCRIPT_PRIVILEGE, `${m.path} ${name}`);
  }
  assert.deepEqual(
    [...new Set(privileged.filter(({ f }) => !f.script).map(({ m, name }) => `${m.path} ${name}`))],
    [
      "/radius service",
      "/user-manager/user attributes",
      "/user-manager/user/group attributes",
      "/snmp/community write-access",
    ],
  );
  // An attribute's name (`mikrotik-group:`) matches each of its values, in any case.
  const group = { grants: "login", values: ["mikrotik-group:"] };
  for (const v of ["Mikrotik-Group:full", "Mikrotik-Rate-Limit:1M,MIKROTIK-GROUP : read"]) {
    assert.equal(grantsPrivilege(group, v), true, v);
  }
  for (const v of ["Mikrotik-Rate-Limit:1M/1M", "Mikrotik-Group", "x:Mikrotik-Group:full", ""]) {
    assert.equal(grantsPrivilege(group, v), false, v);
  }
});

Deno.test("authorizeHeld: an item that holds a privilege is admin's; unreadable, the write is refused", async () => {
  const tool = (held: () => Promise<string[]>) =>
    ({
      name: "t",
      annotations: WRITE,
      privilegedArgs: { write_access: { grants: "SNMP write access" } },
      heldPrivileges: held,
    }) as unknown as ToolDef;
  const ctx = {} as ToolContext;
  const operator = { name: "key:op", role: "operate" as const };
  const admin = { name: "key:admin", role: "admin" as const };
  const none = tool(() => Promise.resolve([]));
  const held = tool(() => Promise.resolve(["SNMP write access"]));
  const broken = tool(() => Promise.reject(new Error("timed out")));
  await authorizeHeld(operator, none, "t", {}, ctx);
  await assert.rejects(
    authorizeHeld(operator, held, "t", {}, ctx),
    /t changes an item that holds SNMP write access, which needs the admin role/,
  );
  await assert.rejects(
    authorizeHeld(operator, broken, "t", {}, ctx),
    /could not be read to tell whether it holds SNMP write access.*\(timed out\)\. Nothing was sent/,
  );
  // Admin and the process's owner are not asked (no read).
  await authorizeHeld(admin, broken, "t", {}, ctx);
  await authorizeHeld(undefined, broken, "t", {}, ctx);
});

Deno.test("privileged interfaces: each menu of interfaces that can hold a privilege is found by its type", () => {
  // A write through /interface finds the item's own menu by `type`, taken as
  // the menu's last word (lib/tools/menu_tools/privileges.ts). A new menu of
  // interfaces with a privileged field must be checked here against the
  // `type` real routers print for it (wireguard prints `wg`, not the word).
  const holding = MENU_SCHEMAS.filter((m) =>
    itemsAreInterfaces(m) &&
    Object.values(m.fields).some((f) => f.privileged || f.privilegedThrough)
  ).map((m) => m.path);
  assert.deepEqual(holding, ["/interface/vrrp"], "its type: check it, then add it here");
});

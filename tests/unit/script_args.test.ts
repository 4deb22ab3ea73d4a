/**
 * The properties whose value is a script the router runs
 * (`lib/routeros/script_args.ts`), held against the real command trees
 * (every `add`/`set` argument named like a script is judged) and against
 * the schema (a declared field is marked `script` exactly when it is one);
 * and the role a privileged field (every script field, SNMP write access)
 * asks for (`requiredRole`).
 */
import assert from "node:assert/strict";
import { isScriptArgument, SCRIPT_ARGUMENTS } from "../../lib/routeros/script_args.ts";
import { SCRIPT_PRIVILEGE } from "../../lib/routeros/schema/field.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";
import { requiredRole } from "../../lib/tools/guard/roles.ts";
import { READ, WRITE } from "../../lib/tools/tool.ts";
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
  }
  assert.deepEqual(wrong, []);
});

Deno.test("requiredRole: setting a privileged field needs admin; reading or clearing one does not", () => {
  const privilegedArgs = { lease_script: SCRIPT_PRIVILEGE, write_access: "SNMP write access" };
  const write = { annotations: WRITE, privilegedArgs };
  assert.equal(requiredRole(write), "operate");
  assert.equal(requiredRole(write, { name: "x" }), "operate");
  assert.equal(requiredRole(write, { lease_script: "" }), "operate");
  assert.equal(requiredRole(write, { lease_script: ":log info x" }), "admin");
  assert.equal(requiredRole(write, { write_access: false }), "operate");
  assert.equal(requiredRole(write, { write_access: null }), "operate");
  assert.equal(requiredRole(write, { write_access: true }), "admin");
  assert.equal(requiredRole({ ...write, role: "admin" }, { name: "x" }), "admin");
  const read = { annotations: READ, privilegedArgs };
  assert.equal(requiredRole(read, { lease_script: ":log info x" }), "read");
});

Deno.test("privileged fields: every script field is one, and SNMP write access", () => {
  const privileged = MENU_SCHEMAS.flatMap((m) =>
    Object.entries(m.fields).flatMap(([name, f]) => f.privileged ? [{ m, name, f }] : [])
  );
  for (const { m, name, f } of privileged) {
    if (f.script) assert.equal(f.privileged, SCRIPT_PRIVILEGE, `${m.path} ${name}`);
  }
  assert.deepEqual(
    [...new Set(privileged.filter(({ f }) => !f.script).map(({ m, name }) => `${m.path} ${name}`))],
    ["/snmp/community write-access"],
  );
});

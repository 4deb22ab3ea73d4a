/**
 * The script checker of the catalogue matrix (`tests/helpers/script_check.ts`)
 * on the real command trees: it finds the mismatches issue 15 names (ping's
 * `routing-table`, `request-logout` gone in 7.20, `:serialize options=` on
 * 7.13 to 7.16, NAT `connection-state`) wherever they hide in a script, and
 * passes what the trees have.
 */
import assert from "node:assert/strict";
import { ScriptChecker } from "../helpers/script_check.ts";
import { trees, treesAvailable } from "../helpers/trees.ts";

const ignore = !treesAvailable();
const tree = (v: string) => trees().find((t) => t.version === v)!;

Deno.test({
  name: "script check: what a release has passes, in every nesting",
  ignore,
  fn() {
    const c = new ScriptChecker(tree("7.16.2"));
    assert.deepEqual(
      c.check(
        ':local id [/ip address add address="10.0.0.1/24" interface="ether2" comment="x"]; ' +
          '{:local r [:toarray ""]; :foreach i in=[/ip address print detail as-value where ' +
          'interface="ether2"] do={:set ($r->[:len $r]) $i}; :put [:serialize to=json $r]}; ' +
          '/ip address set [find address="10.0.0.1/24"] comment="y"; :log info "done"',
      ),
      [],
    );
    assert.deepEqual(c.check("/tool ping address=127.0.0.1 count=2 vrf=main as-value"), []);
    assert.ok(c.counts.checked >= 8, `${c.counts.checked} commands read`);
  },
});

Deno.test({
  name: "script check: arguments, commands, menus and values a release lacks are found",
  ignore,
  fn() {
    const t16 = new ScriptChecker(tree("7.16.2"));
    assert.deepEqual(t16.check(":put [/tool ping address=1.1.1.1 routing-table=main as-value]"), [
      "tool ping: no argument routing-table",
    ]);
    assert.deepEqual(
      t16.check(':put [:serialize to=json options=json.no-string-conversion ({"a"=1})]'),
      ["serialize options=json.no-string-conversion: not among json.pretty"],
    );
    assert.deepEqual(
      t16.check("/ip firewall nat add chain=srcnat action=masquerade connection-state=new"),
      ["ip firewall nat add: no argument connection-state"],
    );
    assert.deepEqual(t16.check("{:foreach i in=[/ip adress print] do={}}"), [
      "/ip: no command adress",
    ]);
    assert.deepEqual(t16.check("/ip address; print bogus"), [
      "ip address print: no argument bogus",
    ]);
    assert.deepEqual(
      new ScriptChecker(tree("7.13.5")).check(":put [:serialize to=json options=json.pretty 1]"),
      ["serialize: no argument options"],
    );
    assert.deepEqual(new ScriptChecker(tree("7.20.8")).check("/user active request-logout *3"), [
      "/user/active: no command request-logout",
    ]);
  },
});

Deno.test({
  name: "script check: menus the tree cannot judge are counted, not checked",
  ignore,
  fn() {
    const c = new ScriptChecker(
      tree("7.24"),
      new Map([["/interface/ethernet/poe", "hardware a CHR lacks"]]),
    );
    assert.deepEqual(c.check("/interface ethernet poe print detail as-value"), []);
    assert.equal(c.counts.skipped.get("hardware a CHR lacks"), 1);
  },
});

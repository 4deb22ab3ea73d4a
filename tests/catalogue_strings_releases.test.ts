/**
 * Strings come back byte for byte on every release. `:serialize` turns a
 * string that looks like a number into a float on 7.13 to 7.16 (`"7.10"` →
 * `7.100000`), which cannot be turned back into the text stored; the client
 * reads those releases in the guarded form instead (lib/routeros/serialize.ts).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { ok, startRig } from "./helpers/catalogue.ts";
import { PROFILES } from "./helpers/profiles.ts";

const COMMENTS = ["7.10", "0042", "1234", "1e3", "-0", "2.50", "12345678901234567890", ""];

for (const version of PROFILES) {
  Deno.test(`strings round-trip byte-exact on RouterOS ${version}`, async () => {
    const rig = await startRig(version, [], (v) => startSimulator({ version: v }));
    try {
      const ids: string[] = [];
      for (const [i, comment] of COMMENTS.entries()) {
        const added = await ok(rig.session, "router_add_ip_address", {
          address: `10.66.${i}.1/24`,
          interface: "ether2",
          comment,
        });
        const item = added.item as Record<string, unknown>;
        assert.equal(item.comment ?? "", comment, `add read-back of ${JSON.stringify(comment)}`);
        ids.push(String(item.id));
      }
      const listed = await ok(rig.session, "router_list_ip_addresses", {
        where: { interface: "ether2" },
      });
      const byId = new Map(
        (listed.items as Record<string, unknown>[]).map((it) => [it.id, it.comment ?? ""]),
      );
      COMMENTS.forEach((c, i) => assert.equal(byId.get(ids[i]), c, `list of ${JSON.stringify(c)}`));
      const got = await ok(rig.session, "router_get_ip_address", { id: ids[0] });
      assert.equal((got.item as Record<string, unknown>).comment, COMMENTS[0]);
      const updated = await ok(rig.session, "router_update_ip_address", {
        id: ids[1],
        comment: "3.140",
      });
      assert.equal((updated.after as Record<string, unknown>).comment, "3.140");
      // What the router stored is what was sent.
      const stored = rig.sim.items("/ip/address").find((it) => it[".id"] === ids[1]);
      assert.equal(stored?.comment, "3.140");
    } finally {
      await rig.close();
    }
  });
}

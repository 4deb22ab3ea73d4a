/**
 * The version matrix: the list and write tests of every menu against
 * simulated RouterOS 7.12 (terse reads, no JSON) and 6.49 (space paths only,
 * routing-mark, v6 singletons), plus the clear error for a menu a version
 * does not have. 7.16 is covered by catalogue_menus.test.ts.
 */
import assert from "node:assert/strict";
import { type SimVersion, startSimulator } from "../lib/sim/mod.ts";
import { MENU_TOOLS } from "../lib/tools/catalogue.ts";
import { callTool } from "./helpers/mcp.ts";
import {
  exerciseMenu,
  exerciseSeededRemove,
  menuOn,
  orderedMenus,
  seedRemovables,
  startRig,
} from "./helpers/catalogue.ts";

for (const version of ["7.12", "6.49"] as SimVersion[]) {
  Deno.test(`catalogue on RouterOS ${version}: every menu's list and write tools`, async (t) => {
    const rig = await startRig(version, [], (v) => startSimulator({ version: v }));
    try {
      for (const menu of orderedMenus(version)) {
        await t.step(
          `${menu.schema.path} (${menu.verbs.join(", ")})`,
          () => exerciseMenu(rig, menu),
        );
      }
      const seeded = seedRemovables(rig.sim, version);
      for (const menu of MENU_TOOLS) {
        if (
          !menuOn(menu, version) || menu.verbs.includes("add") || !menu.verbs.includes("remove")
        ) {
          continue;
        }
        await t.step(
          `${menu.schema.path} remove`,
          () => exerciseSeededRemove(rig, menu, seeded[menu.schema.path]),
        );
      }
      await t.step("a menu this version lacks is a clear tool error", async () => {
        const missing = MENU_TOOLS.filter((m) => !menuOn(m, version));
        assert.ok(missing.length > 0, "some menu is not on this version");
        for (const menu of missing) {
          // Settings menus (`/container/config`) have get, not list.
          const tool = menu.verbs.includes("list")
            ? `router_list_${menu.noun.stems}`
            : `router_get_${menu.noun.stem}`;
          const r = await callTool(rig.session, tool);
          assert.equal(r.isError, true);
          assert.match(
            r.content[0].text,
            new RegExp(`is not on RouterOS ${version.replace(".", "\\.")}`),
          );
          assert.match(r.content[0].text, /needs RouterOS \d/);
        }
      });
      if (version.startsWith("6.")) {
        await t.step("a property RouterOS 6 lacks is refused by name, nothing sent", async () => {
          const before = rig.sim.counters.commands;
          const r = await callTool(rig.session, "router_add_route", {
            dst_address: "10.98.0.0/24",
            gateway: "192.168.88.254",
            blackhole: true,
          });
          assert.equal(r.isError, true);
          assert.match(
            r.content[0].text,
            /blackhole is not on RouterOS 6\.49: it needs RouterOS 7/,
          );
          assert.equal(rig.sim.counters.commands, before, "nothing reached the router");
        });
        await t.step("an Ed25519 key is refused naming the release that takes it", async () => {
          const before = rig.sim.counters.commands;
          const r = await callTool(rig.session, "router_add_user_ssh_key", {
            user: "admin-keys",
            public_key:
              "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDnlmosE3pcyb9aH03X86BnfStWV1qAmvdhP6SkVuE9b a@b",
          });
          assert.equal(r.isError, true);
          assert.match(
            r.content[0].text,
            /an Ed25519 key is not on RouterOS 6\.49: it needs RouterOS 7\.12 or later/,
          );
          assert.equal(rig.sim.counters.commands, before, "nothing reached the router");
        });
        await t.step("routing_table is sent as routing-mark", async () => {
          const r = await callTool(rig.session, "router_add_route", {
            dst_address: "10.98.1.0/24",
            gateway: "192.168.88.254",
            routing_table: "vpn",
          });
          assert.ok(!r.isError, r.content[0].text);
          const item = r.structuredContent?.item as Record<string, unknown>;
          assert.equal(item.routing_table, "vpn");
          const raw = rig.sim.items("/ip/route").find((i) => i[".id"] === item.id);
          assert.equal(raw?.["routing-mark"], "vpn");
        });
      }
    } finally {
      await rig.close();
    }
  });
}

/**
 * Every menu of the catalogue through its generated tools, over MCP and real
 * SSH, against a simulated RouterOS 7.16: add, list, get, update (before and
 * after), disable, enable, move and remove, each checked on the router.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { MENU_TOOLS } from "../lib/tools/catalogue.ts";
import { callTool } from "./helpers/mcp.ts";
import {
  exerciseMenu,
  exerciseSeededRemove,
  menuOn,
  orderedMenus,
  type Rig,
  seedRemovables,
  startRig,
} from "./helpers/catalogue.ts";

const VERSION = "7.16" as const;

Deno.test(`catalogue: every menu's tools against simulated RouterOS ${VERSION}`, async (t) => {
  // with the wireless package, which the legacy CAPsMAN needs from 7.13 (lib/sim/packages.ts)
  const rig: Rig = await startRig(
    VERSION,
    [],
    (version) => startSimulator({ version, packages: ["wireless"] }),
  );
  try {
    for (const menu of orderedMenus(VERSION)) {
      await t.step(`${menu.schema.path} (${menu.verbs.join(", ")})`, () => exerciseMenu(rig, menu));
    }
    const seeded = seedRemovables(rig.sim, VERSION);
    for (const menu of MENU_TOOLS) {
      if (!menuOn(menu, VERSION) || menu.verbs.includes("add") || !menu.verbs.includes("remove")) {
        continue;
      }
      await t.step(
        `${menu.schema.path} remove`,
        () => exerciseSeededRemove(rig, menu, seeded[menu.schema.path]),
      );
    }
  } finally {
    await rig.close();
  }
});

Deno.test("catalogue: without the wireless package, a 7.16 router's CAPsMAN tools say to install it", async () => {
  const rig = await startRig(VERSION, [], (version) => startSimulator({ version }));
  try {
    for (const tool of ["router_get_capsman_manager", "router_list_capsman_configurations"]) {
      const r = await callTool(rig.session, tool);
      assert.equal(r.isError, true, tool);
      assert.match(r.content[0].text, /package wireless is not installed on this router/);
    }
    // the wifi CAPsMAN of the wifi-qcom radios is there
    assert.ok(!(await callTool(rig.session, "router_get_wifi_capsman")).isError);
  } finally {
    await rig.close();
  }
});

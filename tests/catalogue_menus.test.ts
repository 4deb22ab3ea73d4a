/**
 * Every menu of the catalogue through its generated tools, over MCP and real
 * SSH, against a simulated RouterOS 7.16: add, list, get, update (before and
 * after), disable, enable, move and remove, each checked on the router.
 */
import { startSimulator } from "../lib/sim/mod.ts";
import { MENU_TOOLS } from "../lib/tools/catalogue.ts";
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
  const rig: Rig = await startRig(VERSION, [], (version) => startSimulator({ version }));
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

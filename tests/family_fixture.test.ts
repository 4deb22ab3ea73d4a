/**
 * A family is three modules (schema, tool presentation, simulator), each
 * exporting one list: the widget family of `fixtures/widget_family/` is
 * declared there and nowhere else, and once its lists are spread beside the
 * product's (as the registries spread every family's), its tools are in the
 * catalogue with their names, titles and schemas, `router_print` and
 * `router_export_config` offer its menu, and its tools work end to end over
 * MCP and real SSH against a simulated router that has the menu.
 */
import assert from "node:assert/strict";
import { MENU_SCHEMAS } from "../lib/routeros/schema/registry.ts";
import { MenuIndex } from "../lib/sim/menu_index.ts";
import { LOOSE_COMMANDS } from "../lib/sim/menus/loose.ts";
import { ALL_MENUS } from "../lib/sim/menus/registry.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { buildCatalogue, MENU_TOOLS } from "../lib/tools/catalogue.ts";
import { ok } from "./helpers/catalogue.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";
import { callTool, listAllTools } from "./helpers/mcp.ts";
import { WIDGET_SCHEMAS } from "./fixtures/widget_family/schema.ts";
import { WIDGET_MENUS } from "./fixtures/widget_family/sim.ts";
import { WIDGET_MENU_TOOLS } from "./fixtures/widget_family/tools.ts";

const tools = buildCatalogue({
  schemas: [...MENU_SCHEMAS, ...WIDGET_SCHEMAS],
  menus: [...MENU_TOOLS, ...WIDGET_MENU_TOOLS],
});

Deno.test("a test's family is in the catalogue with the names and titles its noun gives", () => {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const want = {
    router_list_widgets: "List widgets",
    router_get_widget: "Get one widget",
    router_add_widget: "Add widget",
    router_update_widget: "Update widget",
    router_remove_widget: "Remove widget",
    router_enable_widget: "Enable widget",
    router_disable_widget: "Disable widget",
  };
  for (const [name, title] of Object.entries(want)) {
    assert.equal(byName.get(name)?.title, title, name);
    assert.equal(byName.get(name)?.toolset, "system", name);
  }
  assert.match(byName.get("router_add_widget")!.description, /Widgets exist only in this test\./);
  // The product's catalogue is untouched: the family is only where it is spread.
  assert.equal(
    tools.length,
    buildCatalogue({ schemas: MENU_SCHEMAS, menus: MENU_TOOLS }).length + 7,
  );
});

for (const version of ["6.49.13", "7.16.2"]) {
  Deno.test(`a test's family works end to end on RouterOS ${version}`, async () => {
    const sim = await startSimulator({
      version,
      menus: new MenuIndex([...ALL_MENUS, ...WIDGET_MENUS], LOOSE_COMMANDS),
    });
    const session = await serveInProcess(
      simArgs(sim),
      {},
      {},
      { tools },
    );
    try {
      const listed = new Map((await listAllTools(session.client)).map((t) => [t.name, t]));
      assert.ok(listed.has("router_list_widgets"), "listed over MCP");
      const size =
        (listed.get("router_add_widget")!.inputSchema.properties as Record<string, unknown>)
          .size;
      assert.deepEqual(size, {
        type: "integer",
        minimum: 1,
        maximum: 100,
        description: "Size in units, 1-100",
      });

      const added = (await ok(session, "router_add_widget", { name: "w1", size: 7 })).item as {
        id: string;
      };
      assert.deepEqual(sim.items("/tool/widget").map((w) => [w.name, w.size]), [["w1", "7"]]);
      await ok(session, "router_update_widget", { name: "w1", size: 9 });
      await ok(session, "router_disable_widget", { id: added.id });
      const list = await ok(session, "router_list_widgets", { where: { disabled: true } });
      assert.deepEqual(list.items, [{
        id: added.id,
        name: "w1",
        size: 9,
        disabled: true,
      }]);
      const printed = await ok(session, "router_print", { path: "/tool/widget" });
      assert.equal((printed.items as Record<string, unknown>[])[0].name, "w1");
      const exported = await ok(session, "router_export_config", { section: "/tool/widget" });
      assert.match(exported.config as string, /add disabled=yes name=w1 size=9/);
      const refused = await callTool(session, "router_add_widget", { name: "w2", size: 101 });
      assert.ok(refused.isError, "a size out of range is refused before anything is sent");
      await ok(session, "router_remove_widget", { id: added.id, confirm: true });
      assert.deepEqual(sim.items("/tool/widget"), []);
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

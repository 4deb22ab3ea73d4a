/**
 * A RouterOS family is one module per layer (schema menus, tool
 * presentations, simulator menus), each exporting one list that its
 * registry spreads. These tests hold the layers together: every schema menu
 * has a tool presentation and every presentation's menu is in the schema
 * registry, and the simulator has every schema menu on every release where
 * the schema says it exists (so a family missing from one registry fails
 * here, not on a router).
 */
import assert from "node:assert/strict";
import { release, type ReleaseRange } from "../../lib/routeros/release.ts";
import { menuOnRelease } from "../../lib/routeros/schema/menu.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";
import { SIM_MENUS } from "../../lib/sim/menus/registry.ts";
import { catalogue, MENU_TOOLS } from "../../lib/tools/catalogue.ts";

/** Schema menus read by a hand-written tool instead of engine tools, with that tool. */
const HAND_PRESENTED = new Map([["/log", "router_get_logs"]]);

/** The supported releases the tests simulate, plus every release a menu range starts or ends at. */
function releasesToCheck(): string[] {
  const bounds = MENU_SCHEMAS.flatMap((m) => {
    const r: ReleaseRange = m.releases ?? {};
    return [r.from, r.until].filter((v): v is string => v !== undefined);
  });
  const matrix = ["6.49.13", "7.12.2", "7.15.3", "7.16.2", "7.17", "7.20.8", "7.24"];
  return [...new Set([...matrix, ...bounds])];
}

Deno.test("every schema menu has a tool presentation, and every presentation's menu is registered", () => {
  const presented = new Set(MENU_TOOLS.map((m) => m.schema));
  const tools = new Set(catalogue().map((t) => t.name));
  for (const m of MENU_SCHEMAS) {
    const hand = HAND_PRESENTED.get(m.path);
    if (hand) {
      assert.ok(tools.has(hand), `${m.path} is read by ${hand}, which is in the catalogue`);
      continue;
    }
    assert.ok(presented.has(m), `${m.path}: a schema menu without a tool presentation`);
  }
  const registered = new Set(MENU_SCHEMAS);
  for (const spec of MENU_TOOLS) {
    assert.ok(
      registered.has(spec.schema),
      `${spec.schema.path}: presented as tools, but its family's schema list leaves it out`,
    );
  }
});

Deno.test("the simulator has every schema menu on every release where it exists", () => {
  const checked = new Set<string>();
  for (const text of releasesToCheck()) {
    const r = release(text);
    for (const m of MENU_SCHEMAS) {
      if (!menuOnRelease(m, r)) continue;
      assert.ok(
        SIM_MENUS.byPath(m.path, r),
        `${m.path} exists on RouterOS ${text} (schema) but the simulator has no such menu there`,
      );
      checked.add(m.path);
    }
  }
  assert.equal(checked.size, new Set(MENU_SCHEMAS.map((m) => m.path)).size);
});

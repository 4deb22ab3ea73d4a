/**
 * Test support: puts items into a running simulator that the CLI cannot
 * create (dynamic addresses, interfaces of other kinds), the way a real
 * router gets them from DHCP, PPP or ZeroTier.
 *
 * @module
 */
import type { SimRouter } from "./mod.ts";
import type { RouterCore } from "./router.ts";

/** Stores an item as is (all values strings); returns its new `.id`. */
export function injectItem(r: SimRouter, menu: string, item: Record<string, string>): string {
  const core = (r as unknown as { core: RouterCore }).core;
  const st = core.state();
  const m = st.menus.byPath(menu, st.release);
  if (!m) throw new Error(`unknown menu ${menu}`);
  const t = st.tableOf(m);
  const id = st.newId(t);
  t.items.push({ ".id": id, ...(m.match ?? {}), ...item });
  st.touch();
  return id;
}

/** `/system/*` menus. */
import type { MenuDef } from "../menu_types.ts";
import { str } from "./common.ts";

/** `/system/identity`. */
const IDENTITY: MenuDef = {
  path: "/system/identity",
  kind: "single",
  props: [str("name", { default: "MikroTik" })],
  defaults: (st) => [{ name: st.init.identity }],
};

/** System menus. */
export const SYSTEM_MENUS: MenuDef[] = [IDENTITY];

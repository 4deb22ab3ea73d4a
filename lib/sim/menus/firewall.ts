/** `/ip/firewall/*` and `/ipv6/firewall/*`. */
import type { MenuDef } from "../menu_types.ts";

/** Firewall menus. */
export const FIREWALL_MENUS: MenuDef[] = [];

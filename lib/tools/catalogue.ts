/**
 * The tool catalogue: every menu declaration plus the hand-written tools.
 *
 * @module
 */
import { listDevices } from "./devices_tool.ts";
import { menuTools } from "./engine.ts";
import type { Menu } from "./menu.ts";
import { ipAddress } from "./menus/ip.ts";
import type { ToolDef } from "./tool.ts";

/** Every declared menu. */
export const MENUS: readonly Menu[] = [ipAddress];

/** Catalogue switches. */
export interface CatalogueOptions {
  /** Include `router_run_command` (raw commands). */
  allowRawCommands?: boolean;
}

/** Every tool of the catalogue, in a stable order. */
export function catalogue(_options: CatalogueOptions = {}): ToolDef[] {
  return [listDevices, ...MENUS.flatMap(menuTools)];
}

/**
 * Every tool a menu's presentation offers: reads from `engine.ts`, writes
 * from `writes.ts`.
 *
 * @module
 */
import type { ToolDef } from "../tool.ts";
import { checkSpec, getTool, listTool } from "./engine.ts";
import type { MenuTools } from "./spec.ts";
import { WRITE_VERBS } from "./writes.ts";

/** Every tool a menu's presentation offers. */
export function menuTools(spec: MenuTools): ToolDef[] {
  checkSpec(spec);
  return spec.verbs.map((verb) => {
    if (verb === "list") return listTool(spec);
    if (verb === "get") return getTool(spec);
    return WRITE_VERBS[verb](spec);
  });
}

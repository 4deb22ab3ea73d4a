/**
 * Every tool a menu's presentation offers: reads from `read_tools.ts`, writes
 * from `writes.ts`.
 *
 * @module
 */
import type { ToolDef } from "../tool.ts";
import { getTool, listTool } from "./read_tools.ts";
import { checkSpec } from "./naming.ts";
import { withPackage } from "./package.ts";
import type { MenuTools } from "./spec.ts";
import { WRITE_VERBS } from "./writes.ts";

/** Every tool a menu's presentation offers. */
export function menuTools(spec: MenuTools): ToolDef[] {
  checkSpec(spec);
  const pkg = spec.schema.package;
  return spec.verbs.map((verb) => {
    const tool = verb === "list"
      ? listTool(spec)
      : verb === "get"
      ? getTool(spec)
      : WRITE_VERBS[verb](spec);
    return pkg ? withPackage(tool, pkg, spec.schema.path) : tool;
  });
}

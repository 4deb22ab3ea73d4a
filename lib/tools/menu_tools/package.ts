/**
 * Menus of extra packages (`/container`): when the package is not
 * installed, RouterOS does not know the menu and answers `bad command
 * name`. The tools of such a menu say what is missing instead.
 *
 * @module
 */
import { RouterOsError } from "../../routeros/errors.ts";
import type { ToolDef } from "../tool.ts";

/** The error for a menu whose package the router lacks. */
export function packageMissing(pkg: string, path: string, cause: RouterOsError): RouterOsError {
  return new RouterOsError(
    "bad-command",
    `package ${pkg} is not installed on this router (RouterOS does not know ${path}); ` +
      `install the ${pkg} package from MikroTik's extra packages`,
    cause.routerMessage,
  );
}

/** `tool` with its `bad command name` answers turned into "package X is not installed". */
export function withPackage(tool: ToolDef, pkg: string, path: string): ToolDef {
  const translate = (e: unknown): never => {
    if (e instanceof RouterOsError && e.kind === "bad-command") throw packageMissing(pkg, path, e);
    throw e;
  };
  return {
    ...tool,
    handler: (args, ctx) => tool.handler(args, ctx).catch(translate),
    ...(tool.dryRun ? { dryRun: (args, ctx) => tool.dryRun!(args, ctx).catch(translate) } : {}),
  };
}

/**
 * Refusals of the guard chain, each a sentence an agent can act on: which
 * guard refused, and what would change its answer.
 *
 * @module
 */
import type { ToolDef } from "../tool.ts";
import { nearest } from "../nearest_names.ts";
import { cut } from "../../echo.ts";

/** Which guard refused a call. */
export type Guard =
  | "selection"
  | "read-only"
  | "read-only-device"
  | "secrets"
  | "confirm"
  | "lockout"
  | "dry-run"
  | "role"
  | "scope"
  | "pending-change"
  | "audit";

/** A call the guard chain refused; nothing was sent. */
export class RefusedError extends Error {
  readonly guard: Guard;

  constructor(guard: Guard, message: string) {
    super(message);
    this.name = "RefusedError";
    this.guard = guard;
  }
}

/**
 * Why a tool is not callable here: read-only mode, an opt-in the operator
 * did not give (`--allow-raw-commands`), a toolset not chosen, or no such tool.
 */
export function whyNotSelected(
  name: string,
  all: ReadonlyMap<string, ToolDef>,
  selected: ReadonlyMap<string, ToolDef>,
  readOnly: boolean,
  parent?: string,
): RefusedError {
  const what = parent ? `${cut(name)} (inside ${parent})` : cut(name);
  const tool = all.get(name);
  if (tool && readOnly && !tool.annotations.readOnlyHint) {
    return new RefusedError(
      "read-only",
      `${what} changes the router, and this server is read-only (--read-only or ` +
        "ROUTER_READ_ONLY); restart it without read-only mode to make changes",
    );
  }
  const toolsetChosen = tool && [...selected.values()].some((t) => t.toolset === tool.toolset);
  if (tool?.optIn === "raw-commands") {
    return new RefusedError(
      "selection",
      `${what} sends raw console text, which this server was not started to allow: restart it ` +
        "with --allow-raw-commands (ROUTER_ALLOW_RAW_COMMANDS)" +
        (toolsetChosen ? "" : ` and the ${tool.toolset} toolset in --toolsets`),
    );
  }
  if (tool) {
    return new RefusedError(
      "selection",
      `${what} is in the ${tool.toolset} toolset, which this server was not started with: ` +
        `add ${tool.toolset} to --toolsets (ROUTER_TOOLSETS), or use --toolsets all`,
    );
  }
  const near = nearest(name, selected.keys());
  return new RefusedError(
    "selection",
    `unknown tool ${cut(name)}${near.length ? `; did you mean ${near.join(", ")}?` : ""}`,
  );
}

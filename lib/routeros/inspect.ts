/**
 * `/console inspect request=child`: the router's own menu tree (RouterOS 7).
 * Each answer is a `self` record for the node asked about, then one `child`
 * record per sub-menu (`dir`), command (`cmd`) or argument (`arg`), with the
 * keys `type`, `name` and `node-type` (as the REST API and the per-release
 * trees in `../shared/fidelity` show them).
 *
 * @module
 */
import { bracket, cmd, type Expr } from "./command.ts";
import type { RawItem } from "./parse_json.ts";
import { checkName } from "./quote.ts";

/** One child of a menu node. */
export interface InspectChild {
  name: string;
  kind: "dir" | "cmd" | "arg" | "path";
}

/** The keys of each inspect record. */
export const INSPECT_KEYS: readonly string[] = ["type", "name", "node-type"];

/** `[/console inspect as-value request=child path="ip,address"]` for a comma-joined path. */
export function inspectExpr(path: string): Expr {
  for (const word of path.split(",").filter((w) => w !== "")) checkName(word, "menu word");
  return bracket(cmd("/console", "inspect", {
    switches: ["as-value"],
    args: { request: "child", path },
  }));
}

/** The children in an answer (the `self` record left out). */
export function inspectChildren(records: readonly RawItem[]): InspectChild[] {
  return records
    .filter((r) => r.type === "child" && typeof r.name === "string")
    .map((r) => ({
      name: String(r.name),
      kind:
        (["dir", "cmd", "arg", "path"].includes(String(r["node-type"]))
          ? r["node-type"]
          : "cmd") as InspectChild["kind"],
    }));
}

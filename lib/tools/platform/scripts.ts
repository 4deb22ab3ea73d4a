/**
 * `router_run_script`: run a named system script. The script can do
 * anything its policies allow, so the call is destructive and needs
 * `confirm: true`.
 *
 * @module
 */
import * as z from "zod";
import { cmd, type ItemRef, refCondition } from "../../routeros/command.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { scripts } from "../../routeros/schema/menus/platform.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, itemObject, menuDialect, refOn } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE } from "../tool.ts";

function scriptRef(args: { id?: string; name?: string }): ItemRef {
  if (args.id !== undefined) return { id: args.id };
  if (args.name !== undefined) return { key: "name", value: args.name };
  throw new ArgumentError("give id or name to say which script");
}

/** `router_run_script`. */
export const runScript = defineTool({
  name: "router_run_script",
  title: "Run a system script",
  description:
    "Run a script of /system/script by id or name. It does whatever its source says, with its " +
    "policies, so the call needs confirm: true. Returns the script afterwards (run_count).",
  toolset: "platform",
  input: {
    id: ID_SCHEMA.optional().describe("Script id (.id), such as *1"),
    name: z.string().max(255).optional().describe("Or the script's name; give id or name"),
  },
  requireOneOf: ["id", "name"],
  output: { item: itemObject(scripts) },
  example: { name: "script-example" },
  annotations: DESTRUCTIVE,
  role: "admin",
  perDevice: true,
  async handler(args, ctx) {
    const dialect = await menuDialect(scripts, ctx);
    const ref = refOn(scripts, scriptRef(args), dialect.release);
    const spec = readSpecOf(scripts, dialect.release);
    const [found] = await ctx.client.read(spec, [refCondition(ref)]);
    if (!found) throw new RouterOsError("not-found", "no such script", "no such item");
    const id = String(found[".id"]);
    const script = new Script(dialect);
    script.do(cmd(scripts.path, "run", { ids: { number: id } }));
    const read = script.read(spec, [refCondition({ id })]);
    const [raw] = (await ctx.client.run(script, { idempotent: false, what: scripts.path }))
      .get(read).items;
    if (!raw) throw new RouterOsError("not-found", "the script is gone", "no such item");
    const item = toItem(scripts, dialect.release, raw, ctx.scriptText);
    return {
      structured: { item },
      text: renderTable([item], ["id", "name", "run_count", "last_started"]),
    };
  },
});

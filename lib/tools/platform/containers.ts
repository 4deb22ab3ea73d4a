/**
 * `router_start_container` and `router_stop_container`. The selection is
 * given positionally: RouterOS named it `number` up to 7.16 and `numbers`
 * from 7.20. Stopping interrupts what the container serves, so it needs
 * `confirm: true`.
 *
 * @module
 */
import { cmd, refCondition } from "../../routeros/command.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { containers } from "../../routeros/schema/menus/platform.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, itemObject, menuDialect } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { withPackage } from "../menu_tools/package.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE, type ToolDef, WRITE_IDEMPOTENT } from "../tool.ts";

function startStop(verb: "start" | "stop"): ToolDef {
  const tool = defineTool({
    name: `router_${verb}_container`,
    title: `${verb === "start" ? "Start" : "Stop"} a container`,
    description: verb === "start"
      ? "Start a container of /container by id (router_list_containers). Returns it afterwards."
      : "Stop a running container by id; what it serves goes away, so the call needs confirm: true.",
    toolset: "platform",
    input: { id: ID_SCHEMA.describe("Container id (.id), such as *1") },
    output: { item: itemObject(containers) },
    example: { id: "*1" },
    annotations: verb === "start" ? WRITE_IDEMPOTENT : DESTRUCTIVE,
    role: "admin",
    perDevice: true,
    async handler(args, ctx) {
      const dialect = await menuDialect(containers, ctx);
      const spec = readSpecOf(containers, dialect.release);
      const script = new Script(dialect);
      script.do(cmd(containers.path, verb, { positional: args.id }));
      const read = script.read(spec, [refCondition({ id: args.id })]);
      const [raw] = (await ctx.client.run(script, { idempotent: false, what: containers.path }))
        .get(read).items;
      if (!raw) throw new RouterOsError("not-found", "no such container", "no such item");
      const item = toItem(containers, dialect.release, raw);
      return { structured: { item }, text: renderTable([item], ["id", "remote_image", "status"]) };
    },
  });
  return withPackage(tool, containers.package!, containers.path);
}

/** `router_start_container`. */
export const startContainer: ToolDef = startStop("start");
/** `router_stop_container`. */
export const stopContainer: ToolDef = startStop("stop");

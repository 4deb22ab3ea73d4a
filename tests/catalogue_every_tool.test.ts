/**
 * Zero broken tools: enumerate `tools/list` (with raw commands allowed) and
 * call every tool with valid arguments against a simulated RouterOS 7.16.
 * Each call must succeed, and its structuredContent must validate against
 * the tool's outputSchema. Engine tools take their menu's examples and the
 * ids created during the run; hand-written tools take their own `example`.
 */
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { startSimulator } from "../lib/sim/mod.ts";
import { catalogue, MENU_TOOLS } from "../lib/tools/catalogue.ts";
import { toolName } from "../lib/tools/menu_tools/fields.ts";
import type { MenuTools } from "../lib/tools/menu_tools/spec.ts";
import { callTool } from "./helpers/mcp.ts";
import { SshConn } from "./sim_helpers.ts";
import { argsOn, orderedMenus, seedRemovables, startRig, targetId } from "./helpers/catalogue.ts";

const VERSION = "7.16" as const;

/** What tools/list says about a tool (the parts used here). */
interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema?: Record<string, unknown>;
  annotations?: { destructiveHint?: boolean };
}
const DANGEROUS_LAST = /reboot|shutdown|reset|restore/;
/** Tools whose results others' examples use. */
const FIRST = ["router_upload_file", "router_apply_changes"];

/** Apply one change (adding `address`) and return its change id. */
async function pendingChange(
  call: (
    name: string,
    args: Record<string, unknown>,
  ) => Promise<Record<string, unknown> | undefined>,
  address: string,
): Promise<string | undefined> {
  const out = await call("router_apply_changes", {
    confirm: true,
    operations: [{ tool: "router_add_ip_address", arguments: { address, interface: "ether4" } }],
    confirm_within_seconds: 600,
  });
  return out?.change_id as string | undefined;
}

Deno.test("every listed tool succeeds once with valid arguments and matches its outputSchema", async () => {
  const rig = await startRig(
    VERSION,
    ["--allow-raw-commands"],
    (v) => startSimulator({ version: v }),
  );
  const { sim, session } = rig;
  const failures: string[] = [];
  const called = new Set<string>();
  try {
    const tools = (await session.client.listTools()).tools as ListedTool[];
    const listed = new Map(tools.map((t) => [t.name, t]));
    const defs = new Map(catalogue().map((d) => [d.name, d]));
    const ajv = new Ajv({ strict: false, allErrors: true });

    const call = async (name: string, args: Record<string, unknown>) => {
      const tool = listed.get(name);
      if (!tool) return undefined;
      called.add(name);
      if (Deno.env.get("TRACE_TOOLS")) console.error("calling", name);
      const props = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
      const full = tool.annotations?.destructiveHint && "confirm" in props
        ? { confirm: true, ...args }
        : args;
      let r;
      try {
        r = await callTool(session, name, full);
      } catch (e) {
        failures.push(`${name}: ${(e as Error).message}`);
        return undefined;
      }
      if (r.isError) {
        failures.push(`${name}(${JSON.stringify(full)}): ${r.content?.[0]?.text}`);
        return undefined;
      }
      if (!tool.outputSchema) failures.push(`${name}: no outputSchema`);
      else if (!ajv.validate(tool.outputSchema, r.structuredContent)) {
        failures.push(`${name}: output does not match outputSchema: ${ajv.errorsText()}`);
      }
      return r.structuredContent as Record<string, unknown>;
    };

    // 1. Items to act on: seeded ones, then each menu's example item (requirements first).
    const seeded = seedRemovables(sim, VERSION);
    const ids = new Map<MenuTools, string>();
    const seconds = new Map<MenuTools, string>();
    const menus = orderedMenus(VERSION);
    for (const menu of menus) {
      if (menu.verbs.includes("add")) {
        const out = await call(
          `router_add_${menu.noun.stem}`,
          argsOn(menu, menu.example?.add, VERSION),
        );
        const id = (out?.item as { id?: string } | undefined)?.id;
        if (id) ids.set(menu, id);
        if (id && menu.verbs.includes("move")) {
          const args = argsOn(menu, menu.example?.add, VERSION);
          if (menu.schema.key) {
            args[toolName(menu.schema.key)] = `${args[toolName(menu.schema.key)]}-2`;
          }
          const out2 = await call(`router_add_${menu.noun.stem}`, args);
          const id2 = (out2?.item as { id?: string } | undefined)?.id;
          if (id2) seconds.set(menu, id2);
        }
      } else if (menu.example?.target) {
        try {
          ids.set(menu, targetId(sim, menu, menu.example.target));
        } catch (e) {
          failures.push(`${menu.schema.path}: ${(e as Error).message}`);
        }
      } else if (seeded[menu.schema.path]) ids.set(menu, seeded[menu.schema.path]);
    }

    // 2. Reads and in-place writes of every menu.
    for (const menu of menus) {
      const id = ids.get(menu);
      const ref = menu.schema.kind === "singleton" ? {} : { id };
      for (const verb of menu.verbs) {
        const name = verb === "list"
          ? `router_list_${menu.noun.stems}`
          : `router_${verb}_${menu.noun.stem}`;
        if (verb === "add" || verb === "remove") continue;
        if (verb === "list") await call(name, {});
        else if (menu.schema.kind !== "singleton" && !id) {
          failures.push(`${name}: no item to act on`);
          called.add(name);
        } else if (verb === "update") {
          await call(name, { ...ref, ...argsOn(menu, menu.example?.update, VERSION) });
        } else if (verb === "move") {
          await call(name, { id, destination: seconds.get(menu) ?? id });
        } else await call(name, ref);
      }
    }

    // 3. Hand-written tools, with their own examples (dangerous ones last).
    // A few need state made by another call first: a file to read, a change
    // to commit or roll back, a second session to disconnect.
    const handwritten = tools.map((t) => t.name).filter((n) => !called.has(n) && !isEngineTool(n))
      .sort((a, b) => Number(DANGEROUS_LAST.test(a)) - Number(DANGEROUS_LAST.test(b)))
      .sort((a, b) => Number(FIRST.includes(b)) - Number(FIRST.includes(a)));
    const special: Record<string, () => Promise<Record<string, unknown> | undefined>> = {
      router_commit_changes: async () => ({ change_id: await pendingChange(call, "10.78.0.1/24") }),
      router_rollback_changes: async () => ({
        change_id: await pendingChange(call, "10.79.0.1/24"),
      }),
      router_disconnect_active_user: async () => {
        other = await SshConn.open(sim);
        await other.exec("/system identity print");
        const active = sim.items("/user/active");
        return { id: active[active.length - 1]?.[".id"] };
      },
    };
    let other: SshConn | undefined;
    for (const name of handwritten.filter((n) => !DANGEROUS_LAST.test(n))) {
      const def = defs.get(name);
      if (special[name]) {
        await call(name, await special[name]() ?? {});
        continue;
      }
      if (!def?.example && Object.keys(listed.get(name)?.inputSchema.properties ?? {}).length) {
        failures.push(`${name}: no example arguments on its ToolDef`);
        called.add(name);
        continue;
      }
      await call(name, def?.example ?? {});
    }
    // The disconnected session is already closed; just make sure of it.
    other?.client.end();

    // 4. Removes, last item first, then the seeded ones; then the dangerous tools.
    for (const menu of [...menus].reverse()) {
      if (!menu.verbs.includes("remove")) continue;
      for (const id of [seconds.get(menu), ids.get(menu)]) {
        if (id) await call(`router_remove_${menu.noun.stem}`, { id });
      }
      if (!ids.get(menu) && !seeded[menu.schema.path]) {
        failures.push(`router_remove_${menu.noun.stem}: no item to remove`);
        called.add(`router_remove_${menu.noun.stem}`);
      }
    }
    for (const name of handwritten.filter((n) => DANGEROUS_LAST.test(n))) {
      const def = defs.get(name);
      if (!def?.example) failures.push(`${name}: no example arguments on its ToolDef`);
      else await call(name, def.example);
      called.add(name);
    }

    const missed = tools.map((t) => t.name).filter((n) => !called.has(n));
    assert.deepEqual(missed, [], "every listed tool was called");
    assert.ok(tools.length >= 250, `about 250 tools listed (got ${tools.length})`);
    assert.deepEqual(failures, [], `${failures.length} broken tools:\n${failures.join("\n")}`);
  } finally {
    await rig.close();
  }
});

function isEngineTool(name: string): boolean {
  return MENU_TOOLS.some((m) =>
    m.verbs.some((v) =>
      name === (v === "list" ? `router_list_${m.noun.stems}` : `router_${v}_${m.noun.stem}`)
    )
  );
}

/**
 * The catalogue sweep: every listed tool called once with valid arguments
 * against a simulated router of one release, through the in-process server
 * (`in_process.ts`) and real SSH. Engine tools take their menu's examples
 * and the ids made during the run; hand-written tools take their own
 * `example`. Each call ends one of three ways:
 *
 * - it succeeds, and its structuredContent validates against its outputSchema
 *   (the SDK client's own check);
 * - it is unsupported: the release lacks what the tool needs, the tool says
 *   so ("... needs RouterOS 7.x ...; nothing was sent") and indeed sent nothing;
 * - anything else: the tool is broken on that release.
 *
 * Every command the simulator receives during the sweep is recorded with the
 * tool that sent it, for the check against the real command trees.
 *
 * @module
 */
import { VERSION_COMMAND } from "../../lib/routeros/dialect.ts";
import { type SimRouter, startSimulator } from "../../lib/sim/mod.ts";
import { catalogue, MENU_TOOLS } from "../../lib/tools/catalogue.ts";
import { argName } from "../../lib/tools/menu_tools/naming.ts";
import type { MenuTools } from "../../lib/tools/menu_tools/spec.ts";
import { SshConn } from "../sim_helpers.ts";
import { argsOn, menuOn, orderedMenus, seedRemovables, targetId } from "./catalogue.ts";
import { connectInProcess } from "./in_process.ts";
import { makeKey } from "./keys.ts";
import { callTool, listAllTools, type McpSession } from "./mcp.ts";

/** A command the simulator received, and the tool whose call sent it. */
export interface SentCommand {
  tool: string;
  command: string;
}

/** What one sweep found. */
export interface SweepResult {
  version: string;
  /** Tools listed by `tools/list`. */
  listed: number;
  /** Tools called (every listed one, unless the sweep itself is incomplete). */
  called: string[];
  /** Tools that answered that the release lacks what they need, sending nothing. */
  unsupported: string[];
  /** One line per broken call: tool, arguments, answer. */
  broken: string[];
  /** Listed tools the sweep never called. */
  missed: string[];
  /** Every command the tools sent, in order. */
  sent: SentCommand[];
}

/** What tools/list says about a tool (the parts used here). */
interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema?: Record<string, unknown>;
  annotations?: { destructiveHint?: boolean };
}

type Out = Record<string, unknown> | undefined;

const DANGEROUS_LAST = /reboot|shutdown|reset|restore/;
/**
 * The dangerous tools in this order: those that wait for the router to come
 * back first, then those that return while it goes down (whatever came
 * next would meet the connection as the router drops it).
 */
const DANGEROUS_ORDER = [/restore/, /reset/, /reboot/, /shutdown/];
const dangerousRank = (name: string) => DANGEROUS_ORDER.findIndex((re) => re.test(name));
/** Tools whose results others' examples use. */
const FIRST = ["router_upload_file", "router_apply_changes"];
/** The answer of a tool that refused because the release lacks something. */
const UNSUPPORTED = /needs RouterOS (up to )?\d.*Nothing was sent\.$/s;

/** The tool name of a menu verb. */
export function verbTool(menu: MenuTools, verb: string): string {
  return verb === "list" ? `router_list_${menu.noun.stems}` : `router_${verb}_${menu.noun.stem}`;
}

/** True for a tool the engine makes from a menu (list/get/add/update/...). */
export function isEngineTool(name: string): boolean {
  return MENU_TOOLS.some((m) => m.verbs.some((v) => name === verbTool(m, v)));
}

/** Run the sweep on a fresh simulator of `version`. */
export async function sweepCatalogue(version: string): Promise<SweepResult> {
  const sent: SentCommand[] = [];
  let current = "(setup)";
  const sim = await startSimulator({
    version,
    // the legacy CAPsMAN needs the wireless package from 7.13 (lib/sim/packages.ts)
    packages: ["wireless"],
    // Up for an hour, as a managed router is: the reboot tools do not wait for 2 s of uptime.
    uptime: 3600,
    // Timed diagnostics (torch, bandwidth test...) answer after 1/20 of their duration.
    timeScale: 0.05,
    onCommand: (command) => sent.push({ tool: current, command }),
  });
  let session: McpSession | undefined;
  try {
    session = await connectInProcess(sim, { "allow-raw-commands": true });
    const result = await sweep(sim, session, version, sent, (tool) => (current = tool));
    return result;
  } finally {
    await session?.close();
    await sim.close();
  }
}

/** Whether the simulated release has a menu (its items can be read). */
function hasMenu(sim: SimRouter, path: string): boolean {
  try {
    sim.items(path);
    return true;
  } catch {
    return false;
  }
}

async function sweep(
  sim: SimRouter,
  session: McpSession,
  version: string,
  sent: SentCommand[],
  calling: (tool: string) => void,
): Promise<SweepResult> {
  const broken: string[] = [];
  const unsupported: string[] = [];
  const called = new Set<string>();
  const tools = (await listAllTools(session.client)) as ListedTool[];
  const listed = new Map(tools.map((t) => [t.name, t]));
  const defs = new Map(catalogue().map((d) => [d.name, d]));

  const call = async (name: string, args: Record<string, unknown>): Promise<Out> => {
    const tool = listed.get(name);
    if (!tool) return undefined;
    called.add(name);
    const props = tool.inputSchema.properties ?? {};
    const full = tool.annotations?.destructiveHint && "confirm" in props
      ? { confirm: true, ...args }
      : args;
    const before = sent.length;
    calling(name);
    let r;
    try {
      r = await callTool(session, name, full);
    } catch (e) {
      broken.push(`${name}: ${(e as Error).message}`);
      return undefined;
    } finally {
      calling("(test)");
    }
    const text = r.content?.[0]?.text ?? "";
    if (r.isError) {
      const sentNow = sent.slice(before).filter((c) => c.command !== VERSION_COMMAND);
      if (UNSUPPORTED.test(text) && sentNow.length === 0) {
        if (!unsupported.includes(name)) unsupported.push(name);
      } else broken.push(`${name}(${JSON.stringify(full)}): ${text}`);
      return undefined;
    }
    // The SDK's client has checked structuredContent against the outputSchema
    // (a mismatch throws, and lands in `broken` above).
    if (!tool.outputSchema) broken.push(`${name}: no outputSchema`);
    return r.structuredContent as Record<string, unknown>;
  };
  const fail = (name: string, why: string) => {
    broken.push(`${name}: ${why}`);
    called.add(name);
  };

  // 0. Menus this release lacks: each of their tools must say so and send nothing.
  for (const menu of MENU_TOOLS.filter((m) => !menuOn(m, version))) {
    for (const verb of menu.verbs) {
      const ref = menu.schema.kind === "singleton" ? {} : { id: "*1" };
      const args = verb === "list"
        ? {}
        : verb === "add"
        ? { ...menu.example?.add }
        : verb === "update"
        ? { ...ref, ...menu.example?.update }
        : verb === "move"
        ? { id: "*1", destination: "*2" }
        : ref;
      await call(verbTool(menu, verb), args);
    }
  }

  // 1. Items to act on: seeded ones, then each menu's example item (requirements first).
  const seeded = seedRemovables(sim, version);
  const ids = new Map<MenuTools, string>();
  const seconds = new Map<MenuTools, string>();
  const menus = orderedMenus(version);
  for (const menu of menus) {
    if (menu.verbs.includes("add")) {
      const out = await call(verbTool(menu, "add"), argsOn(menu, menu.example?.add, version));
      const id = (out?.item as { id?: string } | undefined)?.id;
      if (id) ids.set(menu, id);
      if (id && menu.verbs.includes("move")) {
        const args = argsOn(menu, menu.example?.add, version);
        if (menu.schema.key) {
          args[argName(menu.schema.key)] = `${args[argName(menu.schema.key)]}-2`;
        }
        const out2 = await call(verbTool(menu, "add"), args);
        const id2 = (out2?.item as { id?: string } | undefined)?.id;
        if (id2) seconds.set(menu, id2);
      }
    } else if (menu.example?.target) {
      try {
        ids.set(menu, targetId(sim, menu, menu.example.target));
      } catch (e) {
        broken.push(`${menu.schema.path}: ${(e as Error).message}`);
      }
    } else if (seeded[menu.schema.path]) ids.set(menu, seeded[menu.schema.path]);
  }

  // 2. Reads and in-place writes of every menu.
  for (const menu of menus) {
    const id = ids.get(menu);
    const ref = menu.schema.kind === "singleton" ? {} : { id };
    for (const verb of menu.verbs) {
      const name = verbTool(menu, verb);
      if (verb === "add" || verb === "remove") continue;
      if (verb === "list") await call(name, {});
      else if (menu.schema.kind !== "singleton" && !id) fail(name, "no item to act on");
      else if (verb === "update") {
        await call(name, { ...ref, ...argsOn(menu, menu.example?.update, version) });
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
  const pendingChange = async (address: string) => {
    const out = await call("router_apply_changes", {
      confirm: true,
      operations: [{ tool: "router_add_ip_address", arguments: { address, interface: "ether4" } }],
      confirm_within_seconds: 600,
    });
    return out?.change_id as string | undefined;
  };
  let other: SshConn | undefined;
  const v6 = version.startsWith("6.");
  // The container the sweep added (none where the release lacks the menu).
  const containerId = () => {
    const items = hasMenu(sim, "/container") ? sim.items("/container") : [];
    return Promise.resolve({ id: items[0]?.[".id"] ?? "*1" });
  };
  const special: Record<string, () => Promise<Record<string, unknown>>> = {
    router_start_container: containerId,
    router_stop_container: containerId,
    router_commit_changes: async () => ({ change_id: await pendingChange("10.78.0.1/24") }),
    router_rollback_changes: async () => ({ change_id: await pendingChange("10.79.0.1/24") }),
    router_disconnect_active_user: async () => {
      other = await SshConn.open(sim);
      await other.exec("/system identity print");
      const active = sim.items("/user/active");
      return { id: active[active.length - 1]?.[".id"] };
    },
    // RouterOS 6 takes RSA keys only (the example's Ed25519 key is refused there).
    ...(v6
      ? {
        router_add_user_ssh_key: () =>
          Promise.resolve({
            user: "example-user",
            public_key: makeKey("rsa", "openssh").publicKey,
          }),
      }
      : {}),
  };
  for (const name of handwritten.filter((n) => !DANGEROUS_LAST.test(n))) {
    const def = defs.get(name);
    if (special[name]) {
      await call(name, await special[name]());
      continue;
    }
    if (!def?.example && Object.keys(listed.get(name)?.inputSchema.properties ?? {}).length) {
      fail(name, "no example arguments on its ToolDef");
      continue;
    }
    await call(name, def?.example ?? {});
  }
  // The disconnected session is closed by now (or, where the tool is unsupported, here).
  other?.client.end();

  // 4. Removes, last item first, then the seeded ones; then the dangerous tools.
  for (const menu of [...menus].reverse()) {
    if (!menu.verbs.includes("remove")) continue;
    for (const id of [seconds.get(menu), ids.get(menu)]) {
      if (id) await call(verbTool(menu, "remove"), { id });
    }
    if (!ids.get(menu) && !seeded[menu.schema.path]) {
      fail(verbTool(menu, "remove"), "no item to remove");
    }
  }
  const dangerous = handwritten.filter((n) => DANGEROUS_LAST.test(n));
  for (const name of dangerous.sort((a, b) => dangerousRank(a) - dangerousRank(b))) {
    const def = defs.get(name);
    if (!def?.example) fail(name, "no example arguments on its ToolDef");
    else await call(name, def.example);
  }

  return {
    version,
    listed: tools.length,
    called: [...called],
    unsupported,
    broken,
    missed: tools.map((t) => t.name).filter((n) => !called.has(n)),
    sent: sent.filter((c) => c.tool !== "(test)" && c.tool !== "(setup)"),
  };
}

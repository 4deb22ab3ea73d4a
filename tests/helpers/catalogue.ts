/**
 * Test helpers for the menu catalogue: drive every menu's generated tools
 * through MCP and check each write on the simulator's own state.
 *
 * @module
 */
import assert from "node:assert/strict";
import { inRange, release, type ReleaseRange } from "../../lib/routeros/release.ts";
import { fromRaw } from "../../lib/routeros/schema/convert.ts";
import type { Field } from "../../lib/routeros/schema/field.ts";
import { hasWrite, rosName } from "../../lib/routeros/schema/menu.ts";
import { MENU_TOOLS } from "../../lib/tools/catalogue.ts";
import { argName } from "../../lib/tools/menu_tools/naming.ts";
import type { MenuTools } from "../../lib/tools/menu_tools/spec.ts";
import type { SimRouter, SimVersion } from "../../lib/sim/mod.ts";
import { callTool, type McpSession, spawnServer } from "./mcp.ts";

/** A typed item as tools return it. */
export type Item = Record<string, unknown>;

/** Whether a simulated release lies in a range. */
function on(range: ReleaseRange | undefined, v: SimVersion): boolean {
  return inRange(release(v), range);
}

/** Whether a simulated release has the menu. */
export function menuOn(menu: MenuTools, v: SimVersion): boolean {
  return on(menu.schema.releases, v);
}

/** The field a tool argument names, if it is one of the menu's. */
export function fieldOf(menu: MenuTools, arg: string): [string, Field] | undefined {
  return Object.entries(menu.schema.fields).find(([name]) => argName(name) === arg);
}

/** Example arguments without the fields the release lacks. */
export function argsOn(
  menu: MenuTools,
  args: Record<string, unknown> | undefined,
  v: SimVersion,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args ?? {}).filter(([k]) => {
      const f = fieldOf(menu, k);
      return !f || on(f[1].releases, v);
    }),
  );
}

/** The RouterOS name of a field on a release (v6 renames). */
export function rosNameOn(menu: MenuTools, name: string, v: SimVersion): string {
  return rosName(menu.schema.fields[name], name, release(v));
}

/** A sim item's value of a field, converted like the product converts it (unmasked). */
export function simValue(
  menu: MenuTools,
  raw: Record<string, string>,
  name: string,
  v: SimVersion,
) {
  return fromRaw(menu.schema.fields[name], raw[rosNameOn(menu, name, v)]);
}

/** Assert that the sim item holds exactly the tool arguments given. */
export function assertStored(
  menu: MenuTools,
  raw: Record<string, string> | undefined,
  args: Record<string, unknown>,
  v: SimVersion,
): void {
  assert.ok(raw, `${menu.schema.path}: item is on the router`);
  for (const [arg, want] of Object.entries(args)) {
    const f = fieldOf(menu, arg);
    if (!f) continue;
    assert.deepEqual(
      simValue(menu, raw, f[0], v),
      want,
      `${menu.schema.path}: ${f[0]} stored on the router`,
    );
  }
}

/** Assert that a tool item agrees with the sim item (secrets masked). */
export function assertMatchesSim(
  menu: MenuTools,
  item: Item,
  raw: Record<string, string>,
  v: SimVersion,
): void {
  if (menu.schema.kind === "list") assert.equal(item.id, raw[".id"], `${menu.schema.path}: id`);
  for (const [name, field] of Object.entries(menu.schema.fields)) {
    if (!on(field.releases, v)) continue;
    const key = argName(name);
    if (field.secret) {
      if (item[key] !== undefined) assert.ok(item[key] === "********" || item[key] === "");
      continue;
    }
    const want = simValue(menu, raw, name, v);
    // Fields the router did not print are left out; the others must agree.
    if (item[key] === undefined || want === undefined) continue;
    if (movesByItself(menu, name)) continue;
    assert.deepEqual(item[key], want, `${menu.schema.path}: ${name} as returned vs on the router`);
  }
}

/** Read-only properties that change by themselves, or print with units before 7.13. */
const VOLATILE =
  /^(run-count|next-run|since|status|uptime|last-.*|bytes|packets|rx|tx|ttl|rate|(free|total)-(memory|hdd-space)|cpu-load|bad-blocks|time|date)$/;

/** A property that changes between two reads (counters, and the clock's own time and date). */
function movesByItself(menu: MenuTools, name: string): boolean {
  const field = menu.schema.fields[name];
  return VOLATILE.test(name) && (!field?.writable || menu.schema.path === "/system/clock");
}

/** An item without the properties that change between two reads. */
function steady(menu: MenuTools, item: Item): Item {
  return Object.fromEntries(
    Object.entries(item).filter(([k]) =>
      !Object.keys(menu.schema.fields).some((n) => argName(n) === k && movesByItself(menu, n))
    ),
  );
}

/** Menus in an order where each menu's example requirements come first. */
export function orderedMenus(v: SimVersion): MenuTools[] {
  const out: MenuTools[] = [];
  const add = (m: MenuTools) => {
    if (out.includes(m) || !menuOn(m, v)) return;
    for (const path of m.example?.requires ?? []) {
      const dep = MENU_TOOLS.find((x) => x.schema.path === path);
      if (dep) add(dep);
    }
    out.push(m);
  };
  for (const m of MENU_TOOLS) add(m);
  return out;
}

/** A started simulator with a connected MCP session. */
export interface Rig {
  sim: SimRouter;
  session: McpSession;
  version: SimVersion;
  close(): Promise<void>;
}

/** Start a simulator of `version` and a server (main.ts over stdio) pointed at it. */
export async function startRig(
  version: SimVersion,
  extraArgs: string[] = [],
  start: (v: SimVersion) => Promise<SimRouter>,
): Promise<Rig> {
  const sim = await start(version);
  let session: McpSession;
  try {
    session = await spawnServer(["--host", sim.host, "--port", String(sim.port), ...extraArgs]);
  } catch (e) {
    await sim.close();
    throw e;
  }
  return {
    sim,
    session,
    version,
    close: async () => {
      await session.close();
      await sim.close();
    },
  };
}

/** Call a tool and fail with its text unless it succeeded. */
export async function ok(session: McpSession, name: string, args: Record<string, unknown> = {}) {
  const r = await callTool(session, name, args);
  assert.ok(!r.isError, `${name}(${JSON.stringify(args)}) failed: ${r.content?.[0]?.text}`);
  assert.ok(r.structuredContent, `${name} returned structuredContent`);
  return r.structuredContent as Record<string, unknown>;
}

/** The configured (writable) part of an item: what does not change by itself. */
export function configured(menu: MenuTools, item: Item): Item {
  const out: Item = { id: item.id };
  for (const [name, field] of Object.entries(menu.schema.fields)) {
    if (field.writable && item[argName(name)] !== undefined) {
      out[argName(name)] = item[argName(name)];
    }
  }
  return out;
}

function bool(v: string | undefined): boolean {
  return v === "true" || v === "yes";
}

/** The id of the item a target reference (`{ name: "ether3" }`) names on the router. */
export function targetId(sim: SimRouter, menu: MenuTools, target: Record<string, unknown>): string {
  const [[k, val]] = Object.entries(target);
  const raw = sim.items(menu.schema.path).find((i) => i[k] === val);
  assert.ok(raw, `${menu.schema.path}: the default router has ${k}=${String(val)}`);
  return raw[".id"];
}

/**
 * The whole life of one menu through its tools, each write checked on the
 * simulator: add, list, get, update (before and after), disable, enable,
 * move, remove; or, for menus without add, get/update/disable/enable of a
 * default item (restored afterwards); or get/update for singletons.
 */
export async function exerciseMenu(rig: Rig, menu: MenuTools): Promise<void> {
  const { sim, session, version: v } = rig;
  const has = (verb: string) => menu.verbs.includes(verb as never);
  const t = (verb: string, stem: "stem" | "stems" = "stem") => `router_${verb}_${menu.noun[stem]}`;

  if (menu.schema.kind === "singleton") {
    const got = (await ok(session, t("get"))).item as Item;
    assertMatchesSim(menu, got, sim.items(menu.schema.path)[0], v);
    if (has("update")) {
      const change = argsOn(menu, menu.example?.update, v);
      const r = await ok(session, t("update"), change);
      assert.deepEqual(
        steady(menu, r.before as Item),
        steady(menu, got),
        "before is the item as it was",
      );
      assertStored(menu, sim.items(menu.schema.path)[0], change, v);
      assertMatchesSim(menu, r.after as Item, sim.items(menu.schema.path)[0], v);
    }
    return;
  }

  // Items this menu's example needs (a peer's interface), made with their own tools.
  const prerequisites: [MenuTools, string][] = [];
  for (const path of menu.example?.requires ?? []) {
    const dep = MENU_TOOLS.find((m) => m.schema.path === path)!;
    const made = await ok(session, `router_add_${dep.noun.stem}`, argsOn(dep, dep.example?.add, v));
    prerequisites.push([dep, (made.item as Item).id as string]);
  }
  try {
    await exerciseItems(rig, menu);
  } finally {
    for (const [dep, depId] of prerequisites.reverse()) {
      await ok(session, `router_remove_${dep.noun.stem}`, { id: depId, confirm: true });
    }
  }
}

async function exerciseItems(rig: Rig, menu: MenuTools): Promise<void> {
  const { sim, session, version: v } = rig;
  // A verb the tools offer, on a release whose menu takes it (enable from 7.22 on some).
  const has = (verb: string) =>
    menu.verbs.includes(verb as never) &&
    (verb !== "enable" && verb !== "disable" || hasWrite(menu.schema, verb, release(v)));
  const t = (verb: string, stem: "stem" | "stems" = "stem") => `router_${verb}_${menu.noun[stem]}`;
  const simItem = (id: string) => sim.items(menu.schema.path).find((i) => i[".id"] === id);
  let id: string;
  let added: Item | undefined;
  if (has("add")) {
    const args = argsOn(menu, menu.example?.add, v);
    const count = sim.items(menu.schema.path).length;
    added = (await ok(session, t("add"), args)).item as Item;
    id = added.id as string;
    assert.match(id, /^\*[0-9A-F]+$/);
    assert.equal(sim.items(menu.schema.path).length, count + 1, "exactly one item added");
    assertStored(menu, simItem(id), args, v);
    assertMatchesSim(menu, added, simItem(id)!, v);
  } else if (menu.example?.target) {
    id = targetId(sim, menu, menu.example.target);
  } else {
    // Read-only menus: list must agree with the router item by item.
    const r = await ok(session, t("list", "stems"));
    const items = r.items as Item[];
    assert.equal(r.count, items.length);
    const raws = sim.items(menu.schema.path);
    assert.equal(items.length, raws.length, `${menu.schema.path}: every item listed`);
    items.forEach((item, i) => assertMatchesSim(menu, item, raws[i], v));
    return;
  }

  // list: the item is there, and agrees with the router
  const listed = (await ok(session, t("list", "stems"))).items as Item[];
  const mine = listed.find((i) => i.id === id);
  assert.ok(mine, `${menu.schema.path}: ${id} is listed`);
  assertMatchesSim(menu, mine, simItem(id)!, v);
  if (added) assert.deepEqual(configured(menu, mine), configured(menu, added));

  if (has("get")) {
    const got = (await ok(session, t("get"), { id })).item as Item;
    // A counter may move between the two reads (a new scheduled task runs at once).
    assert.deepEqual(steady(menu, got), steady(menu, mine));
    const key = menu.schema.key;
    if (key && typeof mine[argName(key)] === "string") {
      const byKey = (await ok(session, t("get"), { [argName(key)]: mine[argName(key)] }))
        .item as Item;
      assert.equal(byKey.id, id, "get by natural key finds the same item");
    }
  }

  let restore: Record<string, unknown> | undefined;
  if (has("update") && menu.example?.update) {
    const change = argsOn(menu, menu.example.update, v);
    const before = structuredClone(simItem(id)!);
    const r = await ok(session, t("update"), { id, ...change });
    assert.deepEqual(
      configured(menu, r.before as Item),
      configured(menu, mine),
      "update returns the item as it was",
    );
    assertStored(menu, simItem(id), change, v);
    assertMatchesSim(menu, r.after as Item, simItem(id)!, v);
    if (!added) {
      restore = {};
      for (const arg of Object.keys(change)) {
        const [name] = fieldOf(menu, arg)!;
        const was = simValue(menu, before, name, v);
        if (was !== undefined) restore[arg] = was;
      }
    }
  }

  if (has("disable")) {
    const r = await ok(session, t("disable"), { id });
    assert.equal((r.item as Item).disabled, true);
    assert.equal(bool(simItem(id)!.disabled), true, "disabled on the router");
  }
  if (has("enable")) {
    const r = await ok(session, t("enable"), { id });
    assert.equal((r.item as Item).disabled, false);
    assert.equal(bool(simItem(id)!.disabled), false, "enabled on the router");
  }

  if (has("move")) {
    const others = sim.items(menu.schema.path).filter((i) => i[".id"] !== id);
    let second: string | undefined;
    if (others.length === 0) {
      const args = argsOn(menu, menu.example?.add, v);
      if (menu.schema.key) args[argName(menu.schema.key)] = `${args[argName(menu.schema.key)]}-2`;
      second = ((await ok(session, t("add"), args)).item as Item).id as string;
    }
    const dest = second ?? others[0][".id"];
    await ok(session, t("move"), { id, destination: dest });
    const order = sim.items(menu.schema.path).map((i) => i[".id"]);
    assert.equal(order.indexOf(id) + 1, order.indexOf(dest), "moved just above destination");
    if (second) await ok(session, t("remove"), { id: second, confirm: true });
  }

  if (has("remove") && added) {
    const count = sim.items(menu.schema.path).length;
    const r = await ok(session, t("remove"), { id, confirm: true });
    assert.equal((r.item as Item).id, id);
    assert.equal(simItem(id), undefined, "gone from the router");
    assert.equal(sim.items(menu.schema.path).length, count - 1, "exactly one item removed");
  } else if (restore && Object.keys(restore).length) {
    await ok(session, t("update"), { id, ...restore });
  }
}

/**
 * Create, on the simulator directly, the items that menus without an add
 * tool need for their remove tool: a file and an SSH key (on a user other
 * than the one the server logs in as), a certificate template. Returns
 * their ids by menu path.
 */
export function seedRemovables(sim: SimRouter, _v: SimVersion): Record<string, string> {
  const ids: Record<string, string> = {};
  const created = (path: string, match: (i: Record<string, string>) => boolean) => {
    const raw = sim.items(path).find(match);
    if (raw) ids[path] = raw[".id"];
  };
  // The simulator's own way to make a file (RouterOS 6 would use print file=).
  sim.run('/file add name=seed-example.txt contents="seed"');
  created("/file", (i) => i.name.startsWith("seed-example"));
  sim.addUser({ name: "keyholder", password: "Key-Pa55", group: "read", publicKeys: [SEED_KEY] });
  created("/user/ssh-keys", (i) => i.user === "keyholder");
  // A certificate template (RouterOS makes one with add; signing needs a CA).
  sim.run("/certificate add name=seed-cert common-name=seed.example");
  created("/certificate", (i) => i.name === "seed-cert");
  return ids;
}

/** A fixed ed25519 public key for seeding. */
const SEED_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl keyholder@test";

/** Remove a seeded item through its remove tool and check it is gone. */
export async function exerciseSeededRemove(rig: Rig, menu: MenuTools, id: string): Promise<void> {
  const r = await ok(rig.session, `router_remove_${menu.noun.stem}`, { id, confirm: true });
  assert.equal((r.item as Item).id, id);
  assert.equal(
    rig.sim.items(menu.schema.path).find((i) => i[".id"] === id),
    undefined,
    `${menu.schema.path}: ${id} gone from the router`,
  );
}

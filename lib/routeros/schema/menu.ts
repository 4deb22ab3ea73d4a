/**
 * RouterOS menus as data, declared once each in `menus/`: the path, its
 * properties with kinds and release ranges, which writes the menu takes,
 * its natural key and terse flags. The tools, the parsers, the change
 * inverses and the fleet query all read these declarations.
 *
 * @module
 */
import type { FlagMap } from "../parse_terse.ts";
import { inRange, type Release, type ReleaseRange } from "../release.ts";
import type { ReadSpec } from "../script.ts";
import type { Field } from "./field.ts";

/** Writes a list menu takes. */
export type MenuWrite = "add" | "set" | "remove" | "enable" | "disable" | "move";

/** A write, with the releases that take it when some do not. */
export type WriteDecl = MenuWrite | readonly [MenuWrite, ReleaseRange];

/** One RouterOS menu. */
export interface MenuSchema {
  /** Path with slashes: `/ip/address`. */
  path: string;
  /** `list` menus hold items with ids; a `singleton` is one record of settings. */
  kind: "list" | "singleton";
  /** Property that names an item (`name`), when items have one. */
  key?: string;
  /** The writes RouterOS takes here (none: a read-only menu). */
  writes: readonly WriteDecl[];
  /** Releases that have the menu (default: every release). */
  releases?: ReleaseRange;
  /** The extra package the menu needs (`container`, `wireless`), when it is not built in. */
  package?: string;
  /** Only on devices with that hardware (`/system/routerboard`): absent from the CHR command trees. */
  hardware?: boolean;
  /** Flag letters in terse output (default X/D/I). */
  flags?: FlagMap;
  /**
   * Releases whose menu has `export` (default: every release of the menu);
   * `false` for run-time tables (`/ip/dns/cache`, registration tables).
   */
  exports?: ReleaseRange | false;
  /**
   * Whether its items are interfaces (each one also listed in `/interface`),
   * when {@linkcode itemsAreInterfaces} would guess wrong: `false` for
   * `/interface/list`, `true` for a menu of interfaces elsewhere
   * (`/caps-man/interface`) or deeper (`/interface/wireless/wds`).
   */
  interfaces?: boolean;
  /** Properties by RouterOS name (`actual-interface`). */
  fields: Readonly<Record<string, Field>>;
}

/** Declare a menu, checking the declaration (a broken one fails at start, in every test). */
export function menu(
  m: Omit<MenuSchema, "writes"> & { writes?: readonly WriteDecl[] },
): MenuSchema {
  const out: MenuSchema = { ...m, writes: m.writes ?? [] };
  const fail = (why: string) => {
    throw new Error(`menu ${m.path}: ${why}`);
  };
  if (m.key && !m.fields[m.key]) fail(`key ${m.key} is not a field`);
  if (m.kind === "singleton" && out.writes.some((w) => writeName(w) !== "set")) {
    fail("a settings menu takes only set");
  }
  for (const [name, f] of Object.entries(m.fields)) {
    if (f.required && !f.writable) fail(`${name} is required but read-only`);
    if (f.kind === "enum" && !f.values?.length) fail(`${name} is an enum without values`);
  }
  return out;
}

function writeName(w: WriteDecl): MenuWrite {
  return typeof w === "string" ? w : w[0];
}

/**
 * True when the menu takes write `w` (on `release`, when given; without a
 * release: on some release).
 */
export function hasWrite(menu: MenuSchema, w: MenuWrite, release?: Release): boolean {
  const decl = menu.writes.find((d) => writeName(d) === w);
  if (decl === undefined) return false;
  return release === undefined || typeof decl === "string" || inRange(release, decl[1]);
}

/**
 * True when the menu's items are interfaces: `/interface` itself and every
 * list menu one level below it whose items have a `name` (RouterOS keeps one
 * menu per interface kind there: `/interface/vlan`, `/interface/wireguard`,
 * `/interface/lte` ...), unless the declaration says otherwise (its
 * `interfaces`). Deeper menus (`/interface/wifi/configuration`,
 * `/interface/wireguard/peers`) hold settings of interfaces, not interfaces.
 * The lock-out guard protects the interface that carries this server's SSH
 * session in every such menu, so a new interface family gets it without
 * asking.
 */
export function itemsAreInterfaces(menu: MenuSchema): boolean {
  return menu.interfaces ??
    (menu.kind === "list" && menu.key === "name" && /^\/interface(\/[^/]+)?$/.test(menu.path));
}

/** True when the menu has `export` on `release`. */
export function exportsOn(menu: MenuSchema, release: Release): boolean {
  return menu.exports !== false && menuOnRelease(menu, release) && inRange(release, menu.exports);
}

/** True when `release` has the menu. */
export function menuOnRelease(menu: MenuSchema, release: Release): boolean {
  return inRange(release, menu.releases);
}

/**
 * Of the declarations of one path (a menu that changed shape has one per
 * shape, on disjoint releases), the one `release` has, else the first.
 */
export function declarationOn(
  declared: readonly MenuSchema[],
  release?: Release,
): MenuSchema | undefined {
  return (release && declared.find((m) => menuOnRelease(m, release))) || declared[0];
}

/** A field on one release: its tool-independent name, declaration and RouterOS name there. */
export type FieldOn = readonly [name: string, field: Field, ros: string];

/** What a menu is on one release, made once per menu and release (calls read it every time). */
interface MenuOnRelease {
  fields: readonly FieldOn[];
  read: ReadSpec;
}

const onRelease = new WeakMap<MenuSchema, Map<string, MenuOnRelease>>();

function menuOn(menu: MenuSchema, release: Release): MenuOnRelease {
  let byRelease = onRelease.get(menu);
  if (!byRelease) onRelease.set(menu, byRelease = new Map());
  let hit = byRelease.get(release.text);
  if (!hit) {
    const fields = Object.freeze(
      Object.entries(menu.fields)
        .filter(([, f]) => inRange(release, f.releases))
        .map(([name, f]) => Object.freeze([name, f, rosName(f, name, release)] as const)),
    );
    const read: ReadSpec = Object.freeze({
      path: menu.path,
      singleton: menu.kind === "singleton",
      keys: Object.freeze(fields.map(([, , ros]) => ros)),
      flags: menu.flags,
    });
    byRelease.set(release.text, hit = { fields, read });
  }
  return hit;
}

/** The fields a release has, with their RouterOS names on it (shared: do not change). */
export function fieldsOn(menu: MenuSchema, release: Release): readonly FieldOn[] {
  return menuOn(menu, release).fields;
}

/** A property's RouterOS name on a release (RouterOS 6 renamed a few). */
export function rosName(field: Field, name: string, release: Release): string {
  return release.major < 7 && field.v6Name ? field.v6Name : name;
}

/** How the client reads the menu on a release (shared: do not change). */
export function readSpecOf(menu: MenuSchema, release: Release): ReadSpec {
  return menuOn(menu, release).read;
}

/**
 * The configuration and run-time state of one simulated router. Tables are
 * created lazily (with the menu's defaults) on first use, so a fleet of idle
 * routers costs almost nothing. Everything stored is a string, as RouterOS
 * stores it; computed properties are added when items are read. The state
 * holds the router's menus (`menus`), through which menus and commands find
 * each other.
 *
 * @module
 */
import type { Item, MenuDef, Menus } from "./menu_types.ts";
import type { SimUser, SimVersion } from "./types.ts";
import { type Release, release } from "../routeros/release.ts";
import { onRelease } from "./releases.ts";
import type { Val } from "./values.ts";
import { fmtDateTime, legacyDates } from "./timefmt.ts";
import { installedPackages } from "./packages.ts";

/** One storage table. */
export interface Table {
  nextId: number;
  items: Item[];
}

/** Serialised state (state file). */
export interface StateData {
  version: SimVersion;
  tables: Record<string, Table>;
  clockOffsetMs: number;
}

/** Settings a state is created from. */
export interface StateInit {
  version: SimVersion;
  identity: string;
  users: SimUser[];
  now?: () => Date;
  /** Packages installed beyond the hardware's own (`packages.ts`). */
  packages?: string[];
  /** The router's menus (`menus/registry.ts`'s `SIM_MENUS`, or a test's own). */
  menus: Menus;
}

/** Formats a table id: `*` + uppercase hex. */
export function fmtId(n: number): string {
  return "*" + n.toString(16).toUpperCase();
}

/** State of one router. */
export class RouterState {
  readonly version: SimVersion;
  /** The release imitated (ranges in menus are checked against it). */
  readonly release: Release;
  readonly v6: boolean;
  /** Dates written `jun/26/2024` (before 7.10; see timefmt.ts). */
  readonly legacyDates: boolean;
  /** Installed packages (`/system/package`), which decide some menus (`packages.ts`). */
  readonly packages: string[];
  /** The menus of this router, for looking one up by path or table. */
  readonly menus: Menus;
  readonly init: StateInit;
  private tables = new Map<string, Table>();
  /** Global script variables (kept in memory, like RouterOS until reboot). */
  readonly globals = new Map<string, Val>();
  clockOffsetMs = 0;
  bootMs = Date.now();
  /** Set whenever stored configuration changes (for the state file). */
  dirty = false;
  /** User running the current command (owner of new scripts and jobs). */
  currentUser = "admin";
  /** Next planned run (ms) of a scheduler job, filled in by the router's scheduler. */
  nextRunOf: (id: string) => number | null = () => null;
  /** Called by `/system reboot` from a script: drops connections. */
  onReboot: (() => void) | null = null;
  /** The state of the router that holds `ip`, among those this one reaches (`network.ts`). */
  peerAt: (ip: string) => RouterState | undefined = () => undefined;
  /** Logged-in sessions, for `/user/active`. */
  activeSessions: () => {
    id: string;
    name: string;
    address: string;
    via: string;
    when: string;
  }[] = () => [];
  /** Ends a logged-in session by its `/user/active` id; false when there is none. */
  endSession: (id: string) => boolean = () => false;
  /**
   * `/system/package/update`: the release the update server offers, what the
   * last check found, and the release that installs at the next reboot
   * (shared by the router across the states of its releases).
   */
  updates: { offered?: string; latest?: string; status?: string; pending?: string } = {};
  /** The configuration `/system backup load` brings back at its reboot. */
  restoring: StateData | undefined;
  /** Hooks run after any change (scheduler re-arming). */
  onChange: (() => void) | null = null;

  constructor(init: StateInit, data?: StateData) {
    this.init = init;
    this.version = init.version;
    this.release = release(init.version);
    this.v6 = this.release.major < 7;
    this.legacyDates = legacyDates(this.release);
    this.packages = installedPackages(this.release, init.packages);
    this.menus = init.menus;
    if (data) {
      for (const [k, t] of Object.entries(data.tables)) this.tables.set(k, structuredClone(t));
      this.clockOffsetMs = data.clockOffsetMs ?? 0;
    }
  }

  /** Router clock. */
  now(): Date {
    const base = this.init.now ? this.init.now().getTime() : Date.now();
    return new Date(base + this.clockOffsetMs);
  }

  /** `date time` in this version's format. */
  nowText(): string {
    return fmtDateTime(this.now(), this.legacyDates);
  }

  /** Storage table of a path, created with defaults on first use. */
  table(path: string): Table {
    let t = this.tables.get(path);
    if (!t) {
      t = { nextId: 1, items: [] };
      this.tables.set(path, t);
      for (const m of this.menus.inTable(path)) {
        if (!onRelease(this.release, m.releases)) continue;
        for (const d of m.defaults?.(this) ?? []) {
          const it: Item = m.kind === "list" ? { ".id": fmtId(t.nextId++), ...d } : { ...d };
          // a built-in item has every default value an added one gets
          if (m.kind === "list") this.fillDefaults(m, it);
          t.items.push(it);
        }
      }
    }
    return t;
  }

  /** Gives an item the default value of each property it lacks (its menu's and its table's). */
  fillDefaults(menu: MenuDef, item: Item): void {
    const sets: MenuDef[] = [menu];
    if (menu.table) {
      const base = this.menus.byPath(menu.table);
      if (base && base !== menu) sets.push(base);
    }
    for (const m of sets) {
      for (const p of m.props) {
        if (!onRelease(this.release, p.releases)) continue;
        if (item[p.name] !== undefined || p.default === undefined || p.compute) continue;
        const d = typeof p.default === "function" ? p.default(item, this) : p.default;
        if (d !== undefined) item[p.name] = d;
      }
    }
  }

  /** Storage table of a menu. */
  tableOf(menu: MenuDef): Table {
    return this.table(menu.table ?? menu.path);
  }

  /** Stored items of a menu (matching its `match`), not including dynamic ones. */
  stored(menu: MenuDef): Item[] {
    const items = this.tableOf(menu).items;
    const match = menu.match;
    if (!match) return items;
    return items.filter((it) => Object.entries(match).every(([k, v]) => it[k] === v));
  }

  /** All items of a menu, dynamic ones included, with computed properties. */
  list(menu: MenuDef): Item[] {
    const out = this.stored(menu).map((it) => this.view(menu, it));
    if (menu.dynamic) { for (const d of menu.dynamic(this)) out.push(this.view(menu, d)); }
    return out;
  }

  /** An item with its computed properties filled in. */
  view(menu: MenuDef, it: Item): Item {
    const v: Item = { ...it };
    for (const p of menu.props) {
      if (p.compute) {
        const c = p.compute(it, this);
        if (c !== undefined) v[p.name] = c;
        else delete v[p.name];
      }
    }
    return v;
  }

  /** Items of a menu path (`/ip/address` or `/ip address`), for tests. */
  items(path: string): Item[] {
    const m = this.menus.byPath(path, this.release);
    if (!m) throw new Error(`unknown menu ${path}`);
    return this.list(m);
  }

  /** Menu description of a path (throws for unknown paths). */
  menuOf(path: string): MenuDef {
    const m = this.menus.byPath(path, this.release);
    if (!m) throw new Error(`unknown menu ${path}`);
    return m;
  }

  /**
   * Finds an item by key property value in a menu path, with its computed
   * properties. Only the match is viewed (a stored key is what its view
   * shows, unless the key itself is computed).
   */
  findByKey(path: string, value: string): Item | undefined {
    const m = this.menus.byPath(path, this.release);
    const key = m?.key;
    if (!m || !key) return undefined;
    if (m.props.some((p) => p.name === key && p.compute)) {
      return this.list(m).find((it) => it[key] === value);
    }
    const stored = this.stored(m).find((it) => it[key] === value);
    if (stored) return this.view(m, stored);
    const dynamic = m.dynamic?.(this).find((it) => it[key] === value);
    return dynamic && this.view(m, dynamic);
  }

  /** Allocates a new id in a table. */
  newId(t: Table): string {
    return fmtId(t.nextId++);
  }

  /** Marks configuration as changed. */
  touch(): void {
    this.dirty = true;
    this.onChange?.();
  }

  /** Adds a line to `/log`. */
  log(topics: string, message: string): void {
    const t = this.table("/log");
    t.items.push({
      ".id": this.newId(t),
      time: this.nowText(),
      topics,
      message,
    });
    if (t.items.length > 1000) t.items.splice(0, t.items.length - 1000);
  }

  /** Creates or overwrites a file in `/file`. */
  writeFile(name: string, contents: string, type: string): void {
    const t = this.table("/file");
    const item: Item = {
      name,
      type,
      contents,
      [this.v6 ? "creation-time" : "last-modified"]: this.nowText(),
    };
    const old = t.items.find((f) => f.name === name);
    if (old) Object.assign(old, item);
    else t.items.push({ ".id": this.newId(t), ...item });
    this.touch();
  }

  /** Serialises the configuration for a state file. */
  toData(): StateData {
    const tables: Record<string, Table> = {};
    for (const [k, t] of this.tables) tables[k] = t;
    return { version: this.version, tables, clockOffsetMs: this.clockOffsetMs };
  }
}

/**
 * How a schema menu is presented as tools: its toolset, the names of its
 * items (from the noun table), the verbs offered, table columns, notes and
 * examples. The RouterOS facts stay in the schema declaration.
 *
 * @module
 */
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { LockoutRule } from "../guard/lockout.ts";
import type { Toolset, Verb } from "../tool.ts";

/** The proper names of a menu's items, and the stems of its tool names. */
export interface Noun {
  /** "IPv4 address" */
  one: string;
  /** "IPv4 addresses" */
  many: string;
  /** Tool name stems: `ip_address`, `ip_addresses`. */
  stem: string;
  stems: string;
}

/** Example arguments of a menu's tools (tool-side names). */
export interface MenuExample {
  /** Valid `add` arguments. */
  add?: Record<string, unknown>;
  /** A valid `update` change (without the item reference). */
  update?: Record<string, unknown>;
  /** For menus without `add`: the reference (`{ name: "ether3" }`) of an item a default router has. */
  target?: Record<string, unknown>;
  /** Menus (paths) whose example item must exist first (a peer needs its interface). */
  requires?: readonly string[];
}

/** The presentation of one menu as tools. */
export interface MenuTools {
  schema: MenuSchema;
  toolset: Toolset;
  noun: Noun;
  verbs: readonly Verb[];
  /** Verbs whose tools are in the default (core) catalogue. */
  core?: readonly Verb[];
  /** Columns of the compact text table (RouterOS names). */
  columns: readonly string[];
  /** Guidance for agents, appended once to every description of the menu's tools. */
  notes?: string;
  example?: MenuExample;
  /** What a write would cut of this server's own access (see lib/tools/guard/lockout.ts). */
  lockout?: LockoutRule;
  /**
   * The role its writes need when it is above `operate`: `admin` for menus
   * whose items run code on the router (scripts, scheduler, netwatch,
   * containers), change its software (packages) or grant access to it
   * (users, groups, SSH keys).
   */
  writeRole?: "admin";
}

/**
 * How a schema menu is presented as tools: its toolset, the names of its
 * items (its {@linkcode noun}), the verbs offered, table columns, notes and
 * examples. The RouterOS facts stay in the schema declaration.
 *
 * @module
 */
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { LockoutRule } from "../guard/lockout.ts";
import type { ToolContext, Toolset, Verb } from "../tool.ts";

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

/** The plural of one English word: ...s, ...es after s, x, sh or ch, ...ies after a consonant and y. */
export function pluralOf(word: string): string {
  if (/(s|x|sh|ch)$/i.test(word)) return word + "es";
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + "ies";
  return word + "s";
}

/**
 * The noun of a menu's items, declared where its tools are presented:
 * `noun("ip_address", "IPv4 address")` is "IPv4 addresses" and
 * `router_list_ip_addresses` in the plural, by {@linkcode pluralOf} on the
 * last word. Only an irregular plural is given (`many` for titles, `stems`
 * for the list tool's name). A settings menu has no list tool, so its
 * plural is never used.
 */
export function noun(
  stem: string,
  one: string,
  irregular: { many?: string; stems?: string } = {},
): Noun {
  const words = one.split(" ");
  const many = irregular.many ?? [...words.slice(0, -1), pluralOf(words.at(-1)!)].join(" ");
  return { one, many, stem, stems: irregular.stems ?? pluralOf(stem) };
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
  /**
   * What a write would cut of this server's own access (see
   * lib/tools/guard/lockout.ts), beyond the interface rule that every menu
   * of interfaces gets from its schema (lockout_rule.ts).
   */
  lockout?: LockoutRule;
  /**
   * The role its writes need when it is above `operate`: `admin` for menus
   * whose items run code on the router (scripts, scheduler, netwatch,
   * containers), change its software (packages) or grant access to it
   * (users, groups, SSH keys).
   */
  writeRole?: "admin";
  /**
   * A check every write of the menu passes before anything is sent, dry
   * runs included; it throws to refuse (the `/file` menu: a file a pending
   * change's revert loads is not removed).
   */
  checkWrite?: (
    tool: string,
    verb: Verb,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ) => Promise<void>;
}

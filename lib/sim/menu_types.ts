/**
 * Declarative menu descriptions. Each RouterOS menu (`/ip/address`,
 * `/system/identity`...) is data: its properties with types, defaults and
 * validators, its key property, flags, table columns and extra commands.
 * The generic verbs (add/set/remove/print/...) in `verbs.ts` work from this.
 *
 * @module
 */
import type { Release, ReleaseRange } from "../routeros/release.ts";
import type { RouterState } from "./state.ts";
import type { Val } from "./values.ts";

/** A stored item: `.id` plus properties, all strings. */
export type Item = Record<string, string>;

/** Property value types. */
export type PropType =
  | "str"
  | "bool"
  | "int"
  | "ip"
  | "prefix"
  | "ip6"
  | "prefix6"
  | "ipOrPrefix"
  | "mac"
  | "time"
  | "enum"
  | "ref"
  | "list"
  | "num";

/** One property of a menu. */
export interface PropDef {
  name: string;
  type: PropType;
  /** Default stored value for new items (or computed from the new item). */
  default?: string | ((item: Item, st: RouterState) => string | undefined);
  /** Read-only: set by the system, refused in add/set (`expected end of command`). */
  ro?: boolean;
  /** Computed at read time (never stored). */
  compute?: (item: Item, st: RouterState) => string | undefined;
  /** enum/list members. */
  values?: string[];
  /** `ref`: menu path whose key property the value must name. */
  ref?: string;
  /** `ref`: extra accepted values (e.g. `all`). */
  refAllow?: string[];
  /** `int`: bounds. */
  min?: number;
  max?: number;
  /** Hidden unless `show-sensitive` (v7 export) and never printed by print. */
  sensitive?: boolean;
  /** Never printed or exported (passwords). */
  secret?: boolean;
  /** Must be given to `add`. */
  required?: boolean;
  /** Custom check; returns the error text, or undefined when valid. */
  validate?: (v: string, item: Item, st: RouterState) => string | undefined;
  /** Normalises an accepted value before storing. */
  normalize?: (v: string, st: RouterState) => string;
  /** Only in these releases. */
  releases?: ReleaseRange;
  /** `set` takes it only on these releases (`add` on all of `releases`): `/file set name=` from 7.13. */
  setReleases?: ReleaseRange;
  /** Exported even when equal to the default (on every release, or on these releases). */
  exportAlways?: true | ReleaseRange;
  /** How print shows the stored value (e.g. bytes as `872.2MiB`). */
  show?: (v: string) => string;
  /**
   * `print detail` shows the text as it is, never quoted: a status or an
   * address with its interface (`gateway-status=bridge1 reachable`,
   * `immediate-gw=172.16.1.1%ether8` in real-output/print-ip-route-detail-v6-ansible.txt
   * and print-ip-route-detail-v7-policy-routing-docs.txt).
   */
  bare?: boolean;
  /** Shown by `print detail` only (not by terse or tables). */
  detailOnly?: boolean;
  /** Not shown by print detail/terse (still in as-value and get). */
  noPrint?: boolean;
}

/** A flag letter shown in print output. */
export interface FlagDef {
  ch: string;
  name: string;
  /** Only in these releases. */
  releases?: ReleaseRange;
  /** Flags in the same group share one column (v7 legend separates groups by `;`). */
  group: number;
  test: (item: Item, st: RouterState) => boolean;
}

/** Context handed to extra commands. */
export interface CommandCtx {
  st: RouterState;
  /** The menu the command was found in (undefined for loose commands like `/ping`). */
  menu: MenuDef | undefined;
  /** Name of the logged-in user. */
  user: string;
  /** `/export` text of a menu path prefix ("" = all). */
  exportText: (
    opts: { terse: boolean; sensitive: boolean; verbose: boolean; prefix: string },
  ) => string;
  /** Named arguments (already evaluated to strings). */
  named: Map<string, string>;
  /** Positional arguments (evaluated). */
  positional: Val[];
  /** Ids selected by `numbers` when the command takes them. */
  ids: string[];
  /** The `switches` given. */
  switches: Set<string>;
  /** Depth of `[ ... ]` substitutions the command runs in (0 = on the console). */
  cmdDepth: number;
  /** True for console input (an exec); false inside scripts (scheduler, `/system script run`). */
  interactive: boolean;
  /** Appends an output line. */
  print: (line: string) => void;
  /** Runs a script as the current user (scheduler, scripts). */
  runScript: (src: string) => void;
  /**
   * The command runs this long (ms) on a real router before it answers (a
   * torch for its `duration`); Infinity: until it is stopped. The SSH
   * server holds the answer that long.
   */
  runFor: (ms: number) => void;
}

/** An extra command beyond the generic verbs. */
export interface CommandDef {
  /** Named arguments accepted. */
  args?: string[];
  /** Arguments of `args` that only some releases take (else `expected end of command`). */
  argReleases?: Record<string, ReleaseRange>;
  /** Takes `numbers` (item selection) as first positional. */
  numbers?: boolean;
  /**
   * The selection's name when given by name (default `numbers`):
   * `/system script run number=`, `/interface monitor-traffic interface=`.
   */
  numbersName?: string;
  /** Other positional arguments accepted (count). */
  positional?: number;
  /** The named argument the first positional stands for (`/ping 1.1.1.1` = `address=`). */
  positionalArg?: string;
  /** Needs the `write` policy. */
  write?: boolean;
  /** Needs this policy of the user's group (`test`, `sniff`). */
  policy?: string;
  /** Bare words the command takes anywhere after its name (`once`, `as-value`). */
  switches?: string[];
  /** Only in these releases (else `bad command name`). */
  releases?: ReleaseRange;
  run: (ctx: CommandCtx) => Val | void;
}

/** A menu description. */
export interface MenuDef {
  /** Path with slashes: `/ip/address`. */
  path: string;
  kind: "list" | "single";
  props: PropDef[];
  /** Property used to address items by name (`set ether1 ...`). */
  key?: string;
  /** Storage table when items live in a shared table (interfaces). */
  table?: string;
  /** Fixed properties of the items this menu shows in a shared table. */
  match?: Item;
  /** Duplicate checks: properties that together must be unique. */
  unique?: { props: string[]; error: string }[];
  flags?: FlagDef[];
  /** v7 table columns (property names). */
  columns?: string[];
  /** v7 tables show those of these columns that have a value in some item (firewall). */
  dynColumns?: string[];
  /** v6 table columns (defaults to `columns`). */
  columns6?: string[];
  /** Items can be reordered with `move`. */
  ordered?: boolean;
  /**
   * Which generic verbs exist. Default for a settings menu: set, print, get;
   * for a list: print, find, get, set, add and remove (unless `noAdd`),
   * enable/disable where `disabled` is writable, comment where `comment` is,
   * move when `ordered`, unset on the `unset` releases. `add` also follows
   * `addReleases`.
   */
  verbs?: string[];
  /** Releases whose menu has `unset` (most menus have none: the real trees list few). */
  unset?: ReleaseRange;
  /** Default items of a fresh router. */
  defaults?: (st: RouterState) => Item[];
  /** Items the system adds (dynamic), recomputed on read. */
  dynamic?: (st: RouterState) => Item[];
  commands?: Record<string, CommandDef>;
  /** Called before an add/set is stored; may throw RosError. `old` is undefined for add. */
  check?: (item: Item, st: RouterState, old: Item | undefined) => void;
  /** Called before remove; may throw RosError. */
  checkRemove?: (item: Item, st: RouterState) => void;
  /** Called after an item was removed (cascade). */
  afterRemove?: (item: Item, st: RouterState) => void;
  /** Called after add/set was stored. */
  afterChange?: (item: Item, st: RouterState, old: Item | undefined) => void;
  /** Only in these releases. */
  releases?: ReleaseRange;
  /** On these releases the menu is there only when the package is installed (`packages.ts`). */
  package?: { name: string; releases: ReleaseRange };
  /** Items left out of /export (built-in ones). */
  exportSkip?: (item: Item, st: RouterState) => boolean;
  /** Custom table print (e.g. `/log print`). */
  printer?: (items: Item[], st: RouterState) => string[];
  /** Not part of /export. */
  noExport?: boolean;
  /** Items with this property set identify defaults in export (`set [ find default-name=ether1 ]`). */
  exportFindBy?: string;
  /** Needs `policy` (user management) for writes. */
  policy?: boolean;
  /** Items cannot be added/removed by the user (e.g. /interface/ethernet). */
  noAdd?: boolean;
  /** `add` exists only in these releases (`/user/ssh-keys add` from 7.12). */
  addReleases?: ReleaseRange;
  /**
   * The order `print detail` and `print terse` show properties in, where it
   * is not the order of `props` (it differs by release); properties it does
   * not name follow in the order of `props`.
   */
  printOrder?: (st: RouterState) => string[];
  /** Releases whose print leaves dynamic items without a number (RouterOS 7 routes). */
  unnumberedDynamic?: ReleaseRange;
  /** Yes/no properties also given as bare words (`add blackhole`), meaning `=yes`. */
  switches?: string[];
}

/** A command at a path of the menu tree, outside any menu (`/ping`, `/system/reboot`). */
export interface LooseCommand {
  path: string;
  name: string;
  def: CommandDef;
  releases?: ReleaseRange;
}

/** A node of the menu tree. */
export interface MenuNode {
  name: string;
  path: string;
  children: Map<string, MenuNode>;
  menu?: MenuDef;
  commands: Map<string, CommandDef>;
}

/**
 * The menus of a simulated router, as its state holds them
 * (`RouterState.menus`; `menu_index.ts` builds one): menus and commands
 * look each other up through the state they are given.
 */
export interface Menus {
  /** Every menu description, of every release. */
  readonly all: readonly MenuDef[];
  /**
   * The description of a path (`/ip address` or `ip/address`) on a release;
   * without a release, the first one declared.
   */
  byPath(path: string, release?: Release): MenuDef | undefined;
  /** The menus whose items live in a storage table. */
  inTable(table: string): readonly MenuDef[];
  /** Whether a menu is on a router of this release with these packages. */
  present(menu: MenuDef, release: Release, packages: readonly string[]): boolean;
  /** The menu tree of a release with its installed packages. */
  tree(release: Release, packages?: readonly string[]): MenuNode;
}

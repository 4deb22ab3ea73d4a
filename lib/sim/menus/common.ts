/**
 * Building blocks shared by menu descriptions.
 *
 * @module
 */
import type { FlagDef, Item, MenuDef, PropDef } from "../menu_types.ts";
import { isTrue } from "../values.ts";

/** `comment` property (printed as `;;; text`). */
export const COMMENT: PropDef = { name: "comment", type: "str" };
/** `disabled` property (flag X). */
export const DISABLED: PropDef = { name: "disabled", type: "bool", default: "false" };
/** `dynamic` read-only property (flag D). */
export const DYNAMIC: PropDef = { name: "dynamic", type: "bool", ro: true, default: "false" };
/** `invalid` read-only property (flag I). */
export const INVALID: PropDef = { name: "invalid", type: "bool", ro: true, default: "false" };

/** `running` read-only property: up while not disabled. */
export const RUNNING: PropDef = {
  name: "running",
  type: "bool",
  ro: true,
  compute: (i) => String(!isTrue(i.disabled)),
};

/** Flag X - disabled. */
export const F_DISABLED: FlagDef = {
  ch: "X",
  name: "disabled",
  group: 0,
  test: (i) => isTrue(i.disabled),
};
/** Flag I - invalid. */
export const F_INVALID: FlagDef = {
  ch: "I",
  name: "invalid",
  group: 0,
  test: (i) => isTrue(i.invalid),
};
/** Flag D - dynamic. */
export const F_DYNAMIC: FlagDef = {
  ch: "D",
  name: "dynamic",
  group: 1,
  test: (i) => isTrue(i.dynamic),
};

/** Flag R - running (and not disabled). */
export const F_RUNNING: FlagDef = {
  ch: "R",
  name: "running",
  group: 0,
  test: (i) => isTrue(i.running) && !isTrue(i.disabled),
};

/** A string property. */
export function str(name: string, extra: Partial<PropDef> = {}): PropDef {
  return { name, type: "str", ...extra };
}
/** A yes/no property. */
export function bool(name: string, def?: boolean, extra: Partial<PropDef> = {}): PropDef {
  return { name, type: "bool", default: def === undefined ? undefined : String(def), ...extra };
}
/** An integer property. */
export function int(name: string, def?: number, extra: Partial<PropDef> = {}): PropDef {
  return { name, type: "int", default: def === undefined ? undefined : String(def), ...extra };
}
/** An enum property. */
export function oneOf(
  name: string,
  values: string[],
  def?: string,
  extra: Partial<PropDef> = {},
): PropDef {
  return { name, type: "enum", values, default: def, ...extra };
}
/** A read-only property. */
export function ro(name: string, type: PropDef["type"], extra: Partial<PropDef> = {}): PropDef {
  return { name, type, ro: true, ...extra };
}
/** A reference to an interface by name. */
export function ifaceRef(name = "interface", extra: Partial<PropDef> = {}): PropDef {
  return { name, type: "ref", ref: "/interface", ...extra };
}

/** Deterministic MAC address of a router port. */
export function mac(n: number): string {
  return `48:A9:8A:12:34:${n.toString(16).toUpperCase().padStart(2, "0")}`;
}

/** True when every key of `m` matches in `it`. */
export function matches(it: Item, m: Item): boolean {
  return Object.entries(m).every(([k, v]) => it[k] === v);
}

/**
 * A table RouterOS fills itself (sessions, neighbours, security
 * associations, log lines): listed and read, never added to or exported;
 * `remove` where RouterOS lets one drop an entry.
 */
export function statusTable(
  def: Omit<MenuDef, "kind" | "noAdd" | "noExport" | "verbs">,
  opts: { remove?: boolean } = {},
): MenuDef {
  return {
    ...def,
    kind: "list",
    noAdd: true,
    noExport: true,
    verbs: opts.remove ? ["print", "find", "get", "remove"] : ["print", "find", "get"],
  };
}

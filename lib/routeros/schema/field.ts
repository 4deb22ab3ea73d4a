/**
 * Properties of RouterOS menus, as data: what kind of value each holds,
 * whether it can be written, whether it is a secret RouterOS never shows
 * back, whether it is a script the router runs, and which releases have it.
 *
 * @module
 */
import type { ReleaseRange } from "../release.ts";
import type { Privilege } from "../privilege.ts";

export { grantsPrivilege, type Privilege } from "../privilege.ts";

/** What kind of value a property holds. */
export type FieldKind =
  | "text"
  | "bool"
  | "int"
  | "enum"
  | "list"
  | "ipv4"
  | "ipv4-prefix"
  | "ipv6"
  | "ipv6-prefix"
  | "address"
  | "mac"
  | "ports"
  | "duration";

/** One allowed value of an enum property; with a range when some releases lack it. */
export type EnumValue = string | readonly [string, ReleaseRange];

/** One property of a menu. */
export interface Field {
  kind: FieldKind;
  /** What the property is, for people and agents (one line). */
  doc: string;
  /** Can be given to add/set. */
  writable: boolean;
  /** Must be given to add. */
  required: boolean;
  /** Write-only secret (password, private key, pre-shared key): masked in every output. */
  secret: boolean;
  /**
   * A script the router runs (`lease-script`, `on-up`; the list is
   * `script_args.ts`): setting one runs code on the router, and the
   * passwords its text may hold are masked like raw console text.
   */
  script?: boolean;
  /**
   * Setting it to anything but empty or off grants power beyond the menu's
   * own writes: what it grants, as a phrase ("a script the router runs with
   * its owner's rights" for every `script` field; "SNMP write access" for a
   * community's `write-access`). The tools ask the highest role for it,
   * both to set it and to change an item that holds it.
   */
  privileged?: string;
  /**
   * The values of a privileged field that grant it, when not all do: a list
   * holding any of them (`/radius` `service` with `login`: the server then
   * answers the router's own logins).
   */
  privilegedValues?: readonly string[];
  /**
   * A privilege by reference: setting it grants what other items hold, read
   * from the router before the write (failing closed). `named`: the item of
   * `path` its value names by that menu's key (a User Manager user's `group`:
   * the group's `attributes`), and an item whose value names such an item
   * holds it too. `any`: any item of `path`, when the value turns it on
   * (`/snmp` `enabled` opens every community, a write community's access
   * with them). `field` is that menu's privileged field.
   */
  privilegedThrough?: PrivilegeThrough;
  /**
   * Setting it to anything but empty or off may move the router's wall
   * clock (its date, time or time zone: `/system/clock`, the NTP client,
   * `/ip/cloud` `update-time`). Revert jobs run by that clock.
   */
  movesClock?: boolean;
  /**
   * Turning it on may move the router's wall clock while this other field
   * of the menu is on (`/ip/cloud` `ddns-enabled` with `update-time`, on by
   * default: the cloud service's answer then sets the clock).
   */
  movesClockWith?: string;
  /** Offered as a list filter (default: every field that is neither secret nor a script). */
  filter: boolean;
  /** `enum`: the allowed values. */
  values?: readonly EnumValue[];
  /** `list`: the kind of each element. */
  item?: FieldKind;
  /** `int`: bounds. */
  min?: number;
  max?: number;
  /** `address`/`ports`: a leading `!` negates (firewall matchers). */
  negatable?: boolean;
  /** `address`: the address family (default: either). */
  family?: "ipv4" | "ipv6";
  /** `duration`: words taken besides durations (`none-dynamic`, `never`). */
  words?: readonly string[];
  /** The value names an item of this menu by its `name` (`/interface`). */
  ref?: string;
  /** Releases that have the property (default: every release of the menu). */
  releases?: ReleaseRange;
  /** The property's name on RouterOS 6, where it differs. */
  v6Name?: string;
  /** Only on devices with that hardware (PoE, full duplex): absent from the CHR command trees. */
  hardware?: boolean;
}

/** Where a field's privilege by reference is held ({@linkcode Field.privilegedThrough}). */
export interface PrivilegeThrough {
  path: string;
  field: string;
  items: "named" | "any";
}

/** Options every field constructor takes. */
export type FieldOptions = Partial<
  Pick<
    Field,
    | "writable"
    | "required"
    | "secret"
    | "script"
    | "privileged"
    | "privilegedValues"
    | "privilegedThrough"
    | "movesClock"
    | "movesClockWith"
    | "filter"
    | "ref"
    | "releases"
    | "v6Name"
    | "min"
    | "max"
    | "negatable"
    | "family"
    | "words"
    | "hardware"
  >
>;

/** A field's privilege ({@linkcode Field.privileged}), if it has one. */
export function privilegeOf(field: Field): Privilege | undefined {
  if (!field.privileged) return undefined;
  return {
    grants: field.privileged,
    ...(field.privilegedValues ? { values: field.privilegedValues } : {}),
  };
}

/** What setting a script field grants ({@linkcode Field.privileged}). */
export const SCRIPT_PRIVILEGE = "a script the router runs with its owner's rights";

function make(kind: FieldKind, doc: string, o: FieldOptions, extra: Partial<Field> = {}): Field {
  const secret = o.secret ?? false;
  return {
    kind,
    doc,
    writable: o.writable ?? true,
    required: o.required ?? false,
    secret,
    ...(o.script ? { script: true } : {}),
    ...(o.privileged || o.script ? { privileged: o.privileged ?? SCRIPT_PRIVILEGE } : {}),
    ...(o.privilegedValues ? { privilegedValues: o.privilegedValues } : {}),
    ...(o.privilegedThrough ? { privilegedThrough: o.privilegedThrough } : {}),
    ...(o.movesClock ? { movesClock: true } : {}),
    ...(o.movesClockWith ? { movesClockWith: o.movesClockWith } : {}),
    // A filter on a script's text would answer whether a guessed password in it is right.
    filter: o.filter ?? !(secret || o.script),
    ...(o.ref ? { ref: o.ref } : {}),
    ...(o.releases ? { releases: o.releases } : {}),
    ...(o.v6Name ? { v6Name: o.v6Name } : {}),
    ...(o.min !== undefined ? { min: o.min } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
    ...(o.negatable ? { negatable: true } : {}),
    ...(o.family ? { family: o.family } : {}),
    ...(o.words ? { words: o.words } : {}),
    ...(o.hardware ? { hardware: true } : {}),
    ...extra,
  };
}

/** Free text. */
export const text = (doc: string, o: FieldOptions = {}): Field => make("text", doc, o);
/** A script the router runs (RouterOS scripting language). */
export const scriptText = (doc: string, o: FieldOptions = {}): Field =>
  make("text", doc, { ...o, script: true });
/** yes/no. */
export const bool = (doc: string, o: FieldOptions = {}): Field => make("bool", doc, o);
/** A whole number (`min`/`max` bound it). */
export const int = (doc: string, o: FieldOptions = {}): Field => make("int", doc, o);
/** One of fixed values (a value may carry the releases that have it). */
export const oneOf = (values: readonly EnumValue[], doc: string, o: FieldOptions = {}): Field =>
  make("enum", doc, o, { values });
/** A comma-separated list; `item` says what each element is. */
export const list = (doc: string, o: FieldOptions & { item?: FieldKind } = {}): Field =>
  make("list", doc, o, { item: o.item ?? "text" });
/** An IPv4 address. */
export const ipv4 = (doc: string, o: FieldOptions = {}): Field => make("ipv4", doc, o);
/** An IPv4 address with an optional prefix length (`192.168.88.1/24`). */
export const ipv4Prefix = (doc: string, o: FieldOptions = {}): Field => make("ipv4-prefix", doc, o);
/** An IPv6 address. */
export const ipv6 = (doc: string, o: FieldOptions = {}): Field => make("ipv6", doc, o);
/** An IPv6 address with an optional prefix length (`2001:db8::1/64`). */
export const ipv6Prefix = (doc: string, o: FieldOptions = {}): Field => make("ipv6-prefix", doc, o);
/** An address, prefix or range (`10.0.0.1-10.0.0.9`), `!`-negatable when `negatable`. */
export const address = (doc: string, o: FieldOptions = {}): Field => make("address", doc, o);
/** A MAC address (`AA:BB:CC:00:11:22`). */
export const mac = (doc: string, o: FieldOptions = {}): Field => make("mac", doc, o);
/** Ports: `22`, `80,443`, `1024-65535`. */
export const ports = (doc: string, o: FieldOptions = {}): Field => make("ports", doc, o);
/** A duration (`30s`, `1d2h`, `00:05:00`), plus `words`. */
export const duration = (doc: string, o: FieldOptions = {}): Field => make("duration", doc, o);

/** Read-only: state RouterOS reports. */
export const state = (field: Field): Field => ({ ...field, writable: false, required: false });
/** A reference to an item of `path` by its name (an interface, a pool). */
export const ref = (path: string, doc: string, o: FieldOptions = {}): Field =>
  make("text", doc, { ...o, ref: path });

/** The value strings of an enum field, whatever their release ranges. */
export function enumValues(field: Field): string[] {
  return (field.values ?? []).map((v) => (typeof v === "string" ? v : v[0]));
}

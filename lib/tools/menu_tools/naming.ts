/**
 * The naming rules of engine-made tools: a tool's name and title from its
 * menu's noun and verb (`router_list_ip_addresses`, "List IPv4
 * addresses"), an argument's name from its RouterOS property
 * (`actual-interface` -> `actual_interface`), the words of descriptions, and
 * the check that a menu's arguments are unambiguous.
 *
 * @module
 */
import { describeRange } from "../../routeros/release.ts";
import type { ItemRef } from "../../routeros/command.ts";
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { Field } from "../../routeros/schema/field.ts";
import type { Verb } from "../tool.ts";
import type { MenuTools } from "./spec.ts";

const argNames = new Map<string, string>();

/** The argument (and result key) name of a RouterOS property: `actual-interface` -> `actual_interface`. */
export function argName(ros: string): string {
  let name = argNames.get(ros);
  if (name === undefined) {
    name = ros.replace(/[-.]/g, "_");
    // The schema's names, asked for on every item of every call; bounded all the same.
    if (argNames.size < 10_000) argNames.set(ros, name);
  }
  return name;
}

/** Tool names of a menu's verbs. */
export function toolNameOf(spec: MenuTools, verb: Verb): string {
  return verb === "list" ? `router_list_${spec.noun.stems}` : `router_${verb}_${spec.noun.stem}`;
}

/** Titles, from the menu's noun. */
export function titleOf(spec: MenuTools, verb: Verb): string {
  const { one, many } = spec.noun;
  switch (verb) {
    case "list":
      return `List ${many}`;
    case "get":
      return spec.schema.kind === "singleton" ? `Show ${one}` : `Get one ${one}`;
    default:
      return `${verb[0].toUpperCase()}${verb.slice(1)} ${one}`;
  }
}

/** `ip address` from `/ip/address`, for descriptions. */
export function words(menu: MenuSchema): string {
  return menu.path.split("/").filter(Boolean).join(" ");
}

/** "id *1A" or `name="ether1"`, for messages. */
export function describeRef(ref: ItemRef): string {
  return "id" in ref ? `id ${ref.id}` : `${ref.key}=${JSON.stringify(ref.value)}`;
}

/** A field's description, with the releases that have it. */
export function fieldDoc(field: Field): string {
  return field.releases ? `${field.doc} (${describeRange(field.releases)})` : field.doc;
}

/**
 * The one verb whose description carries the menu's notes (they are said
 * once per menu): add, else update, else list, else get. Notes are mostly
 * guidance for changes; a read-only menu's go on its list.
 */
function carriesNotes(spec: MenuTools, verb: Verb): boolean {
  const order: Verb[] = ["add", "update", "list", "get"];
  return order.find((v) => spec.verbs.includes(v)) === verb;
}

/** The menu's notes and release availability, for the descriptions of the verbs that carry them. */
export function notes(spec: MenuTools, verb: Verb): string {
  const parts = [];
  if (spec.notes && carriesNotes(spec, verb)) parts.push(spec.notes);
  if (spec.schema.releases) parts.push(`Only on ${describeRange(spec.schema.releases)}.`);
  if (spec.schema.package) parts.push(`Needs the ${spec.schema.package} package.`);
  return parts.length ? " " + parts.join(" ") : "";
}

/**
 * Argument names the write tools use for themselves, beside the writable
 * properties (list filters live inside `where`, so they clash with nothing).
 */
const RESERVED = new Set(["id", "destination", "device", "dry_run", "confirm"]);

/** Check a menu declaration makes unambiguous tools. */
export function checkSpec(spec: MenuTools): void {
  const fail = (why: string) => {
    throw new Error(`tools of ${spec.schema.path}: ${why}`);
  };
  const seen = new Map<string, string>();
  for (const [name, field] of Object.entries(spec.schema.fields)) {
    const tool = argName(name);
    if (seen.has(tool)) fail(`${name} and ${seen.get(tool)} both become ${tool}`);
    seen.set(tool, name);
    if (RESERVED.has(tool) && field.writable) {
      fail(`${name} clashes with the ${tool} argument`);
    }
  }
}

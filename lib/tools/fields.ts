/**
 * Field declarations for menus: the zod type a client sees, how a raw
 * RouterOS value converts to it, and how it may be used.
 *
 * @module
 */
import * as z from "zod";
import { SECRET_MASK } from "../secret_mask.ts";
import type { VersionRange } from "./menu.ts";

/** How a raw RouterOS value converts to the tool's type. */
export type FieldKind = "string" | "boolean" | "number" | "enum" | "list";

/** One property of a menu. */
export interface Field {
  kind: FieldKind;
  description: string;
  /** Allowed values for `enum` fields. */
  values?: readonly string[];
  /** Can be given to add/update. */
  writable: boolean;
  /** Must be given to add. */
  required: boolean;
  /** Masked in all output (passwords, keys). */
  secret: boolean;
  /** Offered as a list filter (default: every non-secret field). */
  filter: boolean;
  /** The value names an item of this menu (by its `name`), e.g. `/interface`. */
  ref?: string;
  /** RouterOS versions that have this property (default: every version of the menu). */
  versions?: VersionRange;
}

type FieldOptions = Partial<
  Pick<Field, "writable" | "required" | "secret" | "filter" | "ref" | "versions">
>;

function make(kind: FieldKind, description: string, o: FieldOptions, values?: readonly string[]) {
  return {
    kind,
    description,
    values,
    writable: o.writable ?? true,
    required: o.required ?? false,
    secret: o.secret ?? false,
    filter: o.filter ?? !(o.secret ?? false),
    ref: o.ref,
    versions: o.versions,
  } satisfies Field;
}

/** A free-text or address field. */
export const text = (description: string, o: FieldOptions = {}): Field =>
  make("string", description, o);
/** A yes/no field. */
export const flag = (description: string, o: FieldOptions = {}): Field =>
  make("boolean", description, o);
/** A numeric field. */
export const num = (description: string, o: FieldOptions = {}): Field =>
  make("number", description, o);
/** A field with a fixed set of values. */
export const oneOf = (values: readonly string[], description: string, o: FieldOptions = {}) =>
  make("enum", description, o, values);
/** A comma-separated list field. */
export const list = (description: string, o: FieldOptions = {}): Field =>
  make("list", description, o);
/** A read-only field (state RouterOS reports). */
export const state = (field: Field): Field => ({ ...field, writable: false, required: false });

/** Largest free-text value accepted (4 KiB). */
export const MAX_TEXT = 4096;
/** Largest list accepted. */
export const MAX_LIST = 1000;

/** The zod type of a field's value in tool input. */
export function inputType(field: Field): z.ZodType {
  switch (field.kind) {
    case "string":
      return z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);
    case "boolean":
      return z.boolean();
    case "number":
      return z.number().finite();
    case "enum":
      return z.enum(field.values as [string, ...string[]]);
    case "list":
      return z.array(z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`)).max(
        MAX_LIST,
        `must have at most ${MAX_LIST} entries`,
      );
  }
}

/** The zod type of a field's value in tool output. */
export function outputType(field: Field): z.ZodType {
  switch (field.kind) {
    case "string":
    case "enum":
      return z.string();
    case "boolean":
      return z.boolean();
    case "number":
      return z.number();
    case "list":
      return z.array(z.string());
  }
}

/** Placeholder for masked secrets in output. */
export const MASK = SECRET_MASK;

/**
 * Convert a raw RouterOS value to the field's type. Returns undefined for
 * values that cannot be converted (left out rather than guessed).
 */
export function fromRaw(field: Field, raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (field.secret) return raw === "" ? "" : MASK;
  switch (field.kind) {
    case "string":
      return rawText(raw);
    case "enum":
      if (typeof raw === "boolean" && field.values?.includes("yes")) return raw ? "yes" : "no";
      return rawText(raw);
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "yes") return true;
      if (raw === "false" || raw === "no") return false;
      return undefined;
    case "number": {
      if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
      // Counters may carry space thousands separators (`47 603`, real-output/terse-firewall-connection-v7.txt).
      const text = String(raw).trim().replace(
        /^(-?\d{1,3})((?: \d{3})+)$/,
        (_, a, b) => a + b.replace(/ /g, ""),
      );
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
    }
    case "list":
      if (Array.isArray(raw)) return raw.map(rawText);
      return String(raw) === "" ? [] : String(raw).split(",");
  }
}

/** A raw value as the text RouterOS meant (JSON numbers and booleans included). */
function rawText(raw: unknown): string {
  return typeof raw === "number" ? floatText(raw) : String(raw);
}

/**
 * A JSON number RouterOS made from a numeric-looking string, back to text:
 * `:serialize` prints `7.100000` for the string `7.1`, and integers beyond
 * 2^53 lose digits in JSON anyway, so the shortest plain decimal is the best
 * reconstruction (never exponent notation: `1e21` is not what was stored).
 */
export function floatText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return BigInt(n).toString();
  const fixed = n.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
  return fixed === "-0" ? "0" : fixed;
}

/** Convert a tool input value to what RouterOS takes. */
export function toRaw(field: Field, value: unknown): string | boolean | number {
  if (field.kind === "list") return (value as string[]).join(",");
  return value as string | boolean | number;
}

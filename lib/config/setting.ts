/**
 * What one setting is (its flag name, environment variable, help line,
 * default and parser) and the three ways the settings table declares one:
 * with a default, without one, or as an on/off switch.
 *
 * @module
 */
import { type Parser, parseSwitch } from "./parsers.ts";

/** One setting, whose parsed value has type `T`. */
export interface Setting<N extends string = string, T = unknown> {
  /** Key in the settings object, also the flag without `--`. */
  name: N;
  /** Environment variable. */
  env: string;
  /** Placeholder for the value in help; absent for on/off switches. */
  arg?: string;
  /** One line for `--help` and the README. */
  description: string;
  /** Default, applied when neither flag nor environment sets it. */
  default: T;
  /** Turn the raw text into a value, or throw an Error that says the accepted form. */
  parse: Parser<Exclude<T, undefined>>;
  /** Never echo the value. */
  secret?: boolean;
}

/** What a table row declares besides its default; `T` is inferred from `parse`. */
export type Spec<N extends string, T> = Omit<Setting<N, T>, "default" | "parse"> & {
  parse: Parser<T>;
};

/** A setting with a default: its value is always set. */
export function given<const N extends string, T>(
  spec: Spec<N, T> & { default: NoInfer<T> },
): Setting<N, T> {
  return { ...spec, parse: spec.parse as Parser<Exclude<T, undefined>> };
}

/** A setting without a default: its value may be undefined. */
export function optional<const N extends string, T>(spec: Spec<N, T>): Setting<N, T | undefined> {
  return { ...spec, default: undefined, parse: spec.parse as Parser<Exclude<T, undefined>> };
}

/** An on/off switch (a bare flag, or an environment value like 1 or false). */
export function onOff<const N extends string>(
  spec: Omit<Spec<N, boolean>, "parse" | "arg" | "default">,
): Setting<N, boolean> {
  return { ...spec, default: false, parse: parseSwitch };
}

/** `--mcp.allowed-hosts` -> `ROUTER_MCP__ALLOWED_HOSTS`. */
export function envName(name: string): string {
  return "ROUTER_" + name.replaceAll(".", "__").replaceAll("-", "_").toUpperCase();
}

/**
 * Step 3 of the guard chain, the arguments: no key that names a prototype
 * (`__proto__`, `constructor`, `prototype`) at any depth, `dry_run` and
 * `confirm` as validated booleans, and one argument error that names each
 * bad argument (a value outside a long list of choices told in one line).
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";
import { cut, echo } from "../../echo.ts";

/** Keys that name or reach an object's prototype in JavaScript. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Refuse arguments that carry a key naming a prototype, at any depth, or
 * an object that is not plain JSON data (a prototype that is neither
 * `Object.prototype`, `Array.prototype` nor null: a transport that turned
 * `__proto__` into one). The schema check skips an own `__proto__` key, so
 * `{"__proto__": {"dry_run": true}}` would otherwise pass unseen, its
 * `dry_run` read by nobody while the write runs for real.
 */
export function refusePrototypeKeys(args: Record<string, unknown>): void {
  const seen = new Set<object>();
  const walk = (value: unknown, path: string[]): void => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    const proto = Object.getPrototypeOf(value);
    const plain = Array.isArray(value)
      ? proto === Array.prototype
      : proto === Object.prototype || proto === null;
    if (!plain) {
      throw new ArgumentError(
        "is not plain JSON data (it has a prototype of its own); send plain JSON objects",
        cut(path.join(".") || "(arguments)"),
      );
    }
    for (const key of Object.keys(value)) {
      const at = [...path, key];
      if (PROTOTYPE_KEYS.has(key)) {
        throw new ArgumentError(
          `is not an argument of any tool, and a key named ${JSON.stringify(key)} is refused ` +
            "at any depth (it names a JavaScript prototype); remove it",
          cut(at.join(".")),
        );
      }
      walk((value as Record<string, unknown>)[key], at);
    }
  };
  walk(args, []);
}

/**
 * `dry_run` or `confirm` as given: a JSON boolean, or absent (false). Any
 * other value (`"true"`, `1`, `null`) is refused, never read as yes or no.
 */
export function flag(name: "dry_run" | "confirm", value: unknown): boolean {
  if (value === undefined || typeof value === "boolean") return value === true;
  throw new ArgumentError(
    `must be true or false (a JSON boolean), not ${echo(value)}`,
    name,
  );
}

/** One argument error naming each bad argument. */
export function argumentError(
  issues: readonly { path: PropertyKey[]; message: string; code?: string; values?: unknown[] }[],
  given: Record<string, unknown>,
  tool: string,
  parent?: string,
): ArgumentError {
  // A message that quotes what was given stays an excerpt.
  const list = issues.map((i) =>
    `${i.path.map(String).join(".") || "(arguments)"}: ${
      cut(longChoice(i, given) ?? i.message, 300)
    }`
  ).join("; ");
  return new ArgumentError(parent ? `${tool} (inside ${parent}): ${list}` : list);
}

/** A value outside a long list of choices, told in one line (the schema lists them all). */
function longChoice(
  issue: { path: PropertyKey[]; code?: string; values?: unknown[] },
  given: Record<string, unknown>,
): string | undefined {
  const values = issue.values;
  if (issue.code !== "invalid_value" || !values || values.length <= 20) return undefined;
  // deno-lint-ignore no-explicit-any
  const value = issue.path.reduce<any>((v, k) => v?.[k as string], given);
  return `${echo(value)} is not one of the ${values.length} accepted values ` +
    `(${values.slice(0, 5).map((v) => JSON.stringify(v)).join(", ")}, ...; the input schema ` +
    "lists them all)";
}

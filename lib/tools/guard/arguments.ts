/**
 * Step 3 of the guard chain, the arguments: `dry_run` and `confirm` as
 * validated booleans, and one argument error that names each bad argument
 * (a value outside a long list of choices told in one line).
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";
import { cut, echo } from "../../echo.ts";

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

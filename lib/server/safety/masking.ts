/**
 * Secret masking for dry runs and audit lines: secret arguments are
 * replaced by a mask, and so is their quoted form inside command text.
 *
 * @module
 */
import { quoteValue } from "../../routeros/quote.ts";
import { SECRET_MASK } from "../../secret_mask.ts";

/** Args with every secret value masked. */
export function maskArgs(
  args: Record<string, unknown>,
  secrets: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const k of secrets) if (out[k] !== undefined && out[k] !== "") out[k] = SECRET_MASK;
  return out;
}

/** Command text with the quoted form of every secret value masked. */
export function maskCommands(
  commands: readonly string[],
  args: Record<string, unknown>,
  secrets: readonly string[] = [],
): string[] {
  const quoted = secrets
    .map((k) => args[k])
    .filter((v): v is string => typeof v === "string" && v !== "")
    .map(quoteValue)
    .sort((a, b) => b.length - a.length);
  return commands.map((c) => quoted.reduce((text, q) => text.split(q).join(`"${SECRET_MASK}"`), c));
}

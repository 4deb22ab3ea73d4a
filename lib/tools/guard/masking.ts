/**
 * Secret masking for dry runs, errors and audit lines. Arguments and
 * command text are masked by field (`password="..."`), so a secret equal to
 * some other value never hides that value; free text (an error message) is
 * masked by the secret's value, since no field names it there.
 *
 * A tool's secret arguments are masked whole; its raw console text
 * arguments (`router_run_command`'s `command`) have each secret
 * `name=value` in them masked, and so has every command text, whatever tool
 * sent it ({@linkcode maskRawCommand}).
 *
 * @module
 */
import { SECRET_MASK } from "../../secret_mask.ts";
import { maskRawCommand, rawSecretValues } from "../../routeros/raw_secrets.ts";

/**
 * Args with every secret argument masked (a set value shows only as the
 * mask), and the secret values inside each raw console text argument.
 */
export function maskArgs(
  args: Record<string, unknown>,
  secrets: readonly string[] = [],
  raw: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const k of raw) if (typeof out[k] === "string") out[k] = maskRawCommand(out[k] as string);
  for (const k of secrets) if (out[k] !== undefined && out[k] !== "") out[k] = SECRET_MASK;
  return out;
}

/** The RouterOS names a tool-side secret argument may have (`private_key` -> `private-key`). */
function routerNames(arg: string): string[] {
  return [...new Set([arg, arg.replace(/_/g, "-"), arg.replace(/_/g, ".")])];
}

/**
 * Command text with the value of every secret property masked
 * (`password="********"`): the tool's own secret arguments by their RouterOS
 * names, and every argument RouterOS names a secret, at any depth of quoted
 * scripts.
 */
export function maskCommand(command: string, secrets: readonly string[] = []): string {
  return maskRawCommand(maskFields(command, secrets));
}

/**
 * Text with the quoted value of each of the tool's secret properties masked,
 * also inside a quoted script (`:execute script="... password=\"x\""`, for
 * values without quotes or backslashes).
 */
function maskFields(command: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return command;
  const names = secrets.flatMap(routerNames).map((n) => n.replace(/[.]/g, "\\."));
  const re = new RegExp(`(^|[\\s;])(${names.join("|")})="(?:[^"\\\\]|\\\\.)*"`, "g");
  const inner = new RegExp(`(^|[\\s;])(${names.join("|")})=\\\\"[^"\\\\]*\\\\"`, "g");
  return command.replace(re, `$1$2="${SECRET_MASK}"`)
    .replace(inner, `$1$2=\\"${SECRET_MASK}\\"`);
}

/** {@linkcode maskCommand} for each command. */
export function maskCommands(
  commands: readonly string[],
  secrets: readonly string[] = [],
): string[] {
  return commands.map((c) => maskCommand(c, secrets));
}

/**
 * Free text (an error message) with the value of every secret argument
 * masked, and every secret value inside a raw console text argument. A
 * value shorter than 8 characters is masked only where it stands as a whole
 * token (not inside a longer word), so a one-letter password does not shred
 * the sentence around it; a longer value is masked wherever it is.
 */
export function maskText(
  text: string,
  args: Record<string, unknown>,
  secrets: readonly string[] = [],
  raw: readonly string[] = [],
): string {
  const values = [
    ...new Set(
      secrets.map((k) => args[k])
        .concat(raw.flatMap((k) => typeof args[k] === "string" ? rawSecretValues(args[k]) : []))
        .filter((v): v is string => typeof v === "string" && v !== ""),
    ),
  ].sort((a, b) => b.length - a.length);
  let out = maskFields(text, secrets);
  // Each pass reads the text once: a raw command of thousands of secrets stays linear in each.
  for (const v of values) if (v.length >= 8) out = out.split(v).join(SECRET_MASK);
  const short = values.filter((v) => v.length < 8);
  const words = new Set(short.filter((v) => WHOLE_WORD.test(v)));
  // A short value with other characters first: a word inside it may be a value too.
  for (const v of short) {
    if (words.has(v)) continue;
    const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "gu"),
      SECRET_MASK,
    );
  }
  // A short value of letters and digits alone is masked where it is a whole word.
  return words.size ? out.replace(WORD, (w) => words.has(w) ? SECRET_MASK : w) : out;
}

/** A run of letters and digits: a word, as a short value is masked by. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Letters and digits alone. */
const WHOLE_WORD = /^[\p{L}\p{N}]+$/u;

/**
 * Secrets an export shows although it was not asked for them: RouterOS
 * leaves out its sensitive properties unless `show-sensitive`, but prints
 * scripts whole (a `/system script` source, a DHCP server's `lease-script`),
 * passwords written in them included. Each command of the export is masked
 * like raw console text ({@linkcode maskRawCommand}), with its menu known
 * (so `key=` stays where it names something else), on the command as one
 * line: RouterOS wraps long lines (` \` and four spaces), also inside a
 * quoted value, and a value cut there would be masked only up to the cut.
 * A command that holds a secret comes back as one unwrapped line (still a
 * valid script); the rest is left as RouterOS wrote it.
 *
 * How a script's text is shown depends on the reader ({@linkcode ScriptText}):
 * whole (the operator's `--reveal-secrets`), with the credentials found in
 * it masked, or withheld whole, since no masking by shape finds every
 * credential a script can hold (a token in a URL's path, a value computed).
 *
 * @module
 */
import { SECRET_MASK } from "../secret_mask.ts";
import { maskRawCommand } from "./raw_secrets.ts";

/**
 * How script text is shown to a reader: `whole`, `masked` (the credentials
 * masking finds, {@linkcode maskRawCommand}) or `withheld` (only whether
 * there is one).
 */
export type ScriptText = "whole" | "masked" | "withheld";

/** A script's text (a `source`, an `on-event`) as a reader may see it. */
export function shownScript(text: string, scripts: ScriptText): string {
  if (scripts === "whole") return text;
  if (scripts === "withheld") return text === "" ? "" : SECRET_MASK;
  return maskRawCommand(text);
}

/** Whether a physical line continues on the next (an odd number of trailing backslashes). */
function continues(line: string): boolean {
  return /(^|[^\\])(\\\\)*\\$/.test(line);
}

/**
 * Export text (lines joined by `\n`) with every secret value in its
 * commands masked, and the scripts in them as `scripts` says (no `whole`:
 * the secrets are masked either way).
 */
export function maskExportSecrets(text: string, scripts: ScriptText = "masked"): string {
  const options = { scripts: scripts === "withheld" };
  const lines = text.split("\n");
  const out: string[] = [];
  let section = "";
  for (let i = 0; i < lines.length;) {
    const group = [lines[i]];
    while (continues(group.at(-1)!.replace(/\r$/, "")) && i + group.length < lines.length) {
      group.push(lines[i + group.length]);
    }
    i += group.length;
    const cr = group.at(-1)!.endsWith("\r") ? "\r" : "";
    const command = group.map((l, n) => {
      const piece = l.replace(/\r$/, "");
      const body = n === 0 ? piece : piece.replace(/^\s+/, "");
      return n < group.length - 1 ? body.slice(0, -1) : body;
    }).join("");
    const trimmed = command.trim();
    if (trimmed === "" || trimmed.startsWith("#")) {
      out.push(...group);
      continue;
    }
    // A section line (`/ip dhcp-server`) names the menu of the commands after it.
    if (
      trimmed.startsWith("/") &&
      !/\s(add|set|remove|unset|enable|disable|move)(\s|$)|=/.test(trimmed)
    ) {
      section = trimmed;
      out.push(...group);
      continue;
    }
    const prefix = trimmed.startsWith("/") || section === "" ? "" : `${section} `;
    const masked = maskRawCommand(prefix + command, options).slice(prefix.length);
    if (masked === command) out.push(...group);
    else out.push(masked + cr);
  }
  return out.join("\n");
}

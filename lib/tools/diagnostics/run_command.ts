/**
 * `router_run_command` (in the catalogue only with `--allow-raw-commands`):
 * raw console text, sent as written. Destructive: it needs `confirm`. The
 * values of secret arguments in the text (`password=...`) are masked in its
 * dry run, errors and audit lines. Without `--reveal-secrets`, text that
 * would show the router's secrets by its shape (`show-sensitive`, a `get`
 * or `print` of a secret property, a filter on one) is refused, and every
 * secret `name=value` in the output is masked.
 *
 * @module
 */
import * as z from "zod";
import { raiseIfError } from "../../routeros/values.ts";
import { maskRawOutput, rawRevealsSecrets } from "../../routeros/raw_reveal.ts";
import { defineTool } from "../define.ts";
import { checkRawCommand } from "./command_check.ts";
import { MAX_TEXT } from "../menu_tools/fields.ts";
import { DESTRUCTIVE } from "../tool.ts";

/** `router_run_command`. */
export const runCommand = defineTool({
  name: "router_run_command",
  title: "Run a raw RouterOS command (DANGEROUS)",
  description:
    "DANGER: sends the given text to the router as a RouterOS console command, exactly as written, " +
    "with full privileges of the SSH user. Nothing is quoted or undone: it can change or destroy " +
    "any configuration, reboot the router or cut off access. Use only when no dedicated router_* " +
    "tool does the job, prefer router_print for reads, and show the command to a person before " +
    "running it. Returns the raw output text.",
  toolset: "diagnostics",
  core: true,
  input: {
    command: z.string().min(1).max(MAX_TEXT).describe(
      "The RouterOS command, e.g. `/ip address print terse`; its menus, commands and argument names are checked against the router's own menu tree first",
    ),
  },
  output: { output: z.string().describe("What the router printed") },
  annotations: { ...DESTRUCTIVE, openWorldHint: true },
  role: "admin",
  optIn: "raw-commands",
  perDevice: true,
  rawCommandArgs: ["command"],
  revealsSecrets: (args) => rawRevealsSecrets(args.command) ?? false,
  example: { command: ":put [/system identity get name]" },
  async handler(args, ctx) {
    await checkRawCommand(ctx.client, args.command);
    const output = await ctx.client.exec(args.command, { idempotent: false, what: "raw command" });
    raiseIfError(output);
    const shown = ctx.revealSecrets ? output : maskRawOutput(output);
    return { structured: { output: shown }, text: shown === "" ? "(no output)" : shown };
  },
  async dryRun(args, ctx) {
    const problems = [
      "its effect is unknown until it runs: only its menus, commands and argument names were checked",
    ];
    await checkRawCommand(ctx.client, args.command).catch((err: Error) =>
      problems.push(err.message)
    );
    return { commands: [args.command], preview: {}, problems };
  },
});

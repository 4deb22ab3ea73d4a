/**
 * Files, backups and exports: create and list backups, export the
 * configuration (whole, or one section whose menu has `export`; secrets
 * hidden unless the operator allows them), and read small text files.
 * Transfers of whole files are in `file_transfer.ts`.
 *
 * @module
 */
import { maskExportSecrets } from "../../routeros/export_secrets.ts";
import { isKeyFile, maskFileText } from "../../routeros/file_secrets.ts";
import * as z from "zod";
import { cmd, findExpr, getExpr } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, RouterOsError, UnsupportedError } from "../../routeros/errors.ts";
import {
  checkMenuPath,
  FILE_NAME_PATTERN,
  FILE_NAME_RULE,
  MAX_FILE_NAME,
} from "../../routeros/quote.ts";
import {
  declarationOn,
  exportsOn,
  type MenuSchema,
  readSpecOf,
} from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { Script } from "../../routeros/script.ts";
import { expectOnly } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { itemObject } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, WRITE } from "../tool.ts";

/** A file of `/file` as tools return it. */
export const FILE = itemObject(files);
/** The columns of a file in text results. */
export const COLUMNS = ["id", "name", "type", "size", "last_modified", "creation_time"];

/** A file name of the router's storage: folders allowed, checked by the one allow-list. */
export const FILE_NAME = z.string().min(1).max(MAX_FILE_NAME).regex(
  FILE_NAME_PATTERN,
  FILE_NAME_RULE,
);

/** The file `name` of `/file` as tools return it, or undefined when there is none. */
export async function fileByName(ctx: ToolContext, dialect: Dialect, name: string) {
  const [raw] = await ctx.client.read(readSpecOf(files, dialect.release), [
    { key: "name", value: name },
  ]);
  return raw ? toItem(files, dialect.release, raw) : undefined;
}

function fileResult(item: Record<string, unknown>) {
  return { structured: { item }, text: renderTable([item], COLUMNS) };
}

// ---- backups

const BACKUP_NAME = z.string().regex(
  /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
  "1-64 letters, digits, '.', '_' or '-'",
);

function defaultBackupName(): string {
  const t = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `mcp-${t}`;
}

/** `/system backup save` prints these on success. */
const SAVE_LINES = [/^Saving system configuration$/, /^Configuration backup saved$/];

function backupScript(dialect: Dialect, name: string, password: string | undefined) {
  const script = new Script(dialect);
  const saved = script.lines(cmd("/system/backup", "save", {
    args: password === undefined ? { name, "dont-encrypt": true } : { name, password },
  }));
  const file = script.read(readSpecOf(files, dialect.release), [{
    key: "name",
    value: `${name}.backup`,
  }]);
  return { script, saved, file };
}

/** `router_create_backup`. */
export const createBackup = defineTool({
  name: "router_create_backup",
  title: "Create a backup",
  description:
    "Save a binary system backup (/system backup save) to the router's storage as NAME.backup, " +
    "unencrypted unless a password is given. Refuses to overwrite an existing backup. A binary " +
    "backup restores only onto the same hardware; use router_export_config for a readable copy.",
  toolset: "files",
  input: {
    name: BACKUP_NAME.optional().describe(
      "Backup name without .backup (default mcp-YYYYMMDD-HHMMSS)",
    ),
    password: z.string().min(1).max(255).optional().describe(
      "Encrypt the backup with this password",
    ),
  },
  output: { item: FILE },
  annotations: WRITE,
  perDevice: true,
  secretArgs: ["password"],
  example: { name: "mcp-example" },
  async handler(args, ctx) {
    const name = args.name ?? defaultBackupName();
    const dialect = await ctx.client.dialect();
    if (await fileByName(ctx, dialect, `${name}.backup`)) {
      throw new RouterOsError(
        "already-exists",
        `${name}.backup already exists; choose another name`,
        "",
      );
    }
    const { script, saved, file } = backupScript(dialect, name, args.password);
    const out = await ctx.client.run(script, { idempotent: false, what: "/system/backup" });
    expectOnly(out.get(saved).join("\n"), SAVE_LINES);
    const [raw] = out.get(file).items;
    if (!raw) throw new RouterOsError("failure", `the backup ${name}.backup was not created`, "");
    return fileResult(toItem(files, dialect.release, raw));
  },
  async dryRun(args, ctx) {
    const name = args.name ?? defaultBackupName();
    const dialect = await ctx.client.dialect();
    const problems = (await fileByName(ctx, dialect, `${name}.backup`))
      ? [`${name}.backup already exists`]
      : [];
    return {
      commands: [backupScript(dialect, name, args.password).script.toString()],
      preview: { name: `${name}.backup`, type: "backup" },
      problems,
    };
  },
});

/** `router_list_backups`. */
export const listBackups = defineTool({
  name: "router_list_backups",
  title: "List backups",
  description:
    "List the binary backup files (.backup) in the router's storage, with size and date.",
  toolset: "files",
  input: {},
  output: { items: z.array(FILE), count: z.number() },
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const dialect = await ctx.client.dialect();
    const items = (await ctx.client.read(readSpecOf(files, dialect.release), [
      { key: "type", value: "backup" },
    ])).map((r) => toItem(files, dialect.release, r));
    return { structured: { items, count: items.length }, text: renderTable(items, COLUMNS) };
  },
});

// ---- export

/**
 * `router_export_config` over the sections of `menus` that have `export`
 * on some release; a release whose menu lacks it is told so by name.
 * Secrets stay on the router unless the operator started the server with
 * `--reveal-secrets` (the guard chain enforces it through `revealsSecrets`),
 * and so do the passwords written in scripts, which RouterOS exports whole.
 */
export function exportTool(menus: readonly MenuSchema[]) {
  const byPath = new Map<string, MenuSchema[]>();
  for (const m of menus) {
    if (m.exports === false || m.path.startsWith("/file")) continue;
    byPath.set(m.path, [...(byPath.get(m.path) ?? []), m]);
  }
  const sections = [...byPath.keys()].sort();
  for (const s of sections) checkMenuPath(s);
  return defineTool({
    name: "router_export_config",
    title: "Export the configuration",
    description:
      "Export the configuration as a RouterOS script (/export): everything, or one section such " +
      "as /ip/firewall/filter. Compact by default (only what differs from defaults); `verbose` " +
      "adds defaults; `terse` prints one full command per line. Passwords and keys are hidden; " +
      "show_sensitive shows them only when the operator started the server with --reveal-secrets.",
    toolset: "files",
    input: {
      section: z.enum(sections as [string, ...string[]]).optional().describe(
        "Export only this menu, e.g. /ip/firewall/filter (default: everything)",
      ),
      verbose: z.boolean().optional().describe("Include default values"),
      terse: z.boolean().optional().describe("One unwrapped line per command, with full paths"),
      show_sensitive: z.boolean().optional().describe(
        "Include passwords, keys and other secrets (needs --reveal-secrets)",
      ),
    },
    output: {
      config: z.string().describe("The export script"),
      section: z.string().optional(),
      show_sensitive: z.boolean(),
    },
    annotations: READ,
    perDevice: true,
    example: { section: "/ip/address" },
    revealsSecrets: (args) => args.show_sensitive === true,
    async handler(args, ctx) {
      const dialect = await ctx.client.dialect();
      const section = args.section;
      const menu = section === undefined
        ? undefined
        : declarationOn(byPath.get(section) ?? [], dialect.release);
      if (menu && !exportsOn(menu, dialect.release)) {
        throw new UnsupportedError(
          `${section} has no export command on RouterOS ${dialect.release.text}`,
        );
      }
      const show = args.show_sensitive === true;
      // RouterOS 6 shows secrets unless told hide-sensitive; 7 hides them unless show-sensitive.
      const switches = [
        ...(args.terse ? ["terse"] : []),
        ...(args.verbose ? ["verbose"] : []),
        ...(dialect.major < 7
          ? (show ? [] : ["hide-sensitive"])
          : (show ? ["show-sensitive"] : [])),
      ];
      const script = new Script(dialect);
      const exported = script.lines(
        cmd(section ?? "/", "export", { switches }),
      );
      const out = await ctx.client.run(script, { idempotent: true, what: section ?? "/export" });
      // Scripts are exported whole: the passwords written in them are masked unless asked for.
      const text = out.get(exported).join("\n") + "\n";
      // --reveal-secrets alone does not show them: show_sensitive asks for it.
      const config = show
        ? text
        : maskExportSecrets(text, ctx.scriptText === "whole" ? "masked" : ctx.scriptText);
      return {
        structured: { config, ...(section ? { section } : {}), show_sensitive: show },
        text: config,
      };
    },
  });
}

// ---- files

function readFileScript(dialect: Dialect, name: string) {
  const script = new Script(dialect);
  const item = script.read(readSpecOf(files, dialect.release), [{ key: "name", value: name }]);
  const contents = script.text(
    getExpr("/file", "contents", findExpr("/file", [{ key: "name", value: name }])),
  );
  return { script, item, contents };
}

/** `router_read_file`. */
export const readFile = defineTool({
  name: "router_read_file",
  title: "Read a text file",
  description:
    "Read a small text file from the router's storage (scripts, exports, notes). RouterOS returns " +
    "at most about 4 KiB of contents on older releases; `truncated` says when the file is larger " +
    "than what came back. Binary backups and packages are refused, and so is a private key's " +
    "file (.key, .p12, .pfx). Secrets written in it (password=..., PEM private keys) are masked " +
    "unless the server runs with --reveal-secrets.",
  toolset: "files",
  input: { name: FILE_NAME.describe("File name, e.g. notes.txt or flash/export.rsc") },
  output: {
    item: FILE,
    contents: z.string(),
    truncated: z.boolean().describe("The file is larger than the contents returned"),
  },
  annotations: READ,
  example: { name: "mcp-example.txt" },
  perDevice: true,
  revealsSecrets: (args) =>
    isKeyFile(args.name) &&
    `would show a private key: ${args.name} is a key file (.key, .p12, .pfx), a secret whole`,
  async handler(args, ctx) {
    if (/\.(backup|npk)$/i.test(args.name)) {
      throw new ArgumentError(`${args.name} is a binary file; it cannot be read as text`, "name");
    }
    const dialect = await ctx.client.dialect();
    const { script, item, contents } = readFileScript(dialect, args.name);
    const out = await ctx.client.run(script, { idempotent: true, what: "/file" }).catch((err) => {
      // `get` of a file that is not there: `no such item`.
      if (err instanceof RouterOsError && err.kind === "not-found") {
        throw new RouterOsError("not-found", `no file ${args.name}`, err.routerMessage);
      }
      throw err;
    });
    const [raw] = out.get(item).items;
    if (!raw) throw new RouterOsError("not-found", `no file ${args.name}`, "no such item");
    const file = toItem(files, dialect.release, raw);
    const text = out.get(contents);
    const size = typeof file.size === "number" ? file.size : undefined;
    const truncated = size !== undefined && new TextEncoder().encode(text).length < size;
    // An export or script file (an .rsc) may hold secrets, a certificate file a private key.
    const shown = maskFileText(args.name, text, ctx.scriptText);
    return { structured: { item: file, contents: shown, truncated }, text: shown };
  },
});

/**
 * Files, backups and exports: create and list backups, export the
 * configuration (whole, or one allow-listed section; secrets hidden unless
 * asked), and read, upload and remove small files.
 *
 * @module
 */
import * as z from "zod";
import type { RouterOsClient } from "../../routeros/client.ts";
import { SECTION_MARK } from "../../routeros/client.ts";
import { menuPath, renderArgs } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { jsonItems, outputError } from "../../routeros/parse_json.ts";
import { putJson, unguard } from "../../routeros/serialize.ts";
import { checkMenuPath, quoteValue } from "../../routeros/quote.ts";
import { outputLines, raiseIfError } from "../../routeros/records.ts";
import { num, text } from "../fields.ts";
import { printStatement } from "../../routeros/scripts.ts";
import type { Menu } from "../menu.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";
import {
  itemSchema,
  planned,
  readView,
  typed,
  view,
  viewSection,
  viewSpec,
  WRITE,
} from "./views.ts";

/** Files in the router's storage. */
export const fileView = view("/file", "files", "files", {
  name: text("File name, with folder (flash/backup.backup)"),
  type: text("File type: backup, script, directory, .txt file, ..."),
  size: num("Size in bytes"),
  "creation-time": text("When the file was created"),
  "last-modified": text("When the file was last changed (RouterOS 7)"),
}, { columns: ["name", "type", "size", "creation-time"] });

const FILE = itemSchema(fileView);
const COLUMNS = ["id", "name", "type", "size", "creation_time"];

/** File names: folders allowed, no `..`, no control characters. */
const FILE_NAME = z.string().min(1).max(255).regex(
  /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9 ._/+-]*$/,
  "a file name such as notes.txt or flash/notes.txt (letters, digits, . _ - + / and spaces; no ..)",
);

/** Largest file upload, in bytes. */
export const MAX_UPLOAD = 4096;

/** The read `fileByName` sends (a write's pre-check, listed in its dry run). */
function fileRead(dialect: Dialect, name: string): string {
  return printStatement(dialect, fileView.path, { filters: [{ key: "name", value: name }] });
}

async function fileByName(client: RouterOsClient, name: string) {
  const [file] = await readView(client, fileView, [{ key: "name", value: name }]);
  return file;
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

function backupScript(dialect: Dialect, name: string, password: string | undefined): string {
  const save = `/system backup save ${
    renderArgs(password === undefined ? { name, "dont-encrypt": true } : { name, password })
  }`;
  return `${save}; ${viewSection(dialect, fileView, [{ key: "name", value: `${name}.backup` }])}`;
}

const SAVE_LINES = [/^Saving system configuration$/, /^Configuration backup saved$/];

/** `router_create_backup`. */
export const createBackup: ToolDef = {
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
  async handler(args, { client }) {
    const name = (args.name as string | undefined) ?? defaultBackupName();
    if (await fileByName(client, `${name}.backup`)) {
      throw new RouterOsError(
        "already-exists",
        `${name}.backup already exists; choose another name`,
        "",
      );
    }
    const dialect = await client.dialect();
    const output = await client.run(
      backupScript(dialect, name, args.password as string | undefined),
      "/system/backup",
      false,
    );
    const kept = outputLines(output).filter((l) => !SAVE_LINES.some((re) => re.test(l.trim())));
    raiseIfError(kept.join("\n"));
    const body = dialect.json ? kept.join("\n") : kept.filter((l) => l !== SECTION_MARK).join("\n");
    if (!dialect.json && kept[kept.length - 1] !== SECTION_MARK) throw outputError(output);
    const [item] = typed(fileView, dialect, client.parseRead(dialect, viewSpec(fileView), body));
    if (!item) throw new RouterOsError("failure", `the backup ${name}.backup was not created`, "");
    return fileResult(item);
  },
  async dryRun(args, { client }) {
    const name = (args.name as string | undefined) ?? defaultBackupName();
    const dialect = await client.dialect();
    const problems = (await fileByName(client, `${name}.backup`))
      ? [`${name}.backup already exists`]
      : [];
    const script = backupScript(dialect, name, args.password as string | undefined);
    return planned([fileRead(dialect, `${name}.backup`), script], {
      name: `${name}.backup`,
      type: "backup",
    }, problems);
  },
};

/** `router_list_backups`. */
export const listBackups: ToolDef = {
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
  async handler(_args, { client }) {
    const items = await readView(client, fileView, [{ key: "type", value: "backup" }]);
    return { structured: { items, count: items.length }, text: renderTable(items, COLUMNS) };
  },
};

// ---- export

/** Build `router_export_config` with sections from these menus and paths. */
export function exportTool(menus: readonly Menu[], extraPaths: readonly string[]): ToolDef {
  const sections = [...new Set([...menus.map((m) => m.path), ...extraPaths])]
    .filter((p) => !p.startsWith("/log") && !p.startsWith("/file") && !p.includes("/active"))
    .sort();
  for (const s of sections) checkMenuPath(s);
  return {
    name: "router_export_config",
    title: "Export the configuration",
    description:
      "Export the configuration as a RouterOS script (/export): the whole configuration or one " +
      "section such as /ip/firewall/filter. Compact by default (only what differs from defaults); " +
      "`verbose` includes defaults; `terse` prints one full command per line. Passwords and keys " +
      "are hidden unless show_sensitive is true.",
    toolset: "files",
    input: {
      section: z.enum(sections as [string, ...string[]]).optional().describe(
        "Export only this menu, e.g. /ip/firewall/filter (default: everything)",
      ),
      verbose: z.boolean().default(false).describe("Include default values"),
      terse: z.boolean().default(false).describe("One unwrapped line per command, with full paths"),
      show_sensitive: z.boolean().default(false).describe(
        "Include passwords, keys and other secrets (off by default)",
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
    async handler(args, { client }) {
      const dialect = await client.dialect();
      const section = args.section as string | undefined;
      if (section !== undefined && !sections.includes(section)) {
        throw new RouterOsError("invalid-value", `section ${section} is not allowed`, "");
      }
      const show = args.show_sensitive === true;
      const switches = [
        ...(args.terse === true ? ["terse"] : []),
        ...(args.verbose === true ? ["verbose"] : []),
        ...(dialect.major < 7
          ? (show ? [] : ["hide-sensitive"])
          : (show ? ["show-sensitive"] : [])),
      ];
      const command = `${section === undefined ? "" : menuPath(section)} export${
        switches.map((s) => " " + s).join("")
      }`.replace(/^ export/, "/export");
      const output = await client.run(command, section ?? "/export", true);
      raiseIfError(output);
      const config = output.replace(/\r\n/g, "\n");
      return {
        structured: { config, ...(section ? { section } : {}), show_sensitive: show },
        text: config,
      };
    },
  };
}

// ---- files

function readFileScript(dialect: Dialect, name: string): string {
  const find = `[${menuPath("/file")} find where name=${quoteValue(name)}]`;
  const read = viewSection(dialect, fileView, [{ key: "name", value: name }]);
  return dialect.json
    ? `${read}; ${putJson(dialect, `[${menuPath("/file")} get ${find} contents]`, "text")}`
    : `${read}; :put [${menuPath("/file")} get ${find} contents]`;
}

/** `router_read_file`. */
export const readFile: ToolDef = {
  name: "router_read_file",
  title: "Read a text file",
  description:
    "Read a small text file from the router's storage (scripts, exports, notes). RouterOS returns " +
    "at most about 4 KiB of contents on older versions; `truncated` says when the file is larger " +
    "than what came back. Binary backups and packages are refused.",
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
  async handler(args, { client }) {
    const name = String(args.name);
    if (/\.(backup|npk)$/i.test(name)) {
      throw new RouterOsError(
        "invalid-value",
        `${name} is a binary file; it cannot be read as text`,
        "",
      );
    }
    const dialect = await client.dialect();
    const output = await client.run(readFileScript(dialect, name), "/file", true);
    let itemRaw;
    let contents: string;
    if (dialect.json) {
      const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
      const first = lines.findIndex((l) => l.trim() !== "");
      if (first < 0) throw outputError(output);
      [itemRaw] = jsonItems(dialect, lines[first]);
      if (!itemRaw) throw new RouterOsError("not-found", `no file ${name}`, "no such item");
      const rest = lines.slice(first + 1).join("\n").trim();
      try {
        const parsed = JSON.parse(rest);
        contents = String(dialect.read === "json-guarded" ? unguard(parsed) : parsed);
      } catch {
        throw outputError(rest);
      }
    } else {
      const at = output.indexOf(SECTION_MARK);
      if (at < 0) throw outputError(output);
      [itemRaw] = client.parseRead(dialect, viewSpec(fileView), output.slice(0, at));
      if (!itemRaw) throw new RouterOsError("not-found", `no file ${name}`, "no such item");
      contents = output.slice(at + SECTION_MARK.length).replace(/^\r?\n/, "").replace(/\r?\n$/, "")
        .replace(/\r\n/g, "\n");
    }
    const [item] = typed(fileView, dialect, [itemRaw]);
    const size = typeof item.size === "number" ? item.size : undefined;
    const truncated = size !== undefined && new TextEncoder().encode(contents).length < size;
    return { structured: { item, contents, truncated }, text: contents };
  },
};

function uploadScript(dialect: Dialect, name: string, contents: string, exists: boolean): string {
  const read = viewSection(dialect, fileView, [{ key: "name", value: name }]);
  const set = `${menuPath("/file")} set [find where name=${quoteValue(name)}] contents=${
    quoteValue(contents)
  }`;
  if (exists) return `${set}; ${read}`;
  if (dialect.json) {
    return `${menuPath("/file")} add ${renderArgs({ name, contents })}; ${read}`;
  }
  // Older versions create a file with `print file=` (which appends .txt), then set its contents.
  const base = name.replace(/\.txt$/, "");
  return `${menuPath("/file")} print file=${
    quoteValue(base)
  } where name=""; :delay 1s; ${set}; ${read}`;
}

async function uploadPlan(client: RouterOsClient, args: Record<string, unknown>) {
  const name = String(args.name);
  const contents = String(args.contents);
  if (new TextEncoder().encode(contents).length > MAX_UPLOAD) {
    throw new RouterOsError("invalid-value", `contents: at most ${MAX_UPLOAD} bytes`, "");
  }
  const dialect = await client.dialect();
  if (!dialect.json && !name.endsWith(".txt")) {
    throw new RouterOsError(
      "invalid-value",
      `RouterOS ${dialect.version} can only create .txt files from the console; name the file ${name}.txt`,
      "",
    );
  }
  const existing = await fileByName(client, name);
  const problems = existing && args.overwrite !== true
    ? [`${name} already exists; set overwrite to replace it`]
    : [];
  return {
    dialect,
    name,
    contents,
    existing,
    problems,
    script: uploadScript(dialect, name, contents, !!existing),
  };
}

/** `router_upload_file`. */
export const uploadFile: ToolDef = {
  name: "router_upload_file",
  title: "Upload a small text file",
  description:
    `Create a text file in the router's storage with the given contents (at most ${MAX_UPLOAD} ` +
    "bytes), e.g. a script to import later. Refuses to replace an existing file unless overwrite " +
    "is true. RouterOS before 7.13 can only create .txt files this way.",
  toolset: "files",
  input: {
    name: FILE_NAME.describe("File name, e.g. notes.txt"),
    contents: z.string().max(MAX_UPLOAD).describe(
      `File contents (text, at most ${MAX_UPLOAD} bytes)`,
    ),
    overwrite: z.boolean().default(false).describe("Replace the file if it exists"),
  },
  output: { item: FILE },
  annotations: WRITE,
  perDevice: true,
  example: { name: "mcp-example.txt", contents: "hello from mcp\n" },
  async handler(args, { client }) {
    const plan = await uploadPlan(client, args);
    if (plan.problems.length) throw new RouterOsError("already-exists", plan.problems[0], "");
    const [items] = await client.write(plan.dialect, viewSpec(fileView), plan.script, 1);
    if (items.length !== 1) throw new RouterOsError("failure", `${plan.name} was not created`, "");
    return fileResult(typed(fileView, plan.dialect, items)[0]);
  },
  async dryRun(args, { client }) {
    const plan = await uploadPlan(client, args);
    return planned([fileRead(plan.dialect, plan.name), plan.script], {
      ...(plan.existing ?? {}),
      name: plan.name,
      size: new TextEncoder().encode(plan.contents).length,
    }, plan.problems);
  },
};

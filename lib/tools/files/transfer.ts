/**
 * Whole files both ways between the router's storage and the server's files
 * directory (`--files-dir`, see `local_files.ts`), over SFTP: any size up
 * to {@linkcode MAX_TRANSFER}, binary included, streamed (never whole in
 * memory), with paced progress notifications and the SHA-256 of what was
 * sent or received. An upload is checked after transfer: the size SFTP
 * reports must match, and by default the file is read back and its SHA-256
 * compared (RouterOS has no console command that hashes a file on any
 * release: the 7.12.2 to 7.24 trees' `/file` has add, copy, get, print,
 * read, remove, set and no checksum). A failed or mismatched upload is
 * removed from the router. A short text can still go through the console
 * (`contents`), which needs no SFTP (`ftp` policy).
 *
 * @module
 */
import * as z from "zod";
import { cmd } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, RouterOsError, UnsupportedError } from "../../routeros/errors.ts";
import { inRange } from "../../routeros/release.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { Script } from "../../routeros/script.ts";
import { SshError } from "../../ssh/errors.ts";
import { defineTool } from "../define.ts";
import { FilesDir, relativeOrWhy, relativePath } from "./local_files.ts";
import { toItem } from "../menu_tools/fields.ts";
import type { ToolContext } from "../tool.ts";
import { WRITE } from "../tool.ts";
import { hashedChunks, ProgressPacer, Sha256 } from "./transfer_meter.ts";
import { COLUMNS, FILE, FILE_NAME, fileByName } from "./backup_export.ts";
import { refuseRevertFileWrite } from "../changes/revert_files.ts";
import { renderTable } from "../render.ts";

/** Largest file moved either way, in bytes (1 GiB: packages, container images, backups). */
export const MAX_TRANSFER = 1024 ** 3;

/** Largest text sent through the console (`contents`), in bytes. */
export const MAX_UPLOAD = 4096;

/** Releases whose `/file` takes `add` (the 7.12.2 tree has it; RouterOS 6 does not). */
const FILE_ADD = { from: "7.12" };

/** A path inside the files directory, checked before anything runs. */
const LOCAL_PATH = z.string().max(1024).superRefine((path, ctx) => {
  const r = relativeOrWhy(path);
  if ("why" in r) ctx.addIssue({ code: "custom", message: r.why });
});

function filesDir(ctx: ToolContext): FilesDir {
  if (!ctx.filesDir) {
    throw new ArgumentError("this server has no files directory; start it with --files-dir");
  }
  return new FilesDir(ctx.filesDir);
}

function seconds(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}

/** Remove `name` from the router after a failed upload; whether it is gone. */
async function removeFromRouter(ctx: ToolContext, name: string): Promise<boolean> {
  try {
    const script = await ctx.client.script();
    script.do(cmd("/file", "remove", { find: [{ key: "name", value: name }] }));
    await ctx.client.run(script, { idempotent: false, what: "/file" });
    return true;
  } catch {
    return false;
  }
}

/** The item of `name` after a write, or a bare one when the router does not list it yet. */
async function itemAfter(ctx: ToolContext, dialect: Dialect, name: string, bytes: number) {
  return await fileByName(ctx, dialect, name) ?? { id: "", name, size: bytes };
}

// ---- upload: through the console (contents)

/**
 * The console upload script. `/file add name= contents=` is in every
 * RouterOS 7 tree from 7.12.2 on; RouterOS 6 has no `/file add`, so a file
 * is made there with `print file=` (which appends .txt) and then given its
 * contents.
 */
function consoleScript(dialect: Dialect, name: string, contents: string, exists: boolean) {
  const script = new Script(dialect);
  const set = cmd("/file", "set", { numbers: { key: "name", value: name }, args: { contents } });
  if (exists) script.do(set);
  else if (inRange(dialect.release, FILE_ADD)) {
    script.do(cmd("/file", "add", { args: { name, contents } }));
  } else {
    script.do(cmd("/file", "print", {
      args: { file: name.replace(/\.txt$/, "") },
      where: [{ key: "name", value: "" }],
    }));
    script.do(":delay 1s");
    script.do(set);
  }
  const item = script.read(readSpecOf(files, dialect.release), [{ key: "name", value: name }]);
  return { script, item };
}

interface UploadArgs {
  name: string;
  local_path?: string;
  contents?: string;
  overwrite?: boolean;
  verify?: boolean;
}

/** What an upload will do, found with reads only. */
async function uploadPlan(args: UploadArgs, ctx: ToolContext) {
  if ((args.local_path === undefined) === (args.contents === undefined)) {
    throw new ArgumentError(
      "give local_path (a file to send) or contents (a short text), not both",
    );
  }
  // The backup a pending import's revert loads is not replaced.
  await refuseRevertFileWrite("router_upload_file", "replace", () => [args.name], ctx);
  const dialect = await ctx.client.dialect();
  const existing = await fileByName(ctx, dialect, args.name);
  const problems = existing && args.overwrite !== true
    ? [`${args.name} already exists; set overwrite to replace it`]
    : [];
  if (existing?.type === "directory") problems.push(`${args.name} is a folder`);
  if (args.contents !== undefined) {
    const size = new TextEncoder().encode(args.contents).length;
    if (size > MAX_UPLOAD) throw new ArgumentError(`at most ${MAX_UPLOAD} bytes`, "contents");
    if (!inRange(dialect.release, FILE_ADD) && !args.name.endsWith(".txt")) {
      throw new UnsupportedError(
        `RouterOS ${dialect.release.text} can only create .txt files from the console; ` +
          `name the file ${args.name}.txt or send it with local_path`,
      );
    }
    const sent = consoleScript(dialect, args.name, args.contents, !!existing);
    return {
      dialect,
      existing,
      problems,
      size,
      commands: [sent.script.toString()],
      console: sent,
    };
  }
  const size = await filesDir(ctx).size(args.local_path!);
  if (size > MAX_TRANSFER) {
    throw new ArgumentError(`${size} bytes is over the ${MAX_TRANSFER}-byte limit`, "local_path");
  }
  return {
    dialect,
    existing,
    problems,
    size,
    commands: [`sftp put /${args.name} (${size} bytes)`],
  };
}

const UPLOAD_OUTPUT = {
  item: FILE,
  bytes: z.number(),
  sha256: z.string().describe("Of the bytes sent"),
  seconds: z.number(),
  verified: z.enum(["sha256", "size", "none"]).describe(
    "How the router's copy was checked: read back and hashed, its size, or not at all",
  ),
};

/** Send `local_path` over SFTP, check it, and remove it from the router when it fails. */
async function sendFile(
  args: UploadArgs,
  ctx: ToolContext,
  plan: Awaited<ReturnType<typeof uploadPlan>>,
) {
  const started = performance.now();
  const verify = args.verify !== false;
  const { file, size } = await filesDir(ctx).open(args.local_path!);
  const hash = new Sha256();
  const pacer = new ProgressPacer(ctx.progress, verify ? 2 * size : size);
  let sent;
  try {
    sent = await ctx.client.upload(args.name, hashedChunks(file.readable, hash), {
      size,
      onProgress: (done) => pacer.report(done, `uploading ${args.name}`),
      signal: ctx.signal,
    }).finally(() => {
      try {
        file.close();
      } catch { /* the stream closed it */ }
    });
  } catch (err) {
    // Refused before a byte was written (no channel, no such folder): nothing to remove.
    if (err instanceof SshError && !err.outcomeUnknown) throw err;
    throw await cleanUp(ctx, args.name, err);
  }
  const sha256 = hash.hex();
  let problem = sent.bytes !== size
    ? `${args.local_path} changed while it was sent (${sent.bytes} bytes, not ${size})`
    : sent.remoteSize !== size
    ? `the router stored ${sent.remoteSize} bytes of the ${size} sent`
    : undefined;
  if (!problem && verify) {
    const back = new Sha256();
    try {
      await ctx.client.download(args.name, (chunk) => Promise.resolve(back.update(chunk)), {
        maxBytes: size,
        onProgress: (done) => pacer.report(size + done, `verifying ${args.name}`),
        signal: ctx.signal,
      });
    } catch (err) {
      throw await cleanUp(ctx, args.name, err);
    }
    const theirs = back.hex();
    if (theirs !== sha256) problem = `its SHA-256 on the router is ${theirs}, not ${sha256}`;
  }
  if (problem) throw await cleanUp(ctx, args.name, new Error(problem));
  const item = await itemAfter(ctx, plan.dialect, args.name, size);
  return {
    item,
    bytes: size,
    sha256,
    seconds: seconds(started),
    verified: verify ? "sha256" as const : "size" as const,
  };
}

/** The error of a failed upload, after removing what it left on the router. */
async function cleanUp(ctx: ToolContext, name: string, err: unknown): Promise<Error> {
  const why = err instanceof Error ? err.message : String(err);
  if (err instanceof ArgumentError) return err;
  if (await removeFromRouter(ctx, name)) {
    return new RouterOsError(
      "failure",
      `uploading ${name} failed: ${why.replace(/\.$/, "")}; what reached the router was removed`,
      "",
    );
  }
  return new RouterOsError(
    "failure",
    `uploading ${name} failed: ${why.replace(/\.$/, "")}; part of it may remain on the router: ` +
      "check with router_list_files and remove it with router_remove_file",
    "",
  );
}

/** `router_upload_file`. */
export const uploadFile = defineTool({
  name: "router_upload_file",
  title: "Upload a file",
  description:
    "Put a file in the router's storage. local_path: a file in the server's files directory " +
    "(--files-dir), any type up to 1 GiB, sent over SFTP with progress, then read back and its " +
    "SHA-256 compared (verify: false checks the size only); a failed upload is removed. " +
    `contents: a short text (at most ${MAX_UPLOAD} bytes, e.g. a script) sent through the ` +
    "console; RouterOS 6 takes only .txt names that way. Give one of the two. Refuses to replace " +
    "an existing file unless overwrite is true.",
  toolset: "files",
  input: {
    name: FILE_NAME.describe("File name on the router, e.g. notes.txt or flash/fw.npk"),
    local_path: LOCAL_PATH.optional().describe(
      "File to send, relative to the files directory, e.g. images/fw.npk",
    ),
    contents: z.string().max(MAX_UPLOAD).optional().describe(
      `Or the text itself (at most ${MAX_UPLOAD} bytes)`,
    ),
    overwrite: z.boolean().optional().describe("Replace the file if it exists"),
    verify: z.boolean().optional().describe(
      "Read the upload back and compare SHA-256 (default true)",
    ),
  },
  output: UPLOAD_OUTPUT,
  annotations: WRITE,
  // An uploaded file can be run or installed (a script, a package).
  role: "admin",
  perDevice: true,
  example: { name: "mcp-example.txt", contents: "hello from mcp\n" },
  async handler(args, ctx) {
    const plan = await uploadPlan(args, ctx);
    if (plan.problems.length) throw new RouterOsError("already-exists", plan.problems[0], "");
    let result;
    if (plan.console) {
      const started = performance.now();
      const { script, item: read } = plan.console;
      const [raw] = (await ctx.client.run(script, { idempotent: false, what: "/file" }))
        .get(read).items;
      if (!raw) throw new RouterOsError("failure", `${args.name} was not created`, "");
      const item = toItem(files, plan.dialect.release, raw);
      const stored = typeof item.size === "number" ? item.size : undefined;
      if (stored !== undefined && stored !== plan.size) {
        throw new RouterOsError(
          "failure",
          `the router stored ${stored} bytes of the ${plan.size} sent for ${args.name}`,
          "",
        );
      }
      const hash = new Sha256();
      hash.update(new TextEncoder().encode(args.contents!));
      result = {
        item,
        bytes: plan.size,
        sha256: hash.hex(),
        seconds: seconds(started),
        verified: stored === undefined ? "none" as const : "size" as const,
      };
    } else result = await sendFile(args, ctx, plan);
    return {
      structured: result,
      text:
        `${renderTable([result.item], COLUMNS)}\n${result.bytes} bytes in ${result.seconds} s, ` +
        `sha256 ${result.sha256}, verified: ${result.verified}`,
    };
  },
  async dryRun(args, ctx) {
    const plan = await uploadPlan(args, ctx);
    return {
      commands: plan.commands,
      preview: {
        ...(plan.existing ?? {}),
        name: args.name,
        size: plan.size,
        ...(args.local_path === undefined ? {} : { local_path: args.local_path }),
      },
      problems: plan.problems,
    };
  },
});

// ---- download

/** `router_download_file`. */
export const downloadFile = defineTool({
  name: "router_download_file",
  title: "Download a file",
  description:
    "Copy a file of the router's storage (any type up to 1 GiB, e.g. a backup or a log) over " +
    "SFTP into the server's files directory (--files-dir), streamed with progress; reports its " +
    "size and SHA-256. Changes nothing on the router. Refuses to replace a local file unless " +
    "overwrite is true.",
  toolset: "files",
  input: {
    name: FILE_NAME.describe("File on the router, e.g. flash/before.backup"),
    local_path: LOCAL_PATH.optional().describe(
      "Where to save it, relative to the files directory (default: the file's name)",
    ),
    overwrite: z.boolean().optional().describe("Replace the local file if it exists"),
  },
  output: {
    name: z.string(),
    local_path: z.string().describe("Relative to the files directory"),
    bytes: z.number(),
    sha256: z.string(),
    seconds: z.number(),
  },
  annotations: WRITE,
  // It writes into --files-dir only; the router is read.
  localOnly: true,
  perDevice: true,
  example: { name: "mcp-example.txt", overwrite: true },
  async handler(args, ctx) {
    const started = performance.now();
    const localPath = args.local_path ?? args.name;
    const local = await filesDir(ctx).create(localPath, args.overwrite === true);
    const hash = new Sha256();
    const pacer = new ProgressPacer(ctx.progress);
    let bytes;
    try {
      ({ bytes } = await ctx.client.download(args.name, (chunk) => {
        hash.update(chunk);
        return local.write(chunk);
      }, {
        maxBytes: MAX_TRANSFER,
        onProgress: (done, total) => {
          if (total !== undefined) pacer.total = total;
          pacer.report(done, `downloading ${args.name}`);
        },
        signal: ctx.signal,
      }));
      await local.commit();
    } finally {
      await local.abort();
    }
    const result = {
      name: args.name,
      local_path: relativePath(localPath),
      bytes,
      sha256: hash.hex(),
      seconds: seconds(started),
    };
    return {
      structured: result,
      text: `${args.name} \u2192 ${result.local_path}: ${bytes} bytes in ${result.seconds} s, ` +
        `sha256 ${result.sha256}`,
    };
  },
  async dryRun(args, ctx) {
    const localPath = args.local_path ?? args.name;
    const dir = filesDir(ctx);
    const problems: string[] = [];
    if (!args.overwrite && await dir.exists(localPath)) {
      problems.push(`${localPath} already exists in the files directory; set overwrite`);
    }
    const dialect = await ctx.client.dialect();
    const item = await fileByName(ctx, dialect, args.name);
    if (!item) problems.push(`no file ${args.name} on the router`);
    else if (item.type === "directory") problems.push(`${args.name} is a folder`);
    return {
      commands: [],
      preview: { ...(item ?? { name: args.name }), local_path: localPath },
      problems,
    };
  },
});

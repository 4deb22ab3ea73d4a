/**
 * `router_import_script`: run an `.rsc` script with `/import` under
 * confirm-or-revert. Before anything changes: an export of the
 * configuration (secrets hidden) is kept as a local snapshot, the script is
 * put on the router (or named there), a binary backup is saved on the
 * router (encrypted with a one-time password), and a revert job is armed
 * that loads that backup at the deadline (the router restores it and
 * reboots) unless `router_commit_changes` disarms it, even when this server
 * is gone. The import runs with `verbose=yes`, which prints each line
 * before it runs: a failure is reported at its line with RouterOS's error,
 * and the router is reverted at once when anything of the script may have
 * run. A health check (a fresh login, the default route, ping targets)
 * follows a good import, and reverts it when it fails.
 *
 * The revert is the backup because an export shows no secrets: an inverse
 * computed from two exports cannot undo a changed password, a removed user
 * or a replaced key, and a verification by export cannot see them either.
 * See `lib/routeros/import_revert.ts` and docs/guards.md.
 *
 * @module
 */
import * as z from "zod";
import { cmd } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import {
  hasImportDryRun,
  importRevertScript,
  importStatement,
  revertBackupName,
} from "../../routeros/import_revert.ts";
import {
  type ImportOutcome,
  mayHaveApplied,
  parseImportOutput,
} from "../../routeros/import_output.ts";
import { FILE_NAME_PATTERN, FILE_NAME_RULE, MAX_FILE_NAME } from "../../routeros/quote.ts";
import { randomHex } from "../../routeros/random_hex.ts";
import { maskRawCommand } from "../../routeros/raw_secrets.ts";
import { inRange } from "../../routeros/release.ts";
import {
  addSeconds,
  armJobStatement,
  formatDate,
  formatTime,
  removeJobStatement,
  revertJobName,
  type RouterTime,
} from "../../routeros/scheduler.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { MENU_SCHEMAS } from "../../routeros/schema/registry.ts";
import { SshError } from "../../ssh/errors.ts";
import { defineTool } from "../define.ts";
import { noteOutcome } from "../errors.ts";
import { FilesDir, relativeOrWhy } from "../files/local_files.ts";
import { contentHash, SnapshotStore } from "../operations/snapshot_store.ts";
import { DESTRUCTIVE, type ToolContext } from "../tool.ts";
import {
  changesBetween,
  diffText,
  hiddenExport,
  removeFiles,
  revertImportNow,
  saveBackup,
  snapshotNote,
} from "./import_revert.ts";
import { defaultRoutes, defeatedJob, expectSilent, healthCheck, routerTime } from "./revert_job.ts";

/** Largest script given inline (`source`), in bytes. */
export const MAX_INLINE = 65536;
/** Largest script read from the files directory. */
export const MAX_SCRIPT = 1024 * 1024;
/** Scripts up to this size go through the console (`/file add contents=`); larger ones over SFTP. */
const CONSOLE_MAX = 4096;
/** `/file add` is in every RouterOS 7 tree from 7.12.2; RouterOS 6 has none. */
const FILE_ADD = { from: "7.12" };
/** Output lines a result carries at most. */
const MAX_OUTPUT_LINES = 100;
/** The menus this server knows: `/ip address` alone on a line only enters one. */
const MENUS: ReadonlySet<string> = new Set(MENU_SCHEMAS.map((m) => m.path));

/** Where the script comes from, once read. */
interface Source {
  /** The file `/import` reads on the router. */
  file: string;
  /** The script's text, when it is at hand (inline, local; a router file is not read). */
  text?: string;
  /** Put on the router by this call (and removed again after the import). */
  upload: boolean;
  bytes: number;
}

const LOCAL_PATH = z.string().max(1024).superRefine((path, ctx) => {
  const r = relativeOrWhy(path);
  if ("why" in r) ctx.addIssue({ code: "custom", message: r.why });
});

const ROUTER_FILE = z.string().min(1).max(MAX_FILE_NAME).regex(FILE_NAME_PATTERN, FILE_NAME_RULE);

interface Given {
  source?: string;
  local_path?: string;
  file?: string;
}

/** The script of a call: exactly one of `source`, `local_path`, `file`. */
async function sourceOf(args: Given, ctx: ToolContext, dialect: Dialect, id: string) {
  const given = (["source", "local_path", "file"] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new ArgumentError(
      "give one of source (the script's text), local_path (a script in the files directory) " +
        "or file (a script already on the router)",
    );
  }
  const name = `mcp-import-${id}.rsc`;
  if (args.source !== undefined) {
    const bytes = new TextEncoder().encode(args.source).length;
    if (bytes > MAX_INLINE) throw new ArgumentError(`at most ${MAX_INLINE} bytes`, "source");
    return { file: name, text: args.source, upload: true, bytes } satisfies Source;
  }
  if (args.local_path !== undefined) {
    if (!ctx.filesDir) {
      throw new ArgumentError("this server has no files directory; start it with --files-dir");
    }
    const { file, size } = await new FilesDir(ctx.filesDir).open(args.local_path);
    try {
      if (size > MAX_SCRIPT) {
        throw new ArgumentError(`${size} bytes is over the ${MAX_SCRIPT}-byte limit`, "local_path");
      }
      const raw = new Uint8Array(size);
      let at = 0;
      while (at < size) {
        const n = await file.read(raw.subarray(at));
        if (n === null) break;
        at += n;
      }
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(raw.subarray(0, at));
      } catch {
        throw new ArgumentError("is not a text (UTF-8) script", "local_path");
      }
      return { file: name, text, upload: true, bytes: at } satisfies Source;
    } finally {
      file.close();
    }
  }
  const [item] = await ctx.client.read(readSpecOf(files, dialect.release), [
    { key: "name", value: args.file! },
  ]);
  if (!item) {
    throw new ArgumentError(
      `no file ${args.file} on the router (router_list_files lists them)`,
      "file",
    );
  }
  return { file: args.file!, upload: false, bytes: Number(item.size ?? 0) } satisfies Source;
}

/** Whether the script goes through the console (small, and a release with `/file add`). */
function byConsole(dialect: Dialect, src: Source): boolean {
  return src.bytes <= CONSOLE_MAX && inRange(dialect.release, FILE_ADD);
}

/** The command an upload sends, as the audit and a dry run show it. */
function uploadCommand(dialect: Dialect, src: Source): string {
  return byConsole(dialect, src)
    ? cmd("/file", "add", { args: { name: src.file, contents: src.text ?? "" } })
    : `sftp put /${src.file} (${src.bytes} bytes)`;
}

/** Put the script on the router and check its size there. */
async function upload(ctx: ToolContext, dialect: Dialect, src: Source): Promise<void> {
  const bytes = new TextEncoder().encode(src.text ?? "");
  if (byConsole(dialect, src)) {
    const script = await ctx.client.script();
    script.do(cmd("/file", "add", { args: { name: src.file, contents: src.text ?? "" } }));
    const read = script.read(readSpecOf(files, dialect.release), [{
      key: "name",
      value: src.file,
    }]);
    const [item] = (await ctx.client.run(script, { idempotent: false, what: "/file" })).get(read)
      .items;
    const stored = item ? Number(item.size) : NaN;
    if (!item || (Number.isFinite(stored) && stored !== bytes.length)) {
      await removeFiles(ctx.client, [src.file]);
      throw new RouterOsError("failure", `the script ${src.file} was not stored whole`, "");
    }
    return;
  }
  const sent = await ctx.client.upload(
    src.file,
    (async function* () {
      yield bytes;
    })(),
    { size: bytes.length, signal: ctx.signal },
  );
  if (sent.remoteSize !== bytes.length) {
    await removeFiles(ctx.client, [src.file]);
    throw new RouterOsError(
      "failure",
      `the router stored ${sent.remoteSize} bytes of the ${bytes.length} of ${src.file}`,
      "",
    );
  }
}

/** The line RouterOS stopped at, as the agent is told it. */
function failedAt(outcome: ImportOutcome): string {
  const unit = outcome.units.at(-1);
  const shown = unit ? ` (\`${maskRawCommand(unit.text.join("\n")).slice(0, 300)}\`)` : "";
  const where = outcome.line !== undefined ? `line ${outcome.line}` : "the script";
  return `${where} failed: ${outcome.error ?? "unknown error"}${shown}`;
}

/** The output a script printed (`:put`), masked and bounded. */
function printed(outcome: ImportOutcome): string[] {
  const lines = outcome.units.flatMap((u) => u.output).slice(0, MAX_OUTPUT_LINES);
  return lines.map((l) => maskRawCommand(l));
}

/** A failure whose message states what it left on the router. */
function stated(message: string, kind: RouterOsError["kind"] = "failure"): RouterOsError {
  const err = new RouterOsError(kind, message, "");
  noteOutcome(err, { kind: "stated" });
  return err;
}

const HEALTH = z.object({
  login: z.boolean(),
  default_route: z.boolean(),
  ping: z.record(z.string(), z.boolean()),
});

/** `router_import_script`. */
export const importScript = defineTool({
  name: "router_import_script",
  title: "Import an .rsc script with automatic revert",
  description:
    "Run a RouterOS script (.rsc) with /import verbose=yes as one change the router reverts BY " +
    "ITSELF unless router_commit_changes confirms it within confirm_within_seconds. The script: " +
    "source (text), local_path (a file of --files-dir) or file (already on the router). Before it " +
    "runs: an export is kept as a snapshot, a binary backup is saved on the router and a revert " +
    "job armed; reverting loads that backup, so the router REBOOTS (tens of seconds) and every " +
    "change made since the backup, by anyone, is undone. A failing line is reported with " +
    "RouterOS's error and reverted at once when anything may have run; a failed health check " +
    "(fresh SSH login, default route, ping targets) reverts too. dry_run shows the commands, the " +
    "script with secrets masked, and for a file on a 7.16+ router the router's own dry run.",
  toolset: "changes",
  readBack: "router_list_pending_changes",
  input: {
    source: z.string().min(1).max(MAX_INLINE).optional().describe(
      `The script's text (at most ${MAX_INLINE} bytes)`,
    ),
    local_path: LOCAL_PATH.optional().describe(
      "Or a script in the files directory, e.g. scripts/vlan.rsc",
    ),
    file: ROUTER_FILE.optional().describe("Or a script already on the router, e.g. vlan.rsc"),
    confirm_within_seconds: z.number().int().min(10).max(86400).optional().describe(
      "Deadline for router_commit_changes; the router reverts by itself after it (default 300)",
    ),
    ping_targets: z.array(z.string().max(253)).max(10).optional().describe(
      "Addresses the router must still reach (3 pings each) after the import",
    ),
  },
  output: {
    change_id: z.string(),
    job: z.string().describe("Name of the revert job on the router"),
    deadline: z.string().describe("Router-local date and time when the router reverts"),
    backup: z.string().describe("The backup file on the router that a revert loads"),
    snapshot: z.string().optional().describe("The local snapshot of the configuration before"),
    lines: z.number().describe("Commands the import ran"),
    output: z.array(z.string()).describe("What the script printed, secrets masked"),
    changes: z.string().describe("What changed in the configuration (export diff; no secrets)"),
    health: HEALTH,
  },
  annotations: DESTRUCTIVE,
  // A script can do anything the SSH user can.
  role: "admin",
  perDevice: true,
  rawCommandArgs: ["source"],
  example: {
    source: '/ip address add address=10.79.9.1/24 interface=ether3 comment="mcp import"\n',
    confirm_within_seconds: 600,
  },
  async dryRun(args, ctx) {
    const dialect = await ctx.client.dialect();
    const id = "0".repeat(12);
    const src = await sourceOf(args, ctx, dialect, id);
    const job = revertJobName(id).replace(id, "<id>");
    const backup = `${revertBackupName(job)}.backup`;
    const file = src.upload ? src.file.replace(id, "<id>") : src.file;
    const at = { year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0, legacyDate: false };
    const problems: string[] = [];
    let check: string;
    if (!hasImportDryRun(dialect.release)) {
      check = `not available: RouterOS ${dialect.release.text} has no /import dry-run (7.16 and ` +
        "later have it); only the real run finds the script's errors, and the revert undoes them";
    } else if (src.upload) {
      check = "runs on a file already on the router: upload the script first " +
        "(router_upload_file) and name it in file";
    } else {
      // Read-only: a dry run applies nothing (MikroTik's docs; measured on 7.24.4).
      const out = await ctx.client.exec(importStatement(src.file, true), {
        idempotent: true,
        what: "/import dry-run",
      });
      const outcome = parseImportOutput(out);
      problems.push(...outcome.problems.map((p) => `line ${p.line}: ${p.error}`));
      if (!outcome.ok && outcome.problems.length === 0) problems.push(failedAt(outcome));
      check = outcome.ok ? "passed (the router found no error)" : "found errors (see problems)";
    }
    return {
      commands: [
        ...(src.upload ? [uploadCommand(dialect, { ...src, file })] : []),
        "(snapshot) /export, kept in the server's state directory",
        `(backup) /system backup save name="${revertBackupName(job)}" password="<one-time>"`,
        `(arm) ${
          armJobStatement(
            job,
            at,
            importRevertScript(job, backup, "<one-time>"),
            "deadline",
          )
        }`,
        importStatement(file),
        "(then) health checks: a fresh SSH login, the default route, ping targets",
        ...(src.upload ? [cmd("/file", "remove", { find: [{ key: "name", value: file }] })] : []),
      ],
      preview: {
        file,
        bytes: src.bytes,
        ...(src.text !== undefined ? { script: maskRawCommand(src.text) } : {}),
        router_check: check,
        revert: `loads ${backup} (the router reboots)`,
      },
      problems,
    };
  },
  async handler(args, ctx) {
    const { client } = ctx;
    const dialect = await client.dialect();
    const id = randomHex();
    const src = await sourceOf(args, ctx, dialect, id);
    const job = revertJobName(id);
    const backupName = revertBackupName(job);
    const backupFile = `${backupName}.backup`;
    const password = randomHex() + randomHex();
    const onEvent = importRevertScript(job, backupFile, password);
    const seconds = args.confirm_within_seconds ?? 300;

    // 1. What the router holds before: an export kept as a snapshot.
    const before = await hiddenExport(client);
    let snapshot: string | undefined;
    if (ctx.stateDir) {
      const meta = await new SnapshotStore(ctx.stateDir).save({
        device: ctx.device,
        version: dialect.release.text,
        sha256: await contentHash(before),
        bytes: new TextEncoder().encode(before).length,
        show_sensitive: false,
        note: snapshotNote(id),
        config: before,
      });
      snapshot = meta.id;
    }
    // 2. The script on the router, the backup, the job: nothing of the configuration changes.
    if (src.upload) await upload(ctx, dialect, src);
    const leftovers = () => removeFiles(client, src.upload ? [src.file] : []);
    let at: string;
    let deadline: RouterTime;
    let hadDefaultRoute: boolean;
    try {
      await saveBackup(client, backupName, password);
      deadline = addSeconds(await routerTime(client), seconds);
      at = `${formatDate(deadline)} ${formatTime(deadline)}`;
      hadDefaultRoute = (await defaultRoutes(client)) > 0;
      await expectSilent(
        client,
        armJobStatement(
          job,
          deadline,
          onEvent,
          `mcp-server-router import ${id}: loads ${backupFile} (reboots) at ${at} unless committed`,
        ),
        "arm the revert job",
      );
    } catch (err) {
      await leftovers();
      await removeFiles(client, [backupFile]);
      throw err;
    }
    const revert = (why: string) =>
      revertImportNow(ctx, { job, onEvent, backupFile, before }).then((r) =>
        `${why} ${r.reverted ? "The change was reverted." : "Reverting failed."} ${r.sentence}`
      );

    // 3. The import.
    let output: string;
    try {
      output = await client.exec(importStatement(src.file), { idempotent: false, what: "/import" });
    } catch (err) {
      if (!(err instanceof SshError)) throw err;
      const said = await revert(
        `The import's outcome is unknown (${err.message.replace(/\.$/, "")}).`,
      );
      await leftovers();
      throw stated(said);
    }
    await leftovers();
    const outcome = parseImportOutput(output);
    if (!outcome.ok) {
      const kind = outcome.kind && outcome.kind !== "unparsable" ? outcome.kind : "failure";
      if (!mayHaveApplied(outcome, MENUS)) {
        await expectSilent(client, removeJobStatement(job), "disarm the revert job");
        await removeFiles(client, [backupFile]);
        throw stated(
          `${failedAt(outcome)}. Nothing of the script ran before it and it changed nothing; ` +
            "the revert job was disarmed.",
          kind,
        );
      }
      const ran = Math.max(0, outcome.units.length - 1);
      throw stated(
        await revert(
          `${failedAt(outcome)}. ${ran ? `The ${ran} command(s) before it ran.` : ""}`.trim(),
        ),
        kind,
      );
    }

    // 4. The revert as armed: the script may have removed or disabled the job, moved the
    // clock it runs by, or removed the backup it loads.
    const backupThere = (await client.read(readSpecOf(files, dialect.release), [
      { key: "name", value: backupFile },
    ])).length > 0;
    const defeated = await defeatedJob(client, job, deadline, seconds);
    if (!backupThere) {
      throw stated(
        `The import ran, but the script removed ${backupFile}, the backup its revert loads: ` +
          `the router cannot revert it by itself and this server cannot either${
            defeated ? ` (and ${defeated})` : ""
          }. Read the configuration back and restore it by hand` +
          `${snapshot ? ` (the export before the import is snapshot ${snapshot})` : ""}.`,
      );
    }
    if (defeated) {
      throw stated(
        await revert(`The import ran, but it would not revert by itself: ${defeated}.`),
      );
    }

    // 5. Health, as after router_apply_changes.
    const health = await healthCheck(client, args.ping_targets);
    const routeOk = !hadDefaultRoute || (await defaultRoutes(client)) > 0;
    const pingOk = Object.values(health.ping).every(Boolean);
    if (!health.login || !routeOk || !pingOk) {
      throw stated(
        await revert(
          `The import ran, but the health check failed (login: ${health.login}, default route: ` +
            `${routeOk}, ping: ${JSON.stringify(health.ping)}).`,
        ),
      );
    }
    const after = await hiddenExport(client);
    const diff = changesBetween(before, after, job);
    const lines = outcome.units.length;
    return {
      structured: {
        change_id: id,
        job,
        deadline: at,
        backup: backupFile,
        ...(snapshot ? { snapshot } : {}),
        lines,
        output: printed(outcome),
        changes: diffText(diff),
        health: { ...health, default_route: routeOk },
      },
      text: `import ${id} applied (${lines} commands; ${diff.added} added, ${diff.removed} ` +
        `removed, ${diff.changed} changed). The router loads ${backupFile} and reboots at ${at} ` +
        `(router time) unless you call router_commit_changes with change_id ${id}.`,
    };
  },
});

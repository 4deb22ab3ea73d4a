/**
 * Backups off the router: a binary backup (through `router_create_backup`)
 * and an export saved as a file (`/export file=`), both downloaded over
 * SFTP into `<state-dir>/backups/<device>/` with their SHA-256, then the
 * two temporary files removed from the router. A fleet form runs it on
 * many devices with bounded concurrency and progress. A downloaded backup
 * goes back with `router_restore_backup` (destructive: confirm).
 *
 * @module
 */
import { chooseDevices } from "../fleet/selection.ts";
import * as z from "zod";
import { cmd } from "../../routeros/command.ts";
import { quoteValue } from "../../routeros/quote.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE, type ToolContext, WRITE } from "../tool.ts";
import { SshError } from "../../ssh/errors.ts";
import { healthCheck } from "../changes/revert_job.ts";
import { beforeReboot, waitForReboot } from "./upgrades.ts";
import { deviceSlug } from "./snapshot_store.ts";
import { FilesDir } from "../files/local_files.ts";
import { hashedChunks, Sha256 } from "../files/transfer_meter.ts";

/** Largest file downloaded, in bytes. */
export const MAX_DOWNLOAD = 64 * 1024 * 1024;

const FILE = z.object({
  name: z.string().describe("The file's name on the router"),
  path: z.string().describe("Where it was saved on the server"),
  bytes: z.number(),
  sha256: z.string(),
});

/** `20261125-004939-123`: to the millisecond, so two calls in a second do not collide. */
function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
}

/** Where this device's backups are kept: `<state-dir>/backups/<device>`. */
function backupDir(ctx: ToolContext): { path: string; store: FilesDir } {
  if (!ctx.stateDir) {
    throw new ArgumentError("this server has no state directory; start it with --state-dir");
  }
  const path = `${ctx.stateDir}/backups/${deviceSlug(ctx.device)}`;
  return { path, store: new FilesDir(path) };
}

/** Download `name` into `store` under its own name (mode 0600, never replacing a file). */
async function fetchTo(ctx: ToolContext, store: FilesDir, name: string) {
  const local = await store.create(name, false);
  const hash = new Sha256();
  try {
    const { bytes } = await ctx.client.download(name, (chunk) => {
      hash.update(chunk);
      return local.write(chunk);
    }, { maxBytes: MAX_DOWNLOAD, signal: ctx.signal });
    await local.commit();
    return { bytes, sha256: hash.hex() };
  } finally {
    await local.abort();
  }
}

async function removeFromRouter(ctx: ToolContext, names: string[]): Promise<void> {
  const script = await ctx.client.script();
  for (const name of names) {
    script.do(cmd("/file", "remove", { find: [{ key: "name", value: name }] }));
  }
  await ctx.client.run(script, { idempotent: false, what: "/file" });
}

/** `router_download_backup`. */
export const downloadBackup = defineTool({
  name: "router_download_backup",
  title: "Download a backup and an export",
  description:
    "Save a binary backup and an export on the router, download both over SFTP to the server's " +
    "state directory with their SHA-256, then remove them from the router. The export hides " +
    "secrets unless show_sensitive (needs --reveal-secrets).",
  toolset: "operations",
  input: {
    password: z.string().min(1).max(255).optional().describe("Encrypt the binary backup"),
    show_sensitive: z.boolean().optional().describe("Keep secrets in the export"),
    keep_on_router: z.boolean().optional().describe("Leave the two files on the router"),
  },
  output: { files: z.array(FILE), removed_from_router: z.boolean() },
  annotations: WRITE,
  perDevice: true,
  secretArgs: ["password"],
  revealsSecrets: (args) => args.show_sensitive === true,
  example: {},
  async handler(args, ctx) {
    const dir = backupDir(ctx);
    const name = `mcp-dl-${stamp()}`;
    const names = [`${name}.backup`, `${name}.rsc`];
    await ctx.call({
      name: "router_create_backup",
      args: { name, ...(args.password ? { password: args.password } : {}) },
    });
    const files: z.infer<typeof FILE>[] = [];
    try {
      const dialect = await ctx.client.dialect();
      const show = args.show_sensitive === true;
      const switches = dialect.major < 7
        ? (show ? [] : ["hide-sensitive"])
        : (show ? ["show-sensitive"] : []);
      const script = new Script(dialect);
      script.do(cmd("/", "export", { args: { file: name }, switches }));
      await ctx.client.run(script, { idempotent: false, what: "/export" });
      for (const file of names) {
        files.push({
          name: file,
          path: `${dir.path}/${file}`,
          ...await fetchTo(ctx, dir.store, file),
        });
      }
    } finally {
      if (!args.keep_on_router) await removeFromRouter(ctx, names);
    }
    return {
      structured: { files, removed_from_router: !args.keep_on_router },
      text: renderTable(files, ["name", "bytes", "sha256", "path"]),
    };
  },
});

const RESULT = z.object({
  device: z.string(),
  ok: z.boolean(),
  files: z.array(FILE).optional(),
  error: z.string().optional(),
});

/** `router_fleet_backup`. */
export const fleetBackup = defineTool({
  name: "router_fleet_backup",
  title: "Download backups of many routers",
  description:
    "Run router_download_backup on many devices (all, a list, or those with tags), a few at a " +
    "time, with progress; one failed router does not stop the others.",
  toolset: "operations",
  input: {
    devices: z.array(z.string().max(256)).max(1000).optional().describe(
      "Device titles (default: all)",
    ),
    tags: z.array(z.string().max(256)).max(100).optional().describe(
      "Only devices with all these tags",
    ),
    concurrency: z.number().int().min(1).max(16).optional().describe("At once (default 4)"),
  },
  output: {
    results: z.array(RESULT),
    succeeded: z.number(),
    failed: z.number(),
  },
  annotations: WRITE,
  perDevice: false,
  example: {},
  async handler(args, ctx) {
    const chosen = chooseDevices(ctx.fleet.summaries(), args);
    const results: z.infer<typeof RESULT>[] = [];
    let next = 0;
    const worker = async () => {
      while (next < chosen.length && !ctx.signal?.aborted) {
        const device = chosen[next++].title;
        try {
          const r = await ctx.call({ name: "router_download_backup", args: {}, device });
          results.push({ device, ok: true, files: r.structured.files as z.infer<typeof FILE>[] });
        } catch (err) {
          results.push({
            device,
            ok: false,
            error: errorText(err, "router_download_backup", device),
          });
        }
        await ctx.progress?.(results.length, chosen.length, device);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(args.concurrency ?? 4, chosen.length) }, worker),
    );
    const order = new Map(chosen.map((d, i) => [d.title, i]));
    results.sort((a, b) => order.get(a.device)! - order.get(b.device)!);
    const failed = results.filter((r) => !r.ok).length;
    return {
      structured: { results, succeeded: results.length - failed, failed },
      text: `${results.length - failed} of ${chosen.length} devices backed up` +
        results.map((r) => `\n${r.device}: ${r.ok ? "ok" : r.error}`).join(""),
    };
  },
});

/** A backup `router_download_backup` saved for this device: by file name, or the newest. */
async function localBackup(ctx: ToolContext, file: string) {
  const dir = backupDir(ctx);
  let name = file;
  if (file === "latest") {
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(dir.path)) {
        if (e.name.endsWith(".backup")) names.push(e.name);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    const newest = names.sort().at(-1);
    if (!newest) {
      throw new ArgumentError(
        `no downloaded backup of ${ctx.device} yet; make one with router_download_backup`,
        "file",
      );
    }
    name = newest;
  }
  if (!(await dir.store.exists(name))) {
    throw new ArgumentError(`no downloaded backup ${name} of ${ctx.device}`, "file");
  }
  return { name, store: dir.store };
}

/** Open a saved backup: the file, its size, and its SHA-256 as it is read. */
async function openBackup(b: { name: string; store: FilesDir }) {
  const { file, size } = await b.store.open(b.name);
  const hash = new Sha256();
  return { size, hash, chunks: hashedChunks(file.readable, hash), close: () => closeQuietly(file) };
}

function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch { /* the stream closed it */ }
}

/**
 * `/system backup load` asks "Restore and reboot?" on a console, so it runs
 * as a background job (as `router_reboot` does), which asks nothing.
 */
function loadScript(
  dialect: Awaited<ReturnType<ToolContext["client"]["dialect"]>>,
  name: string,
  password?: string,
) {
  const script = new Script(dialect);
  const load = cmd("/system/backup", "load", {
    args: { name, ...(password ? { password } : {}) },
  });
  script.do(`:execute script=${quoteValue(load)}`);
  return script;
}

/** `router_restore_backup`. */
export const restoreBackup = defineTool({
  name: "router_restore_backup",
  title: "Restore a downloaded backup",
  description:
    "Upload a binary backup that router_download_backup saved for this device (a file name, or " +
    "'latest') over SFTP and load it: the router restores it and reboots. Destructive (confirm). " +
    "Waits for the router to come back and checks a fresh login.",
  toolset: "operations",
  input: {
    file: z.string().regex(
      /^(latest|[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.backup)$/,
      "a .backup file name as router_download_backup saved it, or latest",
    ).describe("Backup file name, or 'latest'"),
    password: z.string().min(1).max(255).regex(
      /^[^"\\$?]+$/,
      'no ", \\, $ or ? (the load runs as a background script)',
    ).optional().describe("The backup's password"),
    timeout_seconds: z.number().int().min(10).max(1800).optional().describe(
      "Wait this long for the router to come back (default 600)",
    ),
  },
  output: {
    file: z.string(),
    bytes: z.number(),
    sha256: z.string(),
    seconds: z.number().describe("From the load to the router answering again"),
    login: z.boolean().describe("A fresh SSH login works afterwards"),
  },
  annotations: DESTRUCTIVE,
  role: "admin",
  perDevice: true,
  secretArgs: ["password"],
  example: { file: "latest" },
  async handler(args, ctx) {
    const b = await localBackup(ctx, args.file);
    const local = await openBackup(b);
    const sent = await ctx.client.upload(b.name, local.chunks, {
      size: local.size,
      signal: ctx.signal,
    }).finally(local.close);
    if (sent.bytes !== local.size || sent.remoteSize !== local.size) {
      throw new RouterOsError(
        "failure",
        `${b.name}: ${sent.bytes} bytes read of ${local.size}, ${sent.remoteSize} stored on the ` +
          "router; nothing was loaded",
        "",
      );
    }
    const sha256 = local.hash.hex();
    const before = await beforeReboot(ctx);
    const started = performance.now();
    try {
      await ctx.client.run(loadScript(await ctx.client.dialect(), b.name, args.password), {
        idempotent: false,
        what: "/system/backup load",
      });
    } catch (err) {
      // The router reboots: the connection may end before the answer does.
      if (!(err instanceof SshError)) throw err;
    }
    const timeout = args.timeout_seconds ?? 600;
    if (!(await waitForReboot(ctx, before, started + timeout * 1000))) {
      throw new RouterOsError(
        "failure",
        `${ctx.device} did not answer within ${timeout} s after loading ${b.name}; check it by hand`,
        "",
      );
    }
    const seconds = Math.round(performance.now() - started) / 1000;
    const health = await healthCheck(ctx.client, []);
    await removeFromRouter(ctx, [b.name]);
    return {
      structured: {
        file: b.name,
        bytes: local.size,
        sha256,
        seconds,
        login: health.login,
      },
      text: `${ctx.device}: restored ${b.name} (${local.size} bytes); back in ${seconds} s`,
    };
  },
  async dryRun(args, ctx) {
    const b = await localBackup(ctx, args.file);
    const local = await openBackup(b);
    try {
      for await (const _ of local.chunks) { /* hashed as it passes */ }
    } finally {
      local.close();
    }
    return {
      commands: [
        `sftp put /${b.name} (${local.size} bytes)`,
        loadScript(await ctx.client.dialect(), b.name, args.password).toString(),
      ],
      preview: { file: b.name, bytes: local.size, sha256: local.hash.hex() },
      problems: [],
    };
  },
});

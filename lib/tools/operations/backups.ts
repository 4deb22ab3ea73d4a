/**
 * Backups off the router: a binary backup (through `router_create_backup`)
 * and an export saved as a file (`/export file=`), both downloaded over
 * SFTP into `<state-dir>/backups/<device>/` with their SHA-256, then the
 * two temporary files removed from the router. A fleet form runs it on
 * many devices with bounded concurrency and progress.
 *
 * @module
 */
import * as z from "zod";
import { cmd } from "../../routeros/command.ts";
import { ArgumentError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { renderTable } from "../render.ts";
import { type ToolContext, WRITE } from "../tool.ts";
import { deviceSlug } from "./snapshot_store.ts";

/** Largest file downloaded, in bytes. */
export const MAX_DOWNLOAD = 64 * 1024 * 1024;

const FILE = z.object({
  name: z.string().describe("The file's name on the router"),
  path: z.string().describe("Where it was saved on the server"),
  bytes: z.number(),
  sha256: z.string(),
});

async function sha256(data: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `20261125-004939-123`: to the millisecond, so two calls in a second do not collide. */
function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
}

/** Save `data` under the state directory with mode 0600; returns the path. */
async function save(dir: string, name: string, data: Uint8Array): Promise<string> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, data, { createNew: true, mode: 0o600 });
  return path;
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
    if (!ctx.stateDir) {
      throw new ArgumentError("this server has no state directory; start it with --state-dir");
    }
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
      const dir = `${ctx.stateDir}/backups/${deviceSlug(ctx.device)}`;
      for (const file of names) {
        const data = await ctx.client.download(file, MAX_DOWNLOAD);
        const path = await save(dir, file, data);
        files.push({ name: file, path, bytes: data.length, sha256: await sha256(data) });
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
    const all = ctx.fleet.summaries();
    const find = (t: string) => all.find((d) => d.title.toLowerCase() === t.trim().toLowerCase());
    const unknown = (args.devices ?? []).filter((t) => !find(t));
    if (unknown.length) {
      throw new ArgumentError(`unknown device(s) ${unknown.join(", ")}`, "devices");
    }
    const chosen = (args.devices ? args.devices.map((t) => find(t)!) : all)
      .filter((d) => (args.tags ?? []).every((t) => d.tags.includes(t)));
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

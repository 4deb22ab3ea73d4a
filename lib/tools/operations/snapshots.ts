/**
 * Configuration snapshots and diffs: take a snapshot of a device's export
 * (through `router_export_config`, so the secrets guard applies), list and
 * prune them, and compare two snapshots or a snapshot with the live
 * configuration, menu by menu. The store holds every device's snapshots;
 * a caller sees, compares and prunes only those of the devices its scope
 * lets it use (`ctx.mayUse`, `ctx.authorizeDevice`: the scope guard's own).
 *
 * @module
 */
import * as z from "zod";
import { maskExportSecrets } from "../../routeros/export_secrets.ts";
import {
  type ConfigDiff,
  diffExports,
  renderDiff,
  sameConfiguration,
} from "../../routeros/config_diff.ts";
import { ArgumentError } from "../../routeros/errors.ts";
import { parseExport } from "../../routeros/export_parse.ts";
import { MENU_SCHEMAS } from "../../routeros/schema/registry.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE, READ, type ToolContext } from "../tool.ts";
import { contentHash, type Snapshot, type SnapshotMeta, SnapshotStore } from "./snapshot_store.ts";

/** The snapshot store of this server (its `--state-dir`). */
export function storeOf(ctx: ToolContext): SnapshotStore {
  if (!ctx.stateDir) {
    throw new ArgumentError("this server has no state directory; start it with --state-dir");
  }
  return new SnapshotStore(ctx.stateDir);
}

/** The device a call names, or the only one; undefined with several and none named. */
export function deviceOf(ctx: ToolContext, device: string | undefined): string | undefined {
  const all = ctx.fleet.summaries();
  if (device === undefined) return all.length === 1 ? all[0].title : undefined;
  const found = all.find((d) => d.title.toLowerCase() === device.trim().toLowerCase());
  if (!found) {
    throw new ArgumentError(
      `unknown device "${device}"; valid devices: ${all.map((d) => d.title).join(", ")}`,
      "device",
    );
  }
  return found.title;
}

/** The live export of a device, through the guard chain. */
export async function liveExport(
  ctx: ToolContext,
  device: string | undefined,
  showSensitive: boolean,
): Promise<string> {
  const r = await ctx.call({
    name: "router_export_config",
    args: showSensitive ? { show_sensitive: true } : {},
    ...(device ? { device } : {}),
  });
  return String(r.structured.config ?? "");
}

/**
 * A snapshot taken with secrets may be shown (in a diff) only where the
 * operator allows secrets now: the secrets guard is asked, through the
 * export tool it guards, without running anything.
 */
export async function mayShowSecrets(ctx: ToolContext, device: string): Promise<void> {
  const known = ctx.fleet.summaries();
  const on = known.find((d) => d.title === device)?.title ?? known[0]?.title;
  await ctx.check({ name: "router_export_config", args: { show_sensitive: true }, device: on });
}

/**
 * A stored export as the caller may read it: one taken by a reader who may
 * see scripts (admin) shows them to no reader who may not (the scripts of
 * its commands withheld, as that reader's own export has them).
 */
export function shownConfig(ctx: ToolContext, config: string): string {
  return ctx.scriptText === "withheld" ? maskExportSecrets(config, "withheld") : config;
}

/** A snapshot, refused (as the scope guard refuses) when its device is outside the caller's scope. */
export async function loadInScope(
  ctx: ToolContext,
  store: SnapshotStore,
  id: string,
): Promise<Snapshot> {
  const snapshot = await store.load(id);
  ctx.authorizeDevice(snapshot.device);
  return snapshot;
}

/** Natural keys of the declared menus (matching unnamed items in a diff). */
export function keyOf(menu: string): string | undefined {
  return MENU_SCHEMAS.find((m) => m.path === menu && m.key)?.key;
}

const META = z.object({
  id: z.string(),
  device: z.string(),
  version: z.string(),
  time: z.string(),
  sha256: z.string(),
  bytes: z.number(),
  show_sensitive: z.boolean(),
  note: z.string().optional(),
});

const DEVICE = z.string().max(256).optional();
const SNAPSHOT_REF = z.string().max(200);

const META_COLUMNS = ["id", "version", "time", "bytes", "sha256"];

function metaRows(items: SnapshotMeta[]) {
  return items.map((m) => ({ ...m, sha256: m.sha256.slice(0, 12) }));
}

/** `router_snapshot_config`. */
export const snapshotConfig = defineTool({
  name: "router_snapshot_config",
  title: "Snapshot the configuration",
  description:
    "Store the router's full export in the server's local state directory, with release, time " +
    "and SHA-256. Secrets are left out unless show_sensitive (needs --reveal-secrets). Tells " +
    "whether the config is unchanged since the previous snapshot.",
  toolset: "operations",
  input: {
    show_sensitive: z.boolean().optional().describe("Keep secrets (needs --reveal-secrets)"),
    note: z.string().max(200).optional().describe("A note stored with the snapshot"),
  },
  output: {
    snapshot: META,
    previous: z.string().optional().describe("The device's snapshot before this one"),
    unchanged: z.boolean().describe(
      "Same configuration as the previous snapshot (same hash, or no difference in a diff)",
    ),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { note: "example" },
  revealsSecrets: (args) => args.show_sensitive === true,
  async handler(args, ctx) {
    const store = storeOf(ctx);
    const show = args.show_sensitive === true;
    const config = await liveExport(ctx, undefined, show);
    const version = (await ctx.client.dialect()).release.text;
    const previous = await store.latest(ctx.device);
    const sha256 = await contentHash(config);
    const snapshot = await store.save({
      device: ctx.device,
      version,
      sha256,
      bytes: new TextEncoder().encode(config).length,
      show_sensitive: show,
      ...(args.note ? { note: args.note } : {}),
      config,
    });
    // The same configuration spelled otherwise (a release that abbreviates or writes defaults) is unchanged.
    const unchanged = previous !== undefined &&
      (previous.sha256 === sha256 ||
        sameConfiguration(
          parseExport(shownConfig(ctx, (await store.load(previous.id)).config)),
          parseExport(config),
        ));
    return {
      structured: { snapshot, ...(previous ? { previous: previous.id } : {}), unchanged },
      text: `snapshot ${snapshot.id} (RouterOS ${version}, ${snapshot.bytes} bytes)` +
        (previous ? `; ${unchanged ? "unchanged since" : "changed since"} ${previous.id}` : ""),
    };
  },
});

/** `router_list_snapshots`. */
export const listSnapshots = defineTool({
  name: "router_list_snapshots",
  title: "List configuration snapshots",
  description:
    "List the configuration snapshots in the local state directory (all devices, or one), " +
    "oldest first, with id, release, time, size and SHA-256.",
  toolset: "operations",
  input: { device: DEVICE.describe("Only this device's snapshots") },
  output: { items: z.array(META), count: z.number() },
  annotations: READ,
  perDevice: false,
  example: {},
  async handler(args, ctx) {
    const device = args.device === undefined ? undefined : deviceOf(ctx, args.device);
    const items = (await storeOf(ctx).list(device)).filter((m) => ctx.mayUse(m.device));
    return {
      structured: { items, count: items.length },
      text: renderTable(metaRows(items), ["id", ...META_COLUMNS.slice(1)]),
    };
  },
});

async function prunePlan(
  args: { device?: string; keep?: number; older_than_days?: number },
  ctx: ToolContext,
) {
  const device = args.device === undefined ? undefined : deviceOf(ctx, args.device);
  const all = (await storeOf(ctx).list(device)).filter((m) => ctx.mayUse(m.device));
  const byDevice = new Map<string, SnapshotMeta[]>();
  for (const m of all) byDevice.set(m.device, [...(byDevice.get(m.device) ?? []), m]);
  const cutoff = args.older_than_days === undefined
    ? undefined
    : new Date(Date.now() - args.older_than_days * 86_400_000).toISOString();
  const doomed: SnapshotMeta[] = [];
  for (const list of byDevice.values()) {
    list.forEach((m, i) => {
      const beyondKeep = args.keep !== undefined && i < list.length - args.keep;
      const old = cutoff !== undefined && m.time < cutoff;
      if (
        (args.keep === undefined || beyondKeep) && (cutoff === undefined || old)
      ) doomed.push(m);
    });
  }
  return { doomed, kept: all.length - doomed.length };
}

/** `router_prune_snapshots`. */
export const pruneSnapshots = defineTool({
  name: "router_prune_snapshots",
  title: "Prune configuration snapshots",
  description:
    "Delete local configuration snapshots: those beyond the newest `keep` per device and/or " +
    "older than `older_than_days` (give keep or older_than_days, or both). Destructive " +
    "(confirm); dry_run lists what would go.",
  toolset: "operations",
  input: {
    device: DEVICE.describe("Only this device's snapshots"),
    keep: z.number().int().min(0).max(10000).optional().describe(
      "Keep this many newest per device",
    ),
    older_than_days: z.number().min(0).max(36500).optional().describe(
      "Only snapshots older than this",
    ),
  },
  output: { removed: z.array(z.string()), kept: z.number() },
  annotations: DESTRUCTIVE,
  perDevice: false,
  requireOneOf: ["keep", "older_than_days"],
  example: { keep: 1 },
  async handler(args, ctx) {
    const { doomed, kept } = await prunePlan(args, ctx);
    const store = storeOf(ctx);
    for (const m of doomed) await store.remove(m.id);
    const removed = doomed.map((m) => m.id);
    return {
      structured: { removed, kept },
      text: `removed ${removed.length} snapshot(s), kept ${kept}`,
    };
  },
  async dryRun(args, ctx) {
    const { doomed, kept } = await prunePlan(args, ctx);
    return { commands: [], preview: { remove: doomed.map((m) => m.id), kept }, problems: [] };
  },
});

const CHANGE = z.object({
  field: z.string(),
  old: z.string().optional(),
  new: z.string().optional(),
});
const VALUES = z.record(z.string(), z.string());
const ITEM = z.object({ key: z.string(), values: VALUES });
const PLACE = z.number().describe("1-based place among the menu's items of its kind");

/** The structured diff as the tools return it. */
export const DIFF = {
  identical: z.boolean(),
  added: z.number(),
  removed: z.number(),
  changed: z.number(),
  moved: z.number().describe("Items of ordered menus (firewall rules) that changed place only"),
  menus: z.array(z.object({
    menu: z.string(),
    added: z.array(ITEM),
    removed: z.array(ITEM),
    changed: z.array(z.object({
      key: z.string(),
      fields: z.array(CHANGE),
      from: PLACE.optional().describe("Set when the item also moved"),
      to: PLACE.optional(),
    })),
    moved: z.array(z.object({
      key: z.string(),
      from: PLACE,
      to: PLACE,
      values: VALUES.optional().describe("The item's arguments, when nothing else names it"),
    })),
  })),
};

/** A ConfigDiff in the tools' output shape. */
export function diffOutput(d: ConfigDiff) {
  return { identical: d.menus.length === 0, ...d };
}

/** Ignore arguments shared by the diff and drift tools. */
export const IGNORE = {
  ignore: z.array(z.string().max(200)).max(100).optional().describe(
    'Menus or menu arguments to leave out, e.g. ["/system/identity", "/ip/address address"]',
  ),
  ignore_values: z.array(z.string().max(200)).max(1000).optional().describe(
    "Values treated as equal wherever they appear, e.g. each device's own addresses",
  ),
};

/** `router_diff_config`. */
export const diffConfig = defineTool({
  name: "router_diff_config",
  title: "Compare configurations",
  description:
    "Compare two configuration snapshots, or a snapshot with the live configuration, menu by " +
    "menu: items added, removed, changed (old and new value of each argument) and, in ordered " +
    "menus such as firewall rules, moved. `from`/`to` are snapshot ids or 'latest' (the " +
    "device's newest); without `to`, the live config.",
  toolset: "operations",
  input: {
    from: SNAPSHOT_REF.describe("Snapshot id, or 'latest'"),
    to: SNAPSHOT_REF.optional().describe("Snapshot id or 'latest' (default: the live config)"),
    device: DEVICE.describe("Device for 'latest' and the live config (default: from's)"),
    ...IGNORE,
  },
  output: { from: z.string(), to: z.string(), ...DIFF },
  annotations: READ,
  perDevice: false,
  example: { from: "latest" },
  async handler(args, ctx) {
    const store = storeOf(ctx);
    const named = deviceOf(ctx, args.device);
    const resolve = async (ref: string) => {
      if (ref !== "latest") return ref;
      if (!named) throw new ArgumentError("give device: which device's latest snapshot", "device");
      const latest = await store.latest(named);
      if (!latest) {
        throw new ArgumentError(
          `no snapshot of ${named} yet; take one with router_snapshot_config`,
          "from",
        );
      }
      return latest.id;
    };
    const from = await loadInScope(ctx, store, await resolve(args.from));
    const to = args.to === undefined
      ? undefined
      : await loadInScope(ctx, store, await resolve(args.to));
    if (from.show_sensitive || to?.show_sensitive) await mayShowSecrets(ctx, from.device);
    const live = to ? undefined : await liveExport(ctx, named ?? from.device, from.show_sensitive);
    const diff = diffExports(
      parseExport(shownConfig(ctx, from.config)),
      parseExport(to ? shownConfig(ctx, to.config) : live!),
      {
        keyOf,
        ignore: args.ignore,
        ignoreValues: args.ignore_values,
      },
    );
    const out = diffOutput(diff);
    const toName = to?.id ?? `live (${named ?? from.device})`;
    return {
      structured: { from: from.id, to: toName, ...out },
      text: `${from.id} -> ${toName}: ${
        out.identical
          ? "no differences"
          : `${diff.added} added, ${diff.removed} removed, ${diff.changed} changed, ` +
            `${diff.moved} moved in ${diff.menus.length} menu(s)`
      }${out.identical ? "" : "\n" + renderDiff(diff)}`,
    };
  },
});

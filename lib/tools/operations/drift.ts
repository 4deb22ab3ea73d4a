/**
 * `router_fleet_drift`: compare many devices' live configurations with a
 * baseline (a snapshot, or one of the devices) menu by menu, leaving out
 * what differs by design: the identity always, and the menus, arguments
 * and values the call names. Each device's export runs through the guard
 * chain; an unreachable router is reported, not fatal.
 *
 * @module
 */
import { chooseDevices } from "../fleet/selection.ts";
import * as z from "zod";
import { type ConfigDiff, diffExports } from "../../routeros/config_diff.ts";
import { ArgumentError } from "../../routeros/errors.ts";
import { parseExport } from "../../routeros/export_parse.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { FLEET_CONCURRENCY } from "../fleet/query.ts";
import { READ } from "../tool.ts";
import { SNAPSHOT_ID } from "./snapshot_store.ts";
import {
  DIFF,
  diffOutput,
  IGNORE,
  keyOf,
  liveExport,
  loadInScope,
  mayShowSecrets,
  shownConfig,
  storeOf,
} from "./snapshots.ts";

/** Menus that differ between devices by design. */
export const ALWAYS_IGNORED = ["/system/identity"];

const RESULT = z.object({
  device: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
  identical: DIFF.identical.optional(),
  added: DIFF.added.optional(),
  removed: DIFF.removed.optional(),
  changed: DIFF.changed.optional(),
  moved: DIFF.moved.optional(),
  menus: DIFF.menus.optional(),
});

/** `router_fleet_drift`. */
export const fleetDrift = defineTool({
  name: "router_fleet_drift",
  title: "Configuration drift across devices",
  description:
    "Compare devices' live configurations with a baseline, menu by menu: a snapshot id, or a " +
    "device title (default: the first device). Identity is always ignored; add menus, " +
    "arguments and values (e.g. each device's addresses) that differ by design.",
  toolset: "operations",
  input: {
    baseline: z.string().max(256).optional().describe("Snapshot id or device title"),
    devices: z.array(z.string().max(256)).max(1000).optional().describe(
      "Device titles (default: all)",
    ),
    tags: z.array(z.string().max(256)).max(100).optional().describe(
      "Only devices with all these tags",
    ),
    ...IGNORE,
  },
  output: {
    baseline: z.string(),
    results: z.array(RESULT),
    in_sync: z.number(),
    drifted: z.number(),
    failed: z.number(),
    by_menu: z.array(z.object({ menu: z.string(), devices: z.array(z.string()) })).describe(
      "Each menu that drifted and on which devices",
    ),
  },
  annotations: READ,
  perDevice: false,
  example: {},
  async handler(args, ctx) {
    const all = ctx.fleet.summaries();
    const chosen = chooseDevices(all, args);
    let baselineName: string;
    let baselineText: Promise<string>;
    let baselineDevice: string | undefined;
    // A baseline with secrets is compared with live exports with secrets (guarded as such).
    let secrets = false;
    if (args.baseline !== undefined && SNAPSHOT_ID.test(args.baseline)) {
      const snap = await loadInScope(ctx, storeOf(ctx), args.baseline);
      if (snap.show_sensitive) await mayShowSecrets(ctx, snap.device);
      secrets = snap.show_sensitive;
      baselineName = snap.id;
      baselineText = Promise.resolve(shownConfig(ctx, snap.config));
    } else {
      const wanted = args.baseline?.trim().toLowerCase();
      const base = wanted === undefined
        ? chosen[0]
        : all.find((d) => d.title.toLowerCase() === wanted);
      if (!base) {
        throw new ArgumentError(
          args.baseline === undefined
            ? "no devices match"
            : `baseline "${args.baseline}" is neither a snapshot id nor a device`,
          "baseline",
        );
      }
      baselineName = base.title;
      baselineDevice = base.title;
      baselineText = liveExport(ctx, base.title, false);
    }
    const base = parseExport(await baselineText);
    const targets = chosen.filter((d) => d.title !== baselineDevice);
    const opts = {
      keyOf,
      ignore: [...ALWAYS_IGNORED, ...(args.ignore ?? [])],
      ignoreValues: args.ignore_values,
    };
    const results: z.infer<typeof RESULT>[] = new Array(targets.length);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < targets.length && !ctx.signal?.aborted) {
        const i = next++;
        const device = targets[i].title;
        try {
          const d: ConfigDiff = diffExports(
            base,
            parseExport(await liveExport(ctx, device, secrets)),
            opts,
          );
          results[i] = { device, ok: true, ...diffOutput(d) };
        } catch (err) {
          results[i] = { device, ok: false, error: errorText(err, "router_export_config", device) };
        }
        done++;
        await ctx.progress?.(done, targets.length, device);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(FLEET_CONCURRENCY, targets.length) }, worker),
    );
    const finished = results.filter(Boolean);
    const byMenu = new Map<string, string[]>();
    for (const r of finished) {
      for (const m of (r.menus ?? []) as { menu: string }[]) {
        byMenu.set(m.menu, [...(byMenu.get(m.menu) ?? []), r.device]);
      }
    }
    const drifted = finished.filter((r) => r.ok && !r.identical);
    const failed = finished.filter((r) => !r.ok);
    const by_menu = [...byMenu].map(([menu, devices]) => ({ menu, devices }));
    return {
      structured: {
        baseline: baselineName,
        results: finished,
        in_sync: finished.length - drifted.length - failed.length,
        drifted: drifted.length,
        failed: failed.length,
        by_menu,
      },
      text: `baseline ${baselineName}: ${finished.length - drifted.length - failed.length} in ` +
        `sync, ${drifted.length} drifted, ${failed.length} failed` +
        by_menu.map((m) => `\n${m.menu}: ${m.devices.join(", ")}`).join("") +
        failed.map((r) => `\n${r.device}: ${r.error}`).join(""),
    };
  },
});

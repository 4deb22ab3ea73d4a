/**
 * Upgrades that cannot strand a router: check for a newer release, then
 * install it with confirm, wait (bounded) for the router to come back
 * after its reboot, re-detect the release and its read dialect, run the
 * health checks `router_apply_changes` uses, and report. The fleet form
 * upgrades in batches and stops at the first failed device.
 *
 * @module
 */
import { chooseDevices } from "../fleet/selection.ts";
import * as z from "zod";
import { cmd, getExpr } from "../../routeros/command.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { durationMs } from "../../routeros/values.ts";
import { SshError } from "../../ssh/errors.ts";
import { healthCheck } from "../changes/revert_job.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { DESTRUCTIVE, PROBE, type ToolContext } from "../tool.ts";

const UPDATE = "/system/package/update";

/** What `check-for-updates` found. */
async function checkUpdates(ctx: ToolContext) {
  const script = await ctx.client.script();
  script.lines(cmd(UPDATE, "check-for-updates", { switches: ["once"] }));
  const facts = script.scalars({
    channel: getExpr(UPDATE, "channel"),
    installed: getExpr(UPDATE, "installed-version"),
    latest: getExpr(UPDATE, "latest-version"),
    status: getExpr(UPDATE, "status"),
  });
  const out = (await ctx.client.run(script, { idempotent: true, what: UPDATE })).get(facts);
  const c = {
    channel: out.channel ?? "",
    installed: out.installed ?? "",
    latest: out.latest ?? "",
    status: out.status ?? "",
  };
  const available = c.latest !== "" && c.latest !== c.installed && /new version/i.test(c.status);
  return { ...c, update_available: available };
}

const CHECK = {
  channel: z.string(),
  installed: z.string(),
  latest: z.string(),
  status: z.string(),
  update_available: z.boolean(),
};

/** `router_check_updates`. */
export const checkForUpdates = defineTool({
  name: "router_check_updates",
  title: "Check for RouterOS updates",
  description:
    "Ask MikroTik's update server (/system package update check-for-updates) for the newest " +
    "release on the router's channel: channel, installed, latest, status, update_available.",
  toolset: "operations",
  input: {},
  output: CHECK,
  annotations: PROBE,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const c = await checkUpdates(ctx);
    return {
      structured: c,
      text: `${c.channel}: installed ${c.installed}, latest ${c.latest || "?"} (${c.status})`,
    };
  },
});

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}

/** The router's uptime in ms (whole seconds, as RouterOS prints it), or undefined. */
async function uptime(ctx: ToolContext): Promise<number | undefined> {
  const r = await ctx.call({ name: "router_get_system_resource", args: {} });
  return durationMs((r.structured.item as Record<string, unknown>)?.uptime);
}

/** The uptime before a reboot, and when it was read. */
export interface BeforeReboot {
  uptime: number;
  at: number;
}

/**
 * The router's uptime before a reboot is started. A router up for less
 * than 2 s is waited for first, so that a reboot always shows as a shorter
 * uptime than the old one would have grown to.
 */
export async function beforeReboot(ctx: ToolContext): Promise<BeforeReboot> {
  let up = await uptime(ctx) ?? 0;
  if (up < 2000) {
    await sleep(2000 - up, ctx.signal);
    up = await uptime(ctx) ?? 0;
  }
  return { uptime: up, at: performance.now() };
}

/**
 * Wait until the router answers again after a reboot: its uptime is less
 * than the old uptime would be by now (RouterOS prints whole seconds, so a
 * second of slack; without a reboot this never holds). Asked after 0.25 s,
 * 0.5 s, then every second (a router still going down just answers with
 * its old uptime). False on timeout.
 */
export async function waitForReboot(ctx: ToolContext, before: BeforeReboot, deadline: number) {
  for (let wait = 250; performance.now() < deadline && !ctx.signal?.aborted;) {
    await sleep(wait, ctx.signal);
    wait = Math.min(wait * 2, 1000);
    const grown = before.uptime + (performance.now() - before.at);
    try {
      const now = await uptime(ctx);
      if (now !== undefined && now + 1000 <= grown) return true;
    } catch {
      // Still rebooting (refused, timed out, lost): try again until the deadline.
    }
  }
  return false;
}

const HEALTH = z.object({ login: z.boolean(), ping: z.record(z.string(), z.boolean()) });

/** `router_upgrade`. */
export const upgrade = defineTool({
  name: "router_upgrade",
  title: "Upgrade RouterOS",
  description:
    "Install the newest RouterOS release of the router's channel and reboot (destructive: " +
    "confirm). Waits up to timeout_seconds for the router, re-detects its release, runs health " +
    "checks (fresh login, pings) and fails if the release did not change. Nothing happens when " +
    "it is up to date.",
  toolset: "operations",
  input: {
    version: z.string().max(32).optional().describe("Only install this exact release"),
    timeout_seconds: z.number().int().min(10).max(1800).optional().describe(
      "Wait this long for the router to come back (default 600)",
    ),
    ping_targets: z.array(z.string().max(253)).max(5).optional().describe(
      "Addresses the router must ping after the upgrade",
    ),
  },
  output: {
    before: z.string(),
    after: z.string(),
    upgraded: z.boolean(),
    seconds: z.number().describe("From install to the router answering again"),
    health: HEALTH.optional(),
  },
  annotations: DESTRUCTIVE,
  role: "admin",
  perDevice: true,
  example: {},
  async handler(args, ctx) {
    const installed = (await ctx.client.dialect()).release.text;
    const check = await checkUpdates(ctx);
    if (!check.update_available) {
      if (args.version && args.version !== installed) {
        throw new ArgumentError(
          `${args.version} is not offered (latest: ${check.latest || "unknown"}, ${check.status})`,
          "version",
        );
      }
      return {
        structured: { before: installed, after: installed, upgraded: false, seconds: 0 },
        text: `${ctx.device}: RouterOS ${installed} is up to date (${check.status})`,
      };
    }
    if (args.version && args.version !== check.latest) {
      throw new ArgumentError(
        `the update server offers ${check.latest}, not ${args.version}; nothing was installed`,
        "version",
      );
    }
    const total = 4;
    await ctx.progress?.(1, total, `installing ${check.latest}`);
    const before = await beforeReboot(ctx);
    const started = performance.now();
    const script = new Script(await ctx.client.dialect());
    script.lines(cmd(UPDATE, "install", {}));
    try {
      await ctx.client.run(script, { idempotent: false, what: `${UPDATE} install` });
    } catch (err) {
      // The router reboots: the connection may end before the answer does.
      if (!(err instanceof SshError)) throw err;
    }
    await ctx.progress?.(2, total, "waiting for the router to reboot");
    const deadline = started + (args.timeout_seconds ?? 600) * 1000;
    if (!(await waitForReboot(ctx, before, deadline))) {
      throw new RouterOsError(
        "failure",
        `${ctx.device} did not answer within ${args.timeout_seconds ?? 600} s after installing ` +
          `${check.latest}; check it by hand before anything else`,
        "",
      );
    }
    const seconds = Math.round(performance.now() - started) / 1000;
    // A new connection re-detects the release and its read dialect.
    const after = (await ctx.client.dialect()).release.text;
    await ctx.progress?.(3, total, `running ${after}; health checks`);
    const health = await healthCheck(ctx.client, args.ping_targets ?? []);
    await ctx.progress?.(4, total, "done");
    const healthy = health.login && Object.values(health.ping).every(Boolean);
    if (after === installed || !healthy) {
      throw new RouterOsError(
        "failure",
        after === installed
          ? `the upgrade of ${ctx.device} to ${check.latest} failed: it came back running ${after}`
          : `${ctx.device} runs ${after} but failed its health checks (login: ${health.login}, ` +
            `ping: ${JSON.stringify(health.ping)})`,
        "",
      );
    }
    return {
      structured: { before: installed, after, upgraded: true, seconds, health },
      text: `${ctx.device}: ${installed} -> ${after} in ${seconds} s; healthy`,
    };
  },
});

const STEP = z.object({
  device: z.string(),
  status: z.enum(["upgraded", "up-to-date", "failed", "skipped"]),
  before: z.string().optional(),
  after: z.string().optional(),
  error: z.string().optional(),
});

/** `router_fleet_upgrade`. */
export const fleetUpgrade = defineTool({
  name: "router_fleet_upgrade",
  title: "Rolling upgrade of many routers",
  description:
    "Upgrade devices (all, a list, or those with tags) with router_upgrade, batch_size at a " +
    "time, and stop after the first batch with a failed device; the rest are skipped. " +
    "Destructive: confirm.",
  toolset: "operations",
  input: {
    devices: z.array(z.string().max(256)).max(1000).optional().describe(
      "Device titles, in upgrade order (default: all)",
    ),
    tags: z.array(z.string().max(256)).max(100).optional().describe(
      "Only devices with all these tags",
    ),
    batch_size: z.number().int().min(1).max(32).optional().describe("At once (default 1)"),
    timeout_seconds: z.number().int().min(10).max(1800).optional().describe(
      "Per device (default 600)",
    ),
  },
  output: { results: z.array(STEP), stopped: z.boolean() },
  annotations: DESTRUCTIVE,
  role: "admin",
  perDevice: false,
  example: {},
  async handler(args, ctx) {
    const chosen = chooseDevices(ctx.fleet.summaries(), args)
      .map((d) => d.title);
    const size = args.batch_size ?? 1;
    const results: z.infer<typeof STEP>[] = [];
    let stopped = false;
    for (let i = 0; i < chosen.length; i += size) {
      if (stopped || ctx.signal?.aborted) {
        results.push(
          ...chosen.slice(i, i + size).map((device) => ({
            device,
            status: "skipped" as const,
          })),
        );
        continue;
      }
      const batch = await Promise.all(
        chosen.slice(i, i + size).map(async (device) => {
          try {
            // The operator confirmed the fleet upgrade: that is each device's confirm.
            const r = await ctx.call({
              name: "router_upgrade",
              args: {
                confirm: true,
                ...(args.timeout_seconds ? { timeout_seconds: args.timeout_seconds } : {}),
              },
              device,
            });
            const s = r.structured as { before: string; after: string; upgraded: boolean };
            return {
              device,
              status: s.upgraded ? "upgraded" as const : "up-to-date" as const,
              before: s.before,
              after: s.after,
            };
          } catch (err) {
            return {
              device,
              status: "failed" as const,
              error: errorText(err, "router_upgrade", device),
            };
          }
        }),
      );
      results.push(...batch);
      if (batch.some((r) => r.status === "failed")) stopped = true;
      await ctx.progress?.(Math.min(i + size, chosen.length), chosen.length, batch[0]?.device);
    }
    return {
      structured: { results, stopped },
      text: results.map((r) =>
        `${r.device}: ${r.status}${r.after ? ` ${r.before} -> ${r.after}` : ""}${
          r.error ? ` (${r.error})` : ""
        }`
      ).join("\n") + (stopped ? "\nstopped at the first failure" : ""),
    };
  },
});

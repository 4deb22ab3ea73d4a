/**
 * `router_audit_security`: one router, or the fleet by tags and region,
 * against the hardening checklist (`posture_checklist.ts`). Every read is a
 * nested `router_print` call through the guard chain; the checklist runs
 * on the rows. Devices come back ranked by their findings (weighted by
 * severity), each finding with the items that show it and the exact tool
 * calls that fix it; an unreachable router is reported, not fatal.
 *
 * @module
 */
import * as z from "zod";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { chooseDevices } from "../fleet/selection.ts";
import { FLEET_CONCURRENCY } from "../fleet/query.ts";
import { READ, type ToolContext } from "../tool.ts";
import { DeviceReads, eachLimited, listsNamed, PRINT_TOOL } from "./device_reads.ts";
import { evaluatePosture, PACKAGE_USE, POSTURE_MENUS } from "./posture_checklist.ts";
import { FINDING, type Finding, SEVERITIES, type Severity } from "./posture_types.ts";

const DEVICE = z.object({
  device: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
  score: z.number().describe(
    "Findings weighted by severity (critical 10, high 5, medium 3, low 1)",
  ),
  counts: z.record(z.string(), z.number()),
  wan_interfaces: z.array(z.object({ name: z.string(), why: z.array(z.string()) })),
  findings: z.array(FINDING),
  not_checked: z.array(z.string()),
});

type DeviceAudit = z.infer<typeof DEVICE>;

/** Audit one device: its reads through the guard chain, then the checklist. */
export async function auditDevice(
  ctx: ToolContext,
  device: string,
  min: Severity = "low",
): Promise<DeviceAudit> {
  const reads = new DeviceReads(ctx, device);
  const [menus, defaults] = await Promise.all([
    reads.menus(POSTURE_MENUS),
    reads.print("/ip/route", { "dst-address": "0.0.0.0/0" }),
  ]);
  menus.set("/ip/route", defaults);
  const used = [
    ...new Set(
      (menus.get("/system/package") ?? []).map((p) => PACKAGE_USE[p.name ?? ""]).filter(Boolean),
    ),
  ];
  for (const [path, rows] of await reads.menus(used)) menus.set(path, rows);
  const addressLists = await reads.addressLists(
    listsNamed(menus.get("/ip/firewall/filter") ?? [], ["input"]),
  );
  const info = ctx.fleet.summaries().find((d) => d.title === device);
  const r = evaluatePosture({
    device,
    menus,
    tags: info?.tags ?? [],
    addressLists,
    loginUser: info?.username,
  });
  const findings = r.findings.filter((f) =>
    SEVERITIES.indexOf(f.severity) <= SEVERITIES.indexOf(min)
  );
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.severity] = (counts[f.severity] ?? 0) + 1;
  return {
    device,
    ok: true,
    score: r.score,
    counts,
    wan_interfaces: r.wan,
    findings,
    not_checked: [
      ...r.notChecked,
      ...reads.truncated.map((p) => `${p}: more than router_print's limit; the rest not read`),
    ],
  };
}

function line(f: Finding): string {
  const fix = f.fix.map((c) => `${c.tool} ${JSON.stringify(c.arguments)}`).join("; ");
  return `  [${f.severity}] ${f.id}: ${f.title}${fix ? `\n    fix: ${fix}` : ""}`;
}

/** The compact text of an audit. */
export function auditText(devices: readonly DeviceAudit[]): string {
  const failed = devices.filter((d) => !d.ok).length;
  const head = `${
    devices.length - failed
  } of ${devices.length} devices audited, ranked by findings`;
  const body = devices.map((d) => {
    if (!d.ok) return `${d.device}: error: ${d.error}`;
    const counts = SEVERITIES.filter((s) => d.counts[s]).map((s) => `${d.counts[s]} ${s}`)
      .join(", ");
    const wan = d.wan_interfaces.map((w) => w.name).join(", ") || "none known";
    return `${d.device}: score ${d.score}${
      counts ? ` (${counts})` : " (no findings)"
    }; WAN: ${wan}` +
      (d.findings.length ? `\n${d.findings.map(line).join("\n")}` : "");
  });
  return [head, ...body].join("\n");
}

/** `router_audit_security`. */
export const auditSecurity = defineTool({
  name: "router_audit_security",
  title: "Audit security posture",
  description: "Check routers against a hardening checklist (MikroTik's Securing your router, " +
    "CIS-style items): services reachable from the WAN (input chain evaluated rule by rule), the " +
    "admin user, MAC server and discovery on WAN ports, open DNS, no final drop, weak SSH, old " +
    "RouterOS, proxies, UPnP. One device, or the fleet by devices/tags/region, ranked by " +
    "severity. Each finding has evidence (items with ids) and fix calls to run with dry_run " +
    "first. WAN = the WAN list, the default route's interface, inventory tags wan:<interface>.",
  toolset: "insight",
  input: {
    devices: z.array(z.string().max(256)).max(1000).optional().describe(
      "Device titles (default: every device that matches tags and region)",
    ),
    tags: z.array(z.string().max(256)).max(100).optional().describe(
      "Only devices that have all these tags",
    ),
    region: z.string().max(256).optional().describe("Only devices in this region"),
    min_severity: z.enum(SEVERITIES).optional().describe(
      "Leave out findings below this (default low)",
    ),
  },
  output: {
    devices: z.array(DEVICE).describe("Worst first"),
    audited: z.number(),
    failed: z.number(),
  },
  annotations: READ,
  perDevice: false,
  example: {},
  async handler(args, ctx) {
    const chosen = chooseDevices(ctx.fleet.summaries(), args);
    // One refusal for all: a server without router_print reads nothing anywhere.
    if (chosen.length) {
      await ctx.check({ name: PRINT_TOOL, args: { path: "/interface" }, device: chosen[0].title });
    }
    const results = await eachLimited(
      chosen,
      FLEET_CONCURRENCY,
      async (d): Promise<DeviceAudit> => {
        try {
          return await auditDevice(ctx, d.title, args.min_severity);
        } catch (err) {
          return {
            device: d.title,
            ok: false,
            error: errorText(err, "router_audit_security", d.title),
            score: 0,
            counts: {},
            wan_interfaces: [],
            findings: [],
            not_checked: [],
          };
        }
      },
      (n, d) => ctx.progress?.(n, chosen.length, d.title),
      ctx.signal,
    );
    const devices = results.filter(Boolean).sort((a, b) =>
      Number(b.ok) - Number(a.ok) || b.score - a.score || a.device.localeCompare(b.device)
    );
    const failed = devices.filter((d) => !d.ok).length;
    return {
      structured: { devices, audited: devices.length - failed, failed },
      text: auditText(devices),
    };
  },
});

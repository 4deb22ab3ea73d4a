/**
 * System: reboot (destructive) and health sensors (voltage, temperature,
 * fans, PSUs), whose menu is a list on RouterOS 7 and settings on 6.
 *
 * @module
 */
import * as z from "zod";
import { quoteValue } from "../../routeros/quote.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { health } from "../../routeros/schema/menus/system.ts";
import { rawText } from "../../routeros/schema/convert.ts";
import { leadingNumber } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE, READ } from "../tool.ts";

/**
 * The reboot, run as a background job so no confirmation prompt waits on
 * the exec channel and the answer comes back before the router goes down.
 */
const REBOOT = `:execute script=${quoteValue("/system reboot")}`;

/** `router_reboot`. */
export const reboot = defineTool({
  name: "router_reboot",
  title: "Reboot the router",
  description:
    "Reboot the router now. DESTRUCTIVE: every connection through and to the router drops, and " +
    "it is unreachable for a minute or more (longer after an upgrade). Unsaved state such as " +
    "dynamic leases, connection tracking and logs in memory is lost. Returns as soon as the reboot is scheduled.",
  toolset: "system",
  input: {},
  output: { rebooting: z.boolean(), device: z.string().describe("The device being rebooted") },
  annotations: DESTRUCTIVE,
  role: "admin",
  example: {},
  perDevice: true,
  async handler(_args, ctx) {
    const script = await ctx.client.script();
    // Prints nothing on success: an error the router prints instead (no policy, say) raises.
    script.do(REBOOT);
    await ctx.client.run(script, { idempotent: false, what: "/system/reboot" });
    return {
      structured: { rebooting: true, device: ctx.device },
      text: `${ctx.device} is rebooting`,
    };
  },
  async dryRun(_args, ctx) {
    const script = await ctx.client.script();
    script.do(REBOOT);
    return {
      commands: [script.toString()],
      preview: { rebooting: true, device: ctx.device },
      problems: [],
    };
  },
});

const SENSOR = z.object({
  name: z.string().describe("Sensor name: voltage, temperature, cpu-temperature, fan1-speed, ..."),
  value: z.string().describe("Value as RouterOS shows it"),
  number: z.number().optional().describe("Numeric part of the value"),
  unit: z.string().optional().describe("Unit: V, C, RPM, W, A, ..."),
});

const UNIT_OF: Record<string, string> = { "°C": "C" };

/** `router_get_system_health`. */
export const systemHealth = defineTool({
  name: "router_get_system_health",
  title: "System health sensors",
  description:
    "Read the hardware health sensors (voltage, temperatures, fan speeds, PSU state). Empty on " +
    "hardware without sensors (such as CHR).",
  toolset: "system",
  input: {},
  output: { sensors: z.array(SENSOR) },
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const dialect = await ctx.client.dialect();
    // RouterOS 6 shows the sensors as settings (`voltage: 24.1V`); 7 as a list.
    const v6 = dialect.major < 7;
    const spec = v6
      ? { path: health.path, singleton: true, keys: [] }
      : readSpecOf(health, dialect.release);
    const raws = await ctx.client.read(spec);
    const sensors = v6
      ? Object.entries(raws[0] ?? {}).map(([name, value]) => sensor(name, rawText(value), ""))
      : raws.map((r) =>
        sensor(rawText(r.name ?? ""), rawText(r.value ?? ""), rawText(r.type ?? ""))
      );
    return {
      structured: { sensors },
      text: sensors.length ? renderTable(sensors, ["name", "value", "unit"]) : "(no sensors)",
    };
  },
});

function sensor(name: string, value: string, type: string): z.infer<typeof SENSOR> {
  const number = leadingNumber(value);
  const suffix = value.replace(/^\s*-?\d+(?:\.\d+)?\s*/, "");
  const unit = type || (number !== undefined ? suffix : "");
  const out: z.infer<typeof SENSOR> = { name, value };
  if (number !== undefined) out.number = number;
  if (unit) out.unit = UNIT_OF[unit] ?? unit;
  return out;
}

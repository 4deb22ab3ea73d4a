/**
 * System: reboot (destructive) and health sensors (voltage, temperature,
 * fans, PSUs), whose menu is a list on RouterOS 7 and settings on 6.
 *
 * @module
 */
import * as z from "zod";
import { quoteValue } from "../../routeros/quote.ts";
import { asText, leadingNumber, raiseIfError } from "../../routeros/records.ts";
import { printStatement } from "../../routeros/scripts.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";
import { DESTRUCTIVE, planned } from "./views.ts";

/**
 * The reboot, run as a background job so no confirmation prompt waits on
 * the exec channel and the answer comes back before the router goes down.
 */
const REBOOT = `:execute script=${quoteValue("/system reboot")}`;

/** `router_reboot`. */
export const reboot: ToolDef = {
  name: "router_reboot",
  title: "Reboot the router",
  description:
    "Reboot the router now. DESTRUCTIVE: every connection through and to the router drops, and " +
    "it is unreachable for a minute or more (longer after an upgrade). Unsaved state such as " +
    "dynamic leases, connection tracking and logs in memory is lost. Returns as soon as the reboot is scheduled.",
  toolset: "system",
  input: {},
  output: {
    rebooting: z.boolean(),
    device: z.string().describe("The device being rebooted"),
  },
  annotations: DESTRUCTIVE,
  example: {},
  perDevice: true,
  async handler(_args, { client }) {
    const output = await client.run(REBOOT, "/system/reboot", false);
    raiseIfError(output);
    return {
      structured: { rebooting: true, device: client.target.title },
      text: `${client.target.title} is rebooting`,
    };
  },
  dryRun(_args, { client }) {
    return Promise.resolve(
      planned([REBOOT], { rebooting: true, device: client.target.title }),
    );
  },
};

const SENSOR = z.object({
  name: z.string().describe("Sensor name: voltage, temperature, cpu-temperature, fan1-speed, ..."),
  value: z.string().describe("Value as RouterOS shows it"),
  number: z.number().optional().describe("Numeric part of the value"),
  unit: z.string().optional().describe("Unit: V, C, RPM, W, A, ..."),
});

const UNIT_OF: Record<string, string> = { "°C": "C" };

/** `router_get_system_health`. */
export const systemHealth: ToolDef = {
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
  async handler(_args, { client }) {
    const dialect = await client.dialect();
    const singleton = dialect.major < 7;
    const output = await client.run(
      printStatement(dialect, "/system/health", { singleton }),
      "/system/health",
      true,
    );
    raiseIfError(output);
    const raws = client.parseRead(dialect, {
      path: "/system/health",
      keys: ["name", "value", "type"],
      singleton,
    }, output);
    const sensors = singleton
      ? Object.entries(raws[0] ?? {}).map(([name, value]) => sensor(name, asText(value) ?? "", ""))
      : raws.map((r) => sensor(asText(r.name) ?? "", asText(r.value) ?? "", asText(r.type) ?? ""));
    return {
      structured: { sensors },
      text: sensors.length ? renderTable(sensors, ["name", "value", "unit"]) : "(no sensors)",
    };
  },
};

function sensor(name: string, value: string, type: string) {
  const number = leadingNumber(value);
  const suffix = value.replace(/^\s*-?\d+(?:\.\d+)?\s*/, "");
  const unit = type || (number !== undefined ? suffix : "");
  const out: z.infer<typeof SENSOR> = { name, value };
  if (number !== undefined) out.number = number;
  if (unit) out.unit = UNIT_OF[unit] ?? unit;
  return out;
}

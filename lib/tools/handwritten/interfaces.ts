/**
 * Interface snapshots: traffic rates (`monitor-traffic once`) and PoE
 * status (`poe monitor once`), one exec for all interfaces asked.
 *
 * @module
 */
import * as z from "zod";
import type { Dialect } from "../../routeros/dialect.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import {
  asNumber,
  asText,
  leadingNumber,
  parseRecords,
  raiseIfError,
} from "../../routeros/records.ts";
import { commandLine, putRecords } from "../../routeros/scripts.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";
import { outputError } from "../../routeros/parse_json.ts";

const NAMES = z.array(z.string().min(1).max(255)).min(1).max(32);

/** One `monitor once as-value` per interface, printed record by record. */
function monitorScript(
  dialect: Dialect,
  path: string,
  names: readonly string[],
  keys: readonly string[],
): string {
  return names.map((name) =>
    putRecords(
      dialect,
      `[${commandLine(path, { positional: name, switches: ["once", "as-value"] })}]`,
      false,
      keys,
    )
  ).join("; ");
}

/** The records of a monitor script: exactly one per interface, in order. */
function monitorRecords(dialect: Dialect, output: string, count: number): RawItem[] {
  raiseIfError(output);
  const records = dialect.json
    ? output.split("\n").filter((l) => l.trim() !== "").flatMap((l) => parseRecords(dialect, l))
    : parseRecords(dialect, output);
  if (records.length !== count) throw outputError(output);
  return records;
}

const RATES = {
  "rx-bits-per-second": "rx_bits_per_second",
  "tx-bits-per-second": "tx_bits_per_second",
  "rx-packets-per-second": "rx_packets_per_second",
  "tx-packets-per-second": "tx_packets_per_second",
  "rx-drops-per-second": "rx_drops_per_second",
  "tx-drops-per-second": "tx_drops_per_second",
  "rx-errors-per-second": "rx_errors_per_second",
  "tx-errors-per-second": "tx_errors_per_second",
} as const;

/** `router_interface_traffic`. */
export const interfaceTraffic: ToolDef = {
  name: "router_interface_traffic",
  title: "Interface traffic snapshot",
  description:
    "Current traffic rates of one or more interfaces (RouterOS monitor-traffic, sampled once): " +
    "rx/tx bits and packets per second, plus drops and errors per second where reported.",
  toolset: "interfaces",
  input: {
    interfaces: NAMES.describe('Interface names, e.g. ["ether1", "bridge"] (1-32)'),
  },
  output: {
    items: z.array(z.object({
      name: z.string(),
      rx_bits_per_second: z.number(),
      tx_bits_per_second: z.number(),
      rx_packets_per_second: z.number(),
      tx_packets_per_second: z.number(),
      rx_drops_per_second: z.number().optional(),
      tx_drops_per_second: z.number().optional(),
      rx_errors_per_second: z.number().optional(),
      tx_errors_per_second: z.number().optional(),
    })),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interfaces: ["ether1", "bridge"] },
  async handler(args, { client }) {
    const names = args.interfaces as string[];
    const dialect = await client.dialect();
    const path = "/interface/monitor-traffic";
    const output = await client.run(
      monitorScript(dialect, path, names, Object.keys(RATES)),
      path,
      true,
    );
    const records = monitorRecords(dialect, output, names.length);
    const items = records.map((r, i) => {
      const item: Record<string, unknown> = { name: names[i] };
      for (const [ros, key] of Object.entries(RATES)) {
        const n = asNumber(r[ros]);
        if (n !== undefined) item[key] = n;
      }
      for (const key of Object.values(RATES).slice(0, 4)) {
        if (item[key] === undefined) throw outputError(output);
      }
      return item;
    });
    return {
      structured: { items },
      text: renderTable(items, ["name", ...Object.values(RATES).slice(0, 4)]),
    };
  },
};

const POE_KEYS = [
  "poe-out",
  "poe-out-status",
  "poe-out-voltage",
  "poe-out-current",
  "poe-out-power",
];

/** `router_poe_monitor`. */
export const poeMonitor: ToolDef = {
  name: "router_poe_monitor",
  title: "PoE status snapshot",
  description:
    "PoE-out status of one or more Ethernet ports, sampled once: mode, status (powered-on, " +
    "waiting-for-load, short-circuit...), voltage, current and power. Only on PoE-capable hardware.",
  toolset: "interfaces",
  input: {
    interfaces: NAMES.describe('Ethernet port names, e.g. ["ether2"] (1-32)'),
  },
  output: {
    items: z.array(z.object({
      name: z.string(),
      poe_out: z.string().optional().describe("Configured mode: auto-on, forced-on or off"),
      poe_out_status: z.string().optional().describe("powered-on, waiting-for-load, ..."),
      voltage_v: z.number().optional(),
      current_ma: z.number().optional(),
      power_w: z.number().optional(),
    })),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interfaces: ["ether5"] },
  async handler(args, { client }) {
    const names = args.interfaces as string[];
    const dialect = await client.dialect();
    const path = "/interface/ethernet/poe/monitor";
    const output = await client.run(monitorScript(dialect, path, names, POE_KEYS), path, true);
    const records = monitorRecords(dialect, output, names.length);
    const items = records.map((r, i) => {
      const item: Record<string, unknown> = {
        name: names[i],
        poe_out: asText(r["poe-out"]),
        poe_out_status: asText(r["poe-out-status"]),
        voltage_v: leadingNumber(r["poe-out-voltage"]),
        current_ma: leadingNumber(r["poe-out-current"]),
        power_w: leadingNumber(r["poe-out-power"]),
      };
      return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined));
    });
    return {
      structured: { items },
      text: renderTable(items, [
        "name",
        "poe_out",
        "poe_out_status",
        "voltage_v",
        "current_ma",
        "power_w",
      ]),
    };
  },
};

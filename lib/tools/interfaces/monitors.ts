/**
 * Interface snapshots: traffic rates (`monitor-traffic once`) and PoE
 * status (`poe monitor once`), one exec for all interfaces asked.
 *
 * @module
 */
import * as z from "zod";
import { bracket, cmd } from "../../routeros/command.ts";
import { unparsable } from "../../routeros/errors.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { rawText } from "../../routeros/schema/convert.ts";
import type { ToolContext } from "../tool.ts";
import { asNumber, leadingNumber } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

const NAMES = z.array(z.string().min(1).max(255)).min(1).max(32);

/** One `monitor once as-value` per interface, each record read back in order. */
async function monitor(
  ctx: ToolContext,
  path: string,
  names: readonly string[],
  keys: readonly string[],
): Promise<RawItem[]> {
  const script = await ctx.client.script();
  const sections = names.map((name) =>
    script.records(
      bracket(cmd(path, "", { positional: name, switches: ["once", "as-value"] })),
      false,
      keys,
    )
  );
  const out = await ctx.client.run(script, { idempotent: true, what: path });
  return sections.map((s, i) => {
    const records = out.get(s);
    if (records.length !== 1) {
      throw unparsable(JSON.stringify(records), `no reading for ${names[i]}`);
    }
    return records[0];
  });
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

const RATE_ITEM = z.object({
  name: z.string(),
  rx_bits_per_second: z.number(),
  tx_bits_per_second: z.number(),
  rx_packets_per_second: z.number(),
  tx_packets_per_second: z.number(),
  rx_drops_per_second: z.number().optional(),
  tx_drops_per_second: z.number().optional(),
  rx_errors_per_second: z.number().optional(),
  tx_errors_per_second: z.number().optional(),
});

/** `router_interface_traffic`. */
export const interfaceTraffic = defineTool({
  name: "router_interface_traffic",
  title: "Interface traffic snapshot",
  description:
    "Current traffic rates of one or more interfaces (RouterOS monitor-traffic, sampled once): " +
    "rx/tx bits and packets per second, plus drops and errors per second where reported.",
  toolset: "interfaces",
  input: { interfaces: NAMES.describe('Interface names, e.g. ["ether1", "bridge"] (1-32)') },
  output: { items: z.array(RATE_ITEM) },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interfaces: ["ether1", "bridge"] },
  async handler(args, ctx) {
    const records = await monitor(
      ctx,
      "/interface/monitor-traffic",
      args.interfaces,
      Object.keys(RATES),
    );
    const items = records.map((r, i) => {
      const item: Record<string, unknown> = { name: args.interfaces[i] };
      for (const [ros, key] of Object.entries(RATES)) {
        const n = asNumber(r[ros]);
        if (n !== undefined) item[key] = n;
      }
      for (const key of Object.values(RATES).slice(0, 4)) {
        if (item[key] === undefined) {
          throw unparsable(JSON.stringify(r), `no ${key} for ${args.interfaces[i]}`);
        }
      }
      return item as z.infer<typeof RATE_ITEM>;
    });
    return {
      structured: { items },
      text: renderTable(items, ["name", ...Object.values(RATES).slice(0, 4)]),
    };
  },
});

const POE_KEYS = [
  "poe-out",
  "poe-out-status",
  "poe-out-voltage",
  "poe-out-current",
  "poe-out-power",
];

const POE_ITEM = z.object({
  name: z.string(),
  poe_out: z.string().optional().describe("Configured mode: auto-on, forced-on or off"),
  poe_out_status: z.string().optional().describe("powered-on, waiting-for-load, ..."),
  voltage_v: z.number().optional(),
  current_ma: z.number().optional(),
  power_w: z.number().optional(),
});

/** `router_poe_monitor`. */
export const poeMonitor = defineTool({
  name: "router_poe_monitor",
  title: "PoE status snapshot",
  description:
    "PoE-out status of one or more Ethernet ports, sampled once: mode, status (powered-on, " +
    "waiting-for-load, short-circuit...), voltage, current and power. Only on PoE-capable hardware.",
  toolset: "interfaces",
  input: { interfaces: NAMES.describe('Ethernet port names, e.g. ["ether2"] (1-32)') },
  output: { items: z.array(POE_ITEM) },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interfaces: ["ether5"] },
  async handler(args, ctx) {
    const records = await monitor(
      ctx,
      "/interface/ethernet/poe/monitor",
      args.interfaces,
      POE_KEYS,
    );
    const items = records.map((r, i) => {
      const item = {
        name: args.interfaces[i],
        poe_out: r["poe-out"] === undefined ? undefined : rawText(r["poe-out"]),
        poe_out_status: r["poe-out-status"] === undefined
          ? undefined
          : rawText(r["poe-out-status"]),
        voltage_v: leadingNumber(r["poe-out-voltage"]),
        current_ma: leadingNumber(r["poe-out-current"]),
        power_w: leadingNumber(r["poe-out-power"]),
      };
      return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as z.infer<
        typeof POE_ITEM
      >;
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
});

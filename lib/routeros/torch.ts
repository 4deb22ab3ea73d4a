/**
 * `/tool torch`: the command for a bounded run and the flows it prints.
 *
 * Torch has no usable value form: tik4net measured on 7.23.2 that
 * `[/tool torch ... as-value]` gives nothing, with `once` refused
 * (`bad parameter once`). Its table is read instead (`console_table.ts`),
 * as the command prints it with `duration` and `freeze-frame-interval`
 * (a frame each interval; `duration` at least twice the interval, or no
 * frame is flushed, tik4net's `CliMonitorVerbs.cs`):
 *
 * - every release takes the breakdown arguments: `src-address=0.0.0.0/0`
 *   shows the SRC-ADDRESS column, `port=any` SRC-PORT and DST-PORT,
 *   `ip-protocol=any` MAC-PROTOCOL and IP-PROTOCOL (tik4net's 6.49.13
 *   capture), a prefix or a value filters by it too;
 * - 7.16 and later also take `proplist` (the trees), which fixes the
 *   columns and keeps the table narrow (an exec console is 80 columns
 *   wide); 6.x refuses it (tik4net), 7.12 to 7.15 lack it (the trees).
 *
 * Rates print with units (`3.5kbps`), packet rates as numbers, a port with
 * its service (`8291 (winbox)`); 6.x ends each frame with a totals row.
 *
 * @module
 */
import { cmd } from "./command.ts";
import { bitsPerSecond, lastTableFrame } from "./console_table.ts";
import type { Dialect } from "./dialect.ts";
import { unparsable } from "./errors.ts";
import { inRange, type ReleaseRange } from "./release.ts";

/** Releases whose torch takes `proplist` (the trees: 7.16.2 has it, 7.13.5 not). */
const PROPLIST_FROM: ReleaseRange = { from: "7.16" };

/** What a flow's rows are told apart by. */
export const TORCH_BREAKDOWNS = [
  "src-address",
  "dst-address",
  "port",
  "protocol",
  "mac-protocol",
  "vlan",
] as const;

/** One breakdown. */
export type TorchBreakdown = typeof TORCH_BREAKDOWNS[number];

/** A bounded torch run. */
export interface TorchRun {
  interface: string;
  durationS: number;
  breakdown: readonly TorchBreakdown[];
  /** Filters (each also breaks the table down by its field). */
  srcAddress?: string;
  dstAddress?: string;
  port?: number;
  protocol?: string;
}

/** One row of torch: a flow (or the flows that share the columns shown). */
export interface TorchFlow {
  mac_protocol?: string;
  vlan_id?: number;
  ip_protocol?: string;
  dscp?: number;
  src_address?: string;
  src_port?: number;
  dst_address?: string;
  dst_port?: number;
  /** The service RouterOS names for a port (`https`). */
  service?: string;
  tx_bps: number;
  rx_bps: number;
  tx_packets_per_s: number;
  rx_packets_per_s: number;
}

/** Torch's columns in the console's order (MikroTik's Torch page; VLAN-ID's place is a guess). */
const COLUMNS = [
  "MAC-PROTOCOL",
  "VLAN-ID",
  "IP-PROTOCOL",
  "DSCP",
  "SRC-ADDRESS",
  "SRC-PORT",
  "DST-ADDRESS",
  "DST-PORT",
  "TX",
  "RX",
  "TX-PACKETS",
  "RX-PACKETS",
  "CPU",
];

/** The columns each breakdown shows (`proplist` names). */
const SHOWN: Record<TorchBreakdown, string[]> = {
  "src-address": ["src-address"],
  "dst-address": ["dst-address"],
  port: ["src-port", "dst-port"],
  protocol: ["ip-protocol"],
  "mac-protocol": ["mac-protocol"],
  vlan: ["vlan-id"],
};

/** Seconds between frames. */
const FRAME_S = 1;

/** The torch command of a bounded run on `dialect`'s release. */
export function torchCommand(dialect: Dialect, run: TorchRun): string {
  const by = new Set(run.breakdown);
  const arg = (filter: string | number | undefined, breakdown: TorchBreakdown, any: string) =>
    filter !== undefined ? String(filter) : by.has(breakdown) ? any : undefined;
  const proplist = inRange(dialect.release, PROPLIST_FROM);
  const columns = [...run.breakdown.flatMap((b) => SHOWN[b])];
  if (run.srcAddress !== undefined && !by.has("src-address")) columns.push("src-address");
  if (run.dstAddress !== undefined && !by.has("dst-address")) columns.push("dst-address");
  if (run.port !== undefined && !by.has("port")) columns.push("src-port", "dst-port");
  if (run.protocol !== undefined && !by.has("protocol")) columns.push("ip-protocol");
  columns.push("tx", "rx", "tx-packets", "rx-packets");
  return cmd("/tool", "torch", {
    args: {
      interface: run.interface,
      "src-address": arg(run.srcAddress, "src-address", "0.0.0.0/0"),
      "dst-address": arg(run.dstAddress, "dst-address", "0.0.0.0/0"),
      port: arg(run.port, "port", "any"),
      "ip-protocol": arg(run.protocol, "protocol", "any"),
      "mac-protocol": arg(undefined, "mac-protocol", "any"),
      "vlan-id": arg(undefined, "vlan", "any"),
      duration: `${run.durationS}s`,
      "freeze-frame-interval": `${FRAME_S}s`,
      proplist: proplist ? columns.join(",") : undefined,
    },
  });
}

/** `8291 (winbox)` as a port and its service. */
function portOf(text: string | undefined): { port?: number; service?: string } {
  const m = /^(\d+)(?: \(([^)]*)\))?$/.exec(text ?? "");
  return m ? { port: Number(m[1]), ...(m[2] ? { service: m[2] } : {}) } : {};
}

function count(text: string | undefined, what: string, all: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw unparsable(all, `the ${what} of a torch row was not understood`);
  return Number(text);
}

/**
 * The flows of the last frame torch printed, and the totals row where the
 * release prints one. Fails on output that is not torch's table.
 */
export function parseTorch(text: string): { flows: TorchFlow[]; totals?: TorchFlow } {
  const frame = lastTableFrame(text, COLUMNS);
  if (!frame || !frame.columns.includes("TX")) {
    throw unparsable(text || "(nothing)", "torch printed no table that was understood");
  }
  const flows: TorchFlow[] = [];
  let totals: TorchFlow | undefined;
  for (const row of frame.rows) {
    const rate = (k: string) => {
      const v = bitsPerSecond(row[k]);
      if (v === undefined) {
        throw unparsable(text, `the ${k} rate of a torch row was not understood`);
      }
      return v;
    };
    const dst = portOf(row["DST-PORT"]);
    const flow: TorchFlow = Object.fromEntries(
      Object.entries({
        mac_protocol: row["MAC-PROTOCOL"],
        vlan_id: count(row["VLAN-ID"], "VLAN ID", text),
        ip_protocol: row["IP-PROTOCOL"],
        dscp: count(row.DSCP, "DSCP", text),
        src_address: row["SRC-ADDRESS"],
        src_port: portOf(row["SRC-PORT"]).port,
        dst_address: row["DST-ADDRESS"],
        dst_port: dst.port,
        service: dst.service ?? portOf(row["SRC-PORT"]).service,
        tx_bps: rate("TX"),
        rx_bps: rate("RX"),
        tx_packets_per_s: count(row["TX-PACKETS"], "TX-PACKETS", text) ?? 0,
        rx_packets_per_s: count(row["RX-PACKETS"], "RX-PACKETS", text) ?? 0,
      }).filter(([, v]) => v !== undefined),
    ) as unknown as TorchFlow;
    // A row with rates only, after rows that have more, is the totals row (6.x).
    const rateOnly = Object.keys(row).every((k) =>
      ["TX", "RX", "TX-PACKETS", "RX-PACKETS"].includes(k)
    );
    if (rateOnly && flows.length > 0 && frame.columns.length > 4) totals = flow;
    else flows.push(flow);
  }
  return totals ? { flows, totals } : { flows };
}

/**
 * `/tool bandwidth-test`: the command for a bounded test and the result it
 * prints.
 *
 * The monitor's `key: value` block is read, as MikroTik's Bandwidth Test
 * pages print it (right-aligned on the colon): `status: done testing`,
 * `duration: 11s`, `tx-current: 50.3Mbps`, `tx-10-second-average`,
 * `tx-total-average`, the same three for `rx-`, `lost-packets: 3` (UDP,
 * what the client receives, in the last second), `random-data: no`,
 * `direction: both`, `tx-size`/`rx-size: 1500` (UDP), and on RouterOS 7
 * `connection-count: 20`, `local-cpu-load: 9%`, `remote-cpu-load: 0%`.
 * Over an exec channel the block is printed again each interval (a
 * client of RouterOS over ssh2 exec keeps the last value of each key); the
 * last block is the result. A failed test ends with its reason as the
 * status (the CLI reference's values: `can not connect`, `authentication
 * failed`, `disconnected`, ...). `as-value` is not used: no capture of it
 * was found.
 *
 * @module
 */
import { cmd } from "./command.ts";
import { bitsPerSecond } from "./console_table.ts";
import { classifyError, outputError, unparsable } from "./errors.ts";
import { durationMs } from "./values.ts";

/** A bounded test. */
export interface BandwidthRun {
  address: string;
  protocol: "tcp" | "udp";
  direction: "receive" | "transmit" | "both";
  durationS: number;
  /** Caps in bits per second. */
  localTxSpeed?: number;
  remoteTxSpeed?: number;
  connectionCount?: number;
  user?: string;
  password?: string;
}

/** Rates of one direction, in bits per second. */
export interface Rates {
  current_bps: number;
  avg_10s_bps?: number;
  avg_total_bps?: number;
}

/** What the test reported last. */
export interface BandwidthResult {
  status: string;
  duration_s?: number;
  tx?: Rates;
  rx?: Rates;
  lost_packets?: number;
  random_data?: boolean;
  direction?: string;
  tx_size?: number;
  rx_size?: number;
  connection_count?: number;
  local_cpu_load_percent?: number;
  remote_cpu_load_percent?: number;
}

/** The statuses of a test that ran to its end, or runs. */
export const GOOD_STATUSES = ["done testing", "running"];

/** The bandwidth-test command of a bounded test. */
export function bandwidthCommand(run: BandwidthRun): string {
  return cmd("/tool", "bandwidth-test", {
    args: {
      address: run.address,
      protocol: run.protocol,
      direction: run.direction,
      duration: `${run.durationS}s`,
      "local-tx-speed": run.localTxSpeed,
      "remote-tx-speed": run.remoteTxSpeed,
      "connection-count": run.connectionCount,
      user: run.user,
      password: run.password,
    },
  });
}

const LINE = /^\s*([a-z0-9-]+): (.*?)\s*$/;
const PAGER = /^\s*-- \[Q quit/;

/** The last block of the monitor's output. Fails on anything else. */
export function parseBandwidth(text: string): BandwidthResult {
  const blocks: Record<string, string>[] = [];
  for (const line of text.replace(/\r/g, "").split("\n")) {
    if (line.trim() === "" || PAGER.test(line)) continue;
    // `failure: not allowed by device-mode` (7.17+ with the test turned off) and the like.
    if (classifyError(line) !== null) throw outputError(line.trim());
    const m = LINE.exec(line);
    if (!m) throw unparsable(text, "the bandwidth test's output was not understood");
    if (m[1] === "status" || blocks.length === 0) blocks.push({});
    blocks.at(-1)![m[1]] = m[2];
  }
  const b = blocks.at(-1);
  if (!b?.status) throw unparsable(text || "(nothing)", "the bandwidth test reported no status");
  const num = (k: string) => {
    const v = b[k];
    if (v === undefined) return undefined;
    const n = Number(v.replace(/%$/, ""));
    if (!Number.isFinite(n)) {
      throw unparsable(text, `${k} of the bandwidth test was not understood`);
    }
    return n;
  };
  const rate = (k: string) => {
    if (b[k] === undefined) return undefined;
    const v = bitsPerSecond(b[k]);
    if (v === undefined) throw unparsable(text, `${k} of the bandwidth test was not understood`);
    return v;
  };
  const rates = (side: "tx" | "rx"): Rates | undefined => {
    const current = rate(`${side}-current`);
    if (current === undefined) return undefined;
    return dropUndefined({
      current_bps: current,
      avg_10s_bps: rate(`${side}-10-second-average`),
      avg_total_bps: rate(`${side}-total-average`),
    });
  };
  const seconds = b.duration === undefined ? undefined : durationMs(b.duration);
  return dropUndefined({
    status: b.status,
    duration_s: seconds === undefined ? undefined : seconds / 1000,
    tx: rates("tx"),
    rx: rates("rx"),
    lost_packets: num("lost-packets"),
    random_data: b["random-data"] === undefined ? undefined : b["random-data"] === "yes",
    direction: b.direction,
    tx_size: num("tx-size"),
    rx_size: num("rx-size"),
    connection_count: num("connection-count"),
    local_cpu_load_percent: num("local-cpu-load"),
    remote_cpu_load_percent: num("remote-cpu-load"),
  });
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

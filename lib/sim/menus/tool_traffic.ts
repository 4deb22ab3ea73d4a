/**
 * `/tool torch` and `/tool sniffer quick` over the simulated router's
 * traffic: each host of `/ip/arp` talks through its interface with the
 * internet (HTTPS, a download), with the router's DNS server and pings
 * the router, at fixed rates. Test data, the same on every run.
 *
 * Arguments by release are those of the real trees (`../shared/fidelity`):
 * torch takes `proplist` from 7.16, `sniffer quick` `rows` and `proplist`
 * from 7.16; 6.x follows MikroTik's v6 manual. Both run for `duration` (or
 * until stopped) and print the tables of `tool_tables.ts`:
 *
 * - torch: the columns of the flows' breakdown (`src-address=0.0.0.0/0`
 *   gives SRC-ADDRESS, `port=any` SRC-PORT and DST-PORT, `ip-protocol=any`
 *   MAC-PROTOCOL and IP-PROTOCOL, as tik4net's 6.49.13 capture shows); a
 *   7.x torch given no breakdown breaks flows down by everything (MikroTik's
 *   Torch page); `proplist` picks the columns. One frame per
 *   `freeze-frame-interval` (default 1 s), each ended by the pager line;
 *   6.x adds the totals row. `as-value` prints nothing, as tik4net measured
 *   on 7.23.2.
 * - sniffer quick: one row per packet, the columns of a 7.23 capture
 *   (INTERFACE, TIME, NUM, DIR, SRC-MAC, DST-MAC, SRC-ADDRESS, DST-ADDRESS,
 *   PROTOCOL, SIZE, CPU), the last `rows` packets (20 by default, the
 *   `quick-rows` setting), printed once when it ends. The 6.x table is the
 *   same without a `Columns:` line: no 6.x capture was found, so it is not
 *   backed by one; neither is the single frame of 7.x (real consoles
 *   redraw it).
 *
 * @module
 */
import type { CommandCtx, CommandDef, LooseCommand } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { parseIp4, parsePrefix4 } from "../ipaddr.ts";
import { toStr } from "../values.ts";
import {
  durationArg,
  PAGER_LINE,
  portText,
  rateText,
  tableLines,
  type ToolColumn,
} from "../tool_tables.ts";

/** One conversation through an interface. */
interface Flow {
  iface: string;
  ipProto: "tcp" | "udp" | "icmp";
  /** The host on the far side of the interface, and its port. */
  host: string;
  hostMac: string;
  hostPort?: number;
  /** The other end, and its port. */
  peer: string;
  peerPort?: number;
  routerMac: string;
  /** Bits per second the interface sends to the host, and receives from it. */
  tx: number;
  rx: number;
  /** Frame sizes each way. */
  txSize: number;
  rxSize: number;
}

function interfaceNames(st: RouterState): Set<string> {
  return new Set(st.items("/interface").map((i) => i.name));
}

function checkInterface(st: RouterState, name: string): void {
  if (!interfaceNames(st).has(name)) throw fail("input does not match any value of interface");
}

/** The flows of every host in `/ip/arp`. */
function flows(st: RouterState): Flow[] {
  const out: Flow[] = [];
  const macs = new Map(st.items("/interface").map((i) => [i.name, i["mac-address"] ?? ""]));
  const own = st.items("/ip/address");
  for (const a of st.items("/ip/arp")) {
    if (!a.address || !a["mac-address"] || a.disabled === "true") continue;
    const k = Number(a.address.split(".").at(-1)) || 1;
    const routerIp = own.find((x) => x.interface === a.interface)?.address.split("/")[0] ??
      a.address;
    const base = {
      iface: a.interface,
      host: a.address,
      hostMac: a["mac-address"],
      routerMac: macs.get(a.interface) ?? "",
    };
    const download = 1_200_000 * ((k % 3) + 1);
    out.push(
      {
        ...base,
        ipProto: "tcp",
        hostPort: 49152 + k * 7,
        peer: "93.184.216.34",
        peerPort: 443,
        tx: download,
        rx: Math.round(download / 25),
        txSize: 1514,
        rxSize: 66,
      },
      {
        ...base,
        ipProto: "udp",
        hostPort: 50000 + k,
        peer: routerIp,
        peerPort: 53,
        tx: 1240,
        rx: 680,
        txSize: 155,
        rxSize: 85,
      },
      { ...base, ipProto: "icmp", peer: routerIp, tx: 784, rx: 784, txSize: 98, rxSize: 98 },
    );
  }
  return out;
}

// ---- torch ----

/** Torch's columns in the console's order (MikroTik's Torch page). */
const TORCH_COLUMNS: ToolColumn[] = [
  { name: "MAC-PROTOCOL" },
  { name: "IP-PROTOCOL" },
  { name: "DSCP", right: true },
  { name: "SRC-ADDRESS" },
  { name: "SRC-PORT", right: true },
  { name: "DST-ADDRESS" },
  { name: "DST-PORT" },
  { name: "TX", right: true, width6: 10 },
  { name: "RX", right: true, width6: 10 },
  { name: "TX-PACKETS", right: true },
  { name: "RX-PACKETS", right: true },
];

/** The columns each breakdown argument adds. */
const BREAKDOWN: Record<string, string[]> = {
  "src-address": ["SRC-ADDRESS"],
  "src-address6": ["SRC-ADDRESS"],
  "dst-address": ["DST-ADDRESS"],
  "dst-address6": ["DST-ADDRESS"],
  port: ["SRC-PORT", "DST-PORT"],
  "ip-protocol": ["MAC-PROTOCOL", "IP-PROTOCOL"],
  "mac-protocol": ["MAC-PROTOCOL"],
  dscp: ["DSCP"],
};
const RATES = ["TX", "RX", "TX-PACKETS", "RX-PACKETS"];

/** Whether `ip` is in a prefix argument (`0.0.0.0/0`, `10.0.0.0/8`, `10.0.0.1`). */
function inPrefix(ip: string, arg: string): boolean {
  const p = parsePrefix4(arg.includes("/") ? arg : `${arg}/32`);
  const a = parseIp4(ip);
  if (!p || a === null) return false;
  const mask = p.len === 0 ? 0 : (~0 << (32 - p.len)) >>> 0;
  return ((a & mask) >>> 0) === ((p.ip & mask) >>> 0);
}

function torchRun(c: CommandCtx): void {
  const st = c.st;
  const iface = c.named.get("interface") ??
    (c.positional[0] !== undefined ? toStr(c.positional[0]) : "");
  if (!iface) throw fail("missing value(s) of argument(s) interface");
  checkInterface(st, iface);
  const duration = durationArg(c.named.get("duration"));
  if (c.named.has("duration") && duration === undefined) {
    throw fail("invalid value for argument duration");
  }
  const interval = durationArg(c.named.get("freeze-frame-interval")) ?? 1000;
  c.runFor(duration ?? Infinity);
  // tik4net, 7.23.2: the value form prints nothing.
  if (c.switches.has("as-value") || duration === undefined) return;
  const n = c.named;
  let wanted = new Set(Object.keys(BREAKDOWN).filter((k) => n.has(k)).flatMap((k) => BREAKDOWN[k]));
  if (wanted.size === 0 && !st.v6) wanted = new Set(TORCH_COLUMNS.map((x) => x.name));
  const proplist = n.get("proplist");
  let columns = TORCH_COLUMNS.filter((x) => wanted.has(x.name) || RATES.includes(x.name));
  if (proplist !== undefined) {
    const asked = new Set(proplist.split(",").map((p) => p.trim().toUpperCase()));
    columns = TORCH_COLUMNS.filter((x) => asked.has(x.name));
  }
  const port = n.get("port");
  const proto = n.get("ip-protocol");
  const matched = flows(st).filter((f) =>
    f.iface === iface &&
    (!n.has("src-address") || inPrefix(f.host, n.get("src-address")!)) &&
    (!n.has("dst-address") || inPrefix(f.peer, n.get("dst-address")!)) &&
    (!port || port === "any" || [f.hostPort, f.peerPort].includes(Number(port))) &&
    (!proto || proto === "any" || proto === f.ipProto)
  );
  // Flows with the same shown columns are one row.
  const rows = new Map<string, Record<string, string>>();
  const sums = new Map<string, number[]>();
  for (const f of matched) {
    const cells: Record<string, string> = {
      "MAC-PROTOCOL": "ip",
      "IP-PROTOCOL": f.ipProto,
      DSCP: "0",
      "SRC-ADDRESS": f.host,
      "SRC-PORT": f.hostPort === undefined ? "" : String(f.hostPort),
      "DST-ADDRESS": f.peer,
      "DST-PORT": f.peerPort === undefined ? "" : portText(f.peerPort),
    };
    const key = columns.filter((x) => !RATES.includes(x.name)).map((x) => cells[x.name]).join("|");
    rows.set(key, cells);
    const s = sums.get(key) ?? [0, 0, 0, 0];
    s[0] += f.tx;
    s[1] += f.rx;
    s[2] += Math.round(f.tx / 8 / f.txSize);
    s[3] += Math.round(f.rx / 8 / f.rxSize);
    sums.set(key, s);
  }
  const table = [...rows].map(([key, cells]) => {
    const [tx, rx, txp, rxp] = sums.get(key)!;
    return {
      ...cells,
      TX: rateText(tx),
      RX: rateText(rx),
      "TX-PACKETS": `${txp}`,
      "RX-PACKETS": `${rxp}`,
    };
  });
  // 6.x ends a breakdown with the totals row (with no breakdown, the one row is the totals).
  if (st.v6 && proplist === undefined && wanted.size > 0) {
    const t = [...sums.values()].reduce((a, s) => a.map((x, i) => x + s[i]), [0, 0, 0, 0]);
    table.push(
      {
        TX: rateText(t[0]),
        RX: rateText(t[1]),
        "TX-PACKETS": `${t[2]}`,
        "RX-PACKETS": `${t[3]}`,
      } as (typeof table)[number],
    );
  }
  const frames = Math.max(1, Math.floor(duration / Math.max(interval, 1)));
  for (let i = 0; i < frames; i++) {
    for (const l of tableLines(columns, table, st.v6)) c.print(l);
    c.print(PAGER_LINE);
  }
}

const TORCH_ARGS = [
  "interface",
  "src-address",
  "dst-address",
  "src-address6",
  "dst-address6",
  "port",
  "ip-protocol",
  "mac-protocol",
  "vlan-id",
  "dscp",
  "cpu",
  "duration",
  "freeze-frame-interval",
];

const TORCH6: CommandDef = {
  args: TORCH_ARGS,
  positional: 1,
  positionalArg: "interface",
  run: torchRun,
};
const TORCH7: CommandDef = {
  ...TORCH6,
  args: [...TORCH_ARGS, "proplist"],
  argReleases: { proplist: { from: "7.16" } },
  switches: ["as-value", "without-paging"],
};

// ---- sniffer quick ----

const SNIFFER_COLUMNS: ToolColumn[] = [
  { name: "INTERFACE" },
  { name: "TIME", right: true },
  { name: "NUM", right: true },
  { name: "DIR" },
  { name: "SRC-MAC" },
  { name: "DST-MAC" },
  { name: "SRC-ADDRESS" },
  { name: "DST-ADDRESS" },
  { name: "PROTOCOL" },
  { name: "SIZE", right: true },
  { name: "CPU", right: true },
];

/** An address with its port (`8.8.8.8:443 (https)`), as the sniffer shows it. */
function endpoint(ip: string, port: number | undefined): string {
  return port === undefined ? ip : `${ip}:${portText(port)}`;
}

/** `13.06`, `36.6`: seconds with at most three decimals. */
function secondsText(ms: number): string {
  return String(Math.round(ms) / 1000);
}

function snifferRun(c: CommandCtx): void {
  const st = c.st;
  const n = c.named;
  const duration = durationArg(n.get("duration"));
  if (n.has("duration") && duration === undefined) {
    throw fail("invalid value for argument duration");
  }
  const ifaces = n.get("interface")?.split(",").filter(Boolean);
  for (const i of ifaces ?? []) checkInterface(st, i);
  const rows = Number(n.get("rows") ?? "20");
  if (!Number.isInteger(rows) || rows < 1) throw fail("invalid value for argument rows");
  c.runFor(duration ?? Infinity);
  if (c.switches.has("as-value") || duration === undefined) return;
  const ips = n.get("ip-address")?.split(",").filter(Boolean);
  const ports = n.get("port")?.split(",").filter(Boolean).map(Number);
  const protos = n.get("ip-protocol")?.split(",").filter(Boolean);
  const direction = n.get("direction") ?? "any";
  const packets: Record<string, string>[] = [];
  const all = flows(st).filter((f) => !ifaces || ifaces.includes(f.iface));
  for (let second = 0; second * 1000 < duration; second++) {
    all.forEach((f, i) => {
      const at = second * 1000 + 13 + i * 17;
      if (at >= duration) return;
      const pass = (!ips || ips.some((a) => inPrefix(f.host, a) || inPrefix(f.peer, a))) &&
        (!ports || ports.some((p) => p === f.hostPort || p === f.peerPort)) &&
        (!protos || protos.includes(f.ipProto));
      if (!pass) return;
      const proto = `ip:${f.ipProto}`;
      if (direction !== "tx") {
        packets.push({
          INTERFACE: f.iface,
          TIME: secondsText(at),
          DIR: "<-",
          "SRC-MAC": f.hostMac,
          "DST-MAC": f.routerMac,
          "SRC-ADDRESS": endpoint(f.host, f.hostPort),
          "DST-ADDRESS": endpoint(f.peer, f.peerPort),
          PROTOCOL: proto,
          SIZE: String(f.rxSize),
          CPU: "0",
        });
      }
      if (direction !== "rx") {
        packets.push({
          INTERFACE: f.iface,
          TIME: secondsText(at + 1),
          DIR: "->",
          "SRC-MAC": f.routerMac,
          "DST-MAC": f.hostMac,
          "SRC-ADDRESS": endpoint(f.peer, f.peerPort),
          "DST-ADDRESS": endpoint(f.host, f.hostPort),
          PROTOCOL: proto,
          SIZE: String(f.txSize),
          CPU: "0",
        });
      }
    });
  }
  packets.forEach((p, i) => (p.NUM = String(i)));
  const proplist = n.get("proplist");
  const columns = proplist === undefined
    ? SNIFFER_COLUMNS
    : SNIFFER_COLUMNS.filter((x) =>
      proplist.split(",").map((p) => p.trim().toUpperCase()).includes(x.name)
    );
  // The quick view keeps the newest `rows` packets.
  for (const l of tableLines(columns, packets.slice(-rows), st.v6)) c.print(l);
}

const SNIFFER_ARGS = [
  "interface",
  "ip-address",
  "src-ip-address",
  "dst-ip-address",
  "ipv6-address",
  "mac-address",
  "src-mac-address",
  "dst-mac-address",
  "mac-protocol",
  "ip-protocol",
  "port",
  "src-port",
  "dst-port",
  "direction",
  "vlan-id",
  "cpu",
  "size",
  "operator-between-entries",
  "duration",
  "freeze-frame-interval",
];

const SNIFFER6: CommandDef = { args: SNIFFER_ARGS, policy: "sniff", run: snifferRun };
const SNIFFER7: CommandDef = {
  ...SNIFFER6,
  args: [...SNIFFER_ARGS, "rows", "show-frame", "proplist"],
  argReleases: {
    rows: { from: "7.16" },
    "show-frame": { from: "7.16" },
    proplist: { from: "7.16" },
  },
  switches: ["as-value", "without-paging"],
};

/** Torch and the quick sniffer. */
export const TRAFFIC_COMMANDS: LooseCommand[] = [
  { path: "/tool", name: "torch", def: TORCH6, releases: V6 },
  { path: "/tool", name: "torch", def: TORCH7, releases: V7 },
  { path: "/tool/sniffer", name: "quick", def: SNIFFER6, releases: V6 },
  { path: "/tool/sniffer", name: "quick", def: SNIFFER7, releases: V7 },
];

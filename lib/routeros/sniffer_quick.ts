/**
 * `/tool sniffer quick`: the command for a bounded capture and the packets
 * it prints.
 *
 * Its table is read (`console_table.ts`): no value form of `quick` is
 * documented or captured. The columns are those of a 7.23 capture
 * (INTERFACE, TIME, NUM, DIR, SRC-MAC, DST-MAC, SRC-ADDRESS, DST-ADDRESS,
 * PROTOCOL, SIZE, CPU, from a public write-up checking DNS over HTTPS) and
 * of MikroTik's Packet Sniffer page (the same and FP); older releases
 * also show VLAN (a pastebin capture of unknown release). Values:
 * `8.8.8.8:443 (https)` (address, port and service), `<-` received and
 * `->` sent, `ip:tcp` (MAC and IP protocol), TIME in seconds from the
 * start.
 *
 * Arguments by release (the trees): the filters everywhere, `rows` (the
 * packets the view keeps, by default the newest 20) and `proplist` from
 * 7.16. With any filter given, only the given filters apply; without, the
 * sniffer's saved filters would (MikroTik's CLI reference), so a call
 * always names its interface.
 *
 * @module
 */
import { cmd } from "./command.ts";
import { lastTableFrame } from "./console_table.ts";
import type { Dialect } from "./dialect.ts";
import { unparsable } from "./errors.ts";
import { inRange, type ReleaseRange } from "./release.ts";

/** A bounded capture. */
export interface SnifferRun {
  interface: string;
  durationS: number;
  /** Packets kept (7.16 and later; older releases show what they show). */
  rows: number;
  ipAddress?: string;
  port?: number;
  protocol?: string;
  direction?: "any" | "rx" | "tx";
}

/** One captured packet. */
export interface SniffedPacket {
  /** Seconds since the capture started. */
  time_s: number;
  num: number;
  interface: string;
  /** `rx` received, `tx` sent. */
  direction?: "rx" | "tx";
  src_mac?: string;
  dst_mac?: string;
  src_address?: string;
  src_port?: number;
  dst_address?: string;
  dst_port?: number;
  /** Services RouterOS names for the ports (`https`). */
  service?: string;
  /** `ip:tcp`: the MAC protocol and, for IP, the IP protocol. */
  protocol?: string;
  size?: number;
  vlan?: string;
}

const COLUMNS = [
  "INTERFACE",
  "TIME",
  "NUM",
  "DIR",
  "SRC-MAC",
  "DST-MAC",
  "VLAN",
  "SRC-ADDRESS",
  "DST-ADDRESS",
  "PROTOCOL",
  "SIZE",
  "CPU",
  "FP",
];

/** The columns asked for with `proplist` (7.16 and later). */
const PROPLIST = [
  "interface",
  "time",
  "num",
  "dir",
  "src-mac",
  "dst-mac",
  "src-address",
  "dst-address",
  "protocol",
  "size",
];

/** Releases whose `quick` takes `rows` and `proplist` (the trees: 7.16.2 has them, 7.13.5 not). */
const ROWS_FROM: ReleaseRange = { from: "7.16" };

/** The quick sniffer command of a bounded capture on `dialect`'s release. */
export function snifferCommand(dialect: Dialect, run: SnifferRun): string {
  const newer = inRange(dialect.release, ROWS_FROM);
  return cmd("/tool/sniffer", "quick", {
    args: {
      interface: run.interface,
      "ip-address": run.ipAddress,
      port: run.port,
      "ip-protocol": run.protocol,
      direction: run.direction,
      duration: `${run.durationS}s`,
      rows: newer ? run.rows : undefined,
      proplist: newer ? PROPLIST.join(",") : undefined,
    },
  });
}

/**
 * An address cell: `8.8.8.8:443 (https)`, `fe80::1:5678 (discovery)`
 * (IPv6 with its port after the last colon when the packet has ports),
 * `192.168.88.1`, or text RouterOS writes about the packet (an ARP
 * request), kept as it is.
 */
function endpoint(text: string | undefined, ported: boolean) {
  if (text === undefined) return {};
  const m = /^(\S+?)(?::(\d+))?(?: \(([^)]*)\))?$/.exec(text);
  if (!m) return { address: text };
  const [, address, port, service] = m;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(address)) {
    return { address, port: port === undefined ? undefined : Number(port), service };
  }
  if (address.includes(":")) {
    // IPv6: a port, if any, is the last group.
    const full = port === undefined ? address : `${address}:${port}`;
    const cut = full.lastIndexOf(":");
    if (ported && cut > 0 && /^\d+$/.test(full.slice(cut + 1))) {
      return { address: full.slice(0, cut), port: Number(full.slice(cut + 1)), service };
    }
    return { address: full, service };
  }
  return { address: text };
}

/** The packets of the last table `quick` printed. Fails on anything else. */
export function parseSniffer(text: string): SniffedPacket[] {
  const frame = lastTableFrame(text, COLUMNS);
  if (!frame || !frame.columns.includes("TIME")) {
    throw unparsable(text || "(nothing)", "the sniffer printed no table that was understood");
  }
  return frame.rows.map((row) => {
    const time = Number(row.TIME);
    const num = Number(row.NUM);
    if (!Number.isFinite(time) || !Number.isInteger(num) || !row.INTERFACE) {
      throw unparsable(text, "a packet of the sniffer's table was not understood");
    }
    const ported = /:(tcp|udp|sctp|udp-lite|dccp)$/.test(row.PROTOCOL ?? "");
    const src = endpoint(row["SRC-ADDRESS"], ported);
    const dst = endpoint(row["DST-ADDRESS"], ported);
    const dir = row.DIR === "<-" ? "rx" : row.DIR === "->" ? "tx" : undefined;
    const size = row.SIZE === undefined ? undefined : Number(row.SIZE);
    const services = [...new Set([src.service, dst.service].filter(Boolean))];
    const packet: SniffedPacket = {
      time_s: time,
      num,
      interface: row.INTERFACE,
      direction: dir,
      src_mac: row["SRC-MAC"],
      dst_mac: row["DST-MAC"],
      src_address: src.address,
      src_port: src.port,
      dst_address: dst.address,
      dst_port: dst.port,
      service: services.length ? services.join(",") : undefined,
      protocol: row.PROTOCOL,
      size: Number.isInteger(size) ? size : undefined,
      vlan: row.VLAN,
    };
    return Object.fromEntries(
      Object.entries(packet).filter(([, v]) => v !== undefined),
    ) as unknown as SniffedPacket;
  });
}

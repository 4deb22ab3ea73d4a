/**
 * `/tool ip-scan`: the command for a bounded scan and the hosts it lists.
 *
 * Its table is read (`console_table.ts`): no value form of it is
 * documented or captured. MikroTik's IP Scan page prints `Columns:
 * ADDRESS, MAC-ADDRESS, TIMe, SNMP` over rows such as `10.155.126.1
 * E4:8D:8C:1C:D3:18  2ms  CCR1036-8G-2S+` (a host that gives no MAC leaves
 * the cell blank); a 7.x user capture of `interface=` alone prints
 * `Columns: ADDRESS, MAC-ADDRESS`. The table shows only the columns that
 * have a value; DNS and NETBIOS are the other two (the CLI reference's
 * read-only properties: address, mac-address, time, dns, snmp, netbios).
 * `proplist` exists from 7.16 (the trees) and is not needed: the table is
 * narrow.
 *
 * @module
 */
import { cmd } from "./command.ts";
import { lastTableFrame } from "./console_table.ts";
import { unparsable } from "./errors.ts";
import { isIpv4 } from "./ip_address.ts";
import { durationMs } from "./values.ts";

/** A bounded scan: an address range, an interface, or both. */
export interface ScanRun {
  addressRange?: string;
  interface?: string;
  durationS: number;
}

/** One host found. */
export interface ScannedHost {
  address: string;
  mac_address?: string;
  /** Response time, when the host was probed. */
  time_ms?: number;
  dns?: string;
  snmp?: string;
  netbios?: string;
}

const COLUMNS = ["ADDRESS", "MAC-ADDRESS", "TIME", "DNS", "SNMP", "NETBIOS"];

/** The ip-scan command of a bounded scan. */
export function scanCommand(run: ScanRun): string {
  return cmd("/tool", "ip-scan", {
    args: {
      "address-range": run.addressRange,
      interface: run.interface,
      duration: `${run.durationS}s`,
    },
  });
}

/** The hosts of the last table ip-scan printed. Fails on anything else. */
export function parseScan(text: string): ScannedHost[] {
  const frame = lastTableFrame(text, COLUMNS);
  if (!frame || frame.columns[0] !== "ADDRESS") {
    throw unparsable(text || "(nothing)", "ip-scan printed no table that was understood");
  }
  return frame.rows.map((row) => {
    if (!row.ADDRESS || !isIpv4(row.ADDRESS)) {
      throw unparsable(text, "a host of ip-scan's table was not understood");
    }
    const host: ScannedHost = {
      address: row.ADDRESS,
      mac_address: row["MAC-ADDRESS"],
      time_ms: row.TIME === undefined ? undefined : durationMs(row.TIME),
      dns: row.DNS,
      snmp: row.SNMP,
      netbios: row.NETBIOS,
    };
    return Object.fromEntries(
      Object.entries(host).filter(([, v]) => v !== undefined),
    ) as unknown as ScannedHost;
  });
}

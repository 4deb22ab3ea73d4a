/**
 * `/tool ip-scan` and `/tool wol` on the simulated LAN.
 *
 * ip-scan finds, in `address-range`, the router's own address on an
 * interface (listed without a MAC address, as MikroTik's IP Scan page says)
 * and each host of `/ip/arp`, with a response time; the DNS name is that of
 * a `/ip/dns/static` entry for the address, and a host with a DHCP lease
 * answers NetBIOS with its host name in capitals (test data). Given only an
 * `interface`, it lists the hosts it sees there, without times (a 7.x user
 * capture: `Columns: ADDRESS, MAC-ADDRESS`). The table shows only columns
 * that have a value (the manual's example: `ADDRESS, MAC-ADDRESS, TIME,
 * SNMP`); `proplist` picks them from 7.16, as the trees show. It runs for
 * `duration` (or until stopped) and prints its table once when it ends,
 * ended by the pager line: real consoles redraw it, and no capture of an
 * exec run was found, so that part is not backed by one; nor is the 6.x
 * table (no `Columns:` line, as RouterOS 6 prints tables).
 *
 * wol sends its magic packet and prints nothing: MikroTik's Wake on LAN
 * page shows no output.
 *
 * @module
 */
import type { CommandCtx, CommandDef, LooseCommand } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import { parseIp4, parsePrefix4 } from "../ipaddr.ts";
import { durationArg, PAGER_LINE, tableLines, type ToolColumn } from "../tool_tables.ts";

const SCAN_COLUMNS: ToolColumn[] = [
  { name: "ADDRESS" },
  { name: "MAC-ADDRESS" },
  { name: "TIME", right: true },
  { name: "DNS" },
  { name: "SNMP" },
  { name: "NETBIOS" },
];

/** The first and last address of `address-range` (`a-b`, `a/len` or `a`); throws when invalid. */
function rangeOf(text: string): [number, number] {
  const bad = () => fail("invalid value for argument address-range");
  const dash = text.split("-");
  if (dash.length === 2) {
    const a = parseIp4(dash[0]);
    const b = parseIp4(dash[1]);
    if (a === null || b === null || b < a) throw bad();
    return [a, b];
  }
  const p = parsePrefix4(text.includes("/") ? text : `${text}/32`);
  if (!p) throw bad();
  const size = 2 ** (32 - p.len);
  const first = Math.floor(p.ip / size) * size;
  return [first, first + size - 1];
}

function scanRun(c: CommandCtx): void {
  const st = c.st;
  const n = c.named;
  const range = n.has("address-range") ? rangeOf(n.get("address-range")!) : undefined;
  const iface = n.get("interface");
  if (!range && !iface) throw fail("missing value(s) of argument(s) address-range");
  if (iface && !st.items("/interface").some((i) => i.name === iface)) {
    throw fail("input does not match any value of interface");
  }
  const duration = durationArg(n.get("duration"));
  if (n.has("duration") && duration === undefined) {
    throw fail("invalid value for argument duration");
  }
  c.runFor(duration ?? Infinity);
  if (c.switches.has("as-value") || duration === undefined) return;
  const inRange = (ip: string) => {
    const a = parseIp4(ip);
    return !range || (a !== null && a >= range[0] && a <= range[1]);
  };
  const dns = st.items("/ip/dns/static");
  const leases = st.items("/ip/dhcp-server/lease");
  const rows: Record<string, string>[] = [];
  if (range) {
    for (const a of st.items("/ip/address")) {
      const ip = a.address.split("/")[0];
      if (inRange(ip) && (!iface || a.interface === iface)) rows.push({ ADDRESS: ip, TIME: "0ms" });
    }
  }
  for (const h of st.items("/ip/arp")) {
    if (!h.address || !h["mac-address"] || !inRange(h.address)) continue;
    if (iface && h.interface !== iface) continue;
    const k = Number(h.address.split(".").at(-1)) || 0;
    const name = dns.find((d) => d.address === h.address)?.name;
    const host = leases.find((l) => l.address === h.address)?.["host-name"];
    rows.push({
      ADDRESS: h.address,
      "MAC-ADDRESS": h["mac-address"],
      ...(range ? { TIME: `${1 + (k % 3)}ms` } : {}),
      ...(name ? { DNS: name } : {}),
      ...(host ? { NETBIOS: host.toUpperCase() } : {}),
    });
  }
  rows.sort((a, b) => parseIp4(a.ADDRESS)! - parseIp4(b.ADDRESS)!);
  const proplist = n.get("proplist")?.split(",").map((p) => p.trim().toUpperCase());
  const columns = SCAN_COLUMNS.filter((x) =>
    proplist ? proplist.includes(x.name) : x.name === "ADDRESS" || rows.some((r) => r[x.name])
  );
  for (const l of tableLines(columns, rows, st.v6)) c.print(l);
  c.print(PAGER_LINE);
}

const SCAN_ARGS = ["address-range", "interface", "duration", "freeze-frame-interval"];
const SCAN6: CommandDef = { args: SCAN_ARGS, run: scanRun };
const SCAN7: CommandDef = {
  ...SCAN6,
  args: [...SCAN_ARGS, "proplist"],
  argReleases: { proplist: { from: "7.16" } },
  switches: ["as-value", "without-paging"],
};

function wolRun(c: CommandCtx): void {
  const mac = c.named.get("mac");
  if (!mac) throw fail("missing value(s) of argument(s) mac");
  if (!/^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$/.test(mac)) {
    throw fail("invalid value for argument mac");
  }
  const iface = c.named.get("interface");
  if (iface !== undefined && !c.st.items("/interface").some((i) => i.name === iface)) {
    throw fail("input does not match any value of interface");
  }
}

const WOL6: CommandDef = { args: ["mac", "interface"], run: wolRun };
const WOL7: CommandDef = { ...WOL6, switches: ["as-value"] };

/** IP scan and wake-on-LAN. */
export const SCAN_COMMANDS: LooseCommand[] = [
  { path: "/tool", name: "ip-scan", def: SCAN6, releases: V6 },
  { path: "/tool", name: "ip-scan", def: SCAN7, releases: V7 },
  { path: "/tool", name: "wol", def: WOL6, releases: V6 },
  { path: "/tool", name: "wol", def: WOL7, releases: V7 },
];

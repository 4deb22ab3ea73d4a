/**
 * The tables `/tool torch`, `/tool sniffer quick` and `/tool ip-scan` print
 * (no value form of theirs is usable), and the values in them, in the
 * layout real captures show:
 *
 * - RouterOS 7: a `Columns: A, B` line, then the header row, columns two
 *   spaces apart, text left-aligned and numbers right-aligned (MikroTik's
 *   Torch, Packet Sniffer and IP Scan manual pages; a 7.23 `sniffer quick`
 *   capture);
 * - RouterOS 6: the header row alone, one space apart, numbers and rates
 *   right-aligned (tik4net's 6.49.13 torch capture).
 *
 * A refreshing display ends each frame with the pager line. The console
 * here is as wide as the table: a real exec console is 80 columns wide and
 * shortens headers that do not fit (the parser reads both).
 *
 * @module
 */

/** A column: its name and whether its values are right-aligned (numbers). */
export interface ToolColumn {
  name: string;
  right?: boolean;
  /** RouterOS 6: the least width (its rates are 10 wide). */
  width6?: number;
}

/** The pager line after each frame of a refreshing display. */
export const PAGER_LINE = "-- [Q quit|D dump|C-z pause]";

/** The lines of one frame: the columns shown and the rows' cells by column name. */
export function tableLines(
  columns: readonly ToolColumn[],
  rows: readonly Record<string, string>[],
  v6: boolean,
): string[] {
  const widths = columns.map((c) =>
    Math.max(c.name.length, v6 ? c.width6 ?? 0 : 0, ...rows.map((r) => (r[c.name] ?? "").length))
  );
  const gap = v6 ? " " : "  ";
  const line = (cells: string[]) =>
    cells.map((cell, i) => columns[i].right ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))
      .join(gap).trimEnd();
  const out = v6 ? [] : [`Columns: ${columns.map((c) => c.name).join(", ")}`];
  out.push(line(columns.map((c) => c.name)));
  for (const r of rows) out.push(line(columns.map((c) => r[c.name] ?? "")));
  return out;
}

/** A rate as the console prints it: `784bps`, `3.5kbps`, `197.3kbps`, `2.0Mbps`. */
export function rateText(bps: number): string {
  if (bps < 1000) return `${Math.round(bps)}bps`;
  if (bps < 1e6) return `${(bps / 1e3).toFixed(1)}kbps`;
  if (bps < 1e9) return `${(bps / 1e6).toFixed(1)}Mbps`;
  return `${(bps / 1e9).toFixed(1)}Gbps`;
}

/** A speed argument (`50M`, `1500k`, `1G`, `64000`) in bits per second; undefined when invalid. */
export function speedValue(text: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([kKMG]?)$/.exec(text ?? "");
  if (!m) return undefined;
  const scale = { "": 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9 }[m[2] as ""];
  return Number(m[1]) * scale;
}

/** A `duration=` value (`5s`, `5`, `1m`, `500ms`) in ms; undefined when invalid. */
export function durationArg(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0;
  let rest = text;
  while (rest) {
    const m = /^(\d+)(ms|s|m|h)/.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * units[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** Well-known ports by number, named as the console shows them (`443 (https)`). */
const SERVICES: Record<number, string> = {
  22: "ssh",
  53: "dns",
  80: "http",
  123: "ntp",
  443: "https",
  2000: "btserv",
  8291: "winbox",
};

/** A port with its service name when it has one (`53 (dns)`). */
export function portText(port: number): string {
  const name = SERVICES[port];
  return name ? `${port} (${name})` : String(port);
}

/**
 * The latency chart of `docs/benchmarks.md`: for each series (floor, stdio
 * tool call, HTTP tool call, connect-per-call) three horizontal bars, the
 * median, p95 and p99, on a logarithmic millisecond axis. Plain SVG, no
 * scripts, no external resources.
 *
 * @module
 */

/** One series of the chart. */
export interface ChartSeries {
  label: string;
  median: number;
  p95: number;
  p99: number;
}

const WIDTH = 760;
const LEFT = 190;
const RIGHT = 70;
const TOP = 56;
const BAR = 13;
const GAP = 3;
const GROUP = 3 * BAR + 2 * GAP + 18;
const COLORS = { median: "#2f6fb3", p95: "#e39b2d", p99: "#c0392b" } as const;

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function fmt(ms: number): string {
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Ticks 1, 2, 5 × 10^k between `lo` and `hi` (powers of ten). */
function ticks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.log10(lo); e < Math.log10(hi) + 1e-9; e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo - 1e-12 && v <= hi + 1e-9) out.push(Number(v.toPrecision(3)));
    }
  }
  return out;
}

/** Render the chart; series with a missing value are drawn as "not measured". */
export function latencyChart(title: string, subtitle: string, series: ChartSeries[]): string {
  const values = series.flatMap((s) => [s.median, s.p95, s.p99]).filter((v) =>
    Number.isFinite(v) && v > 0
  );
  const lo = 10 ** Math.floor(Math.log10(values.length ? Math.min(...values) : 0.1));
  const hi = 10 ** Math.ceil(Math.log10(values.length ? Math.max(...values) : 100));
  const plot = WIDTH - LEFT - RIGHT;
  const x = (v: number) => LEFT + (Math.log10(v / lo) / Math.log10(hi / lo)) * plot;
  const height = TOP + series.length * GROUP + 46;
  const axisY = TOP + series.length * GROUP;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" ` +
      `viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="20" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${LEFT}" y="38" fill="#555">${escapeXml(subtitle)}</text>`,
  );
  for (const t of ticks(lo, hi)) {
    const tx = x(t).toFixed(1);
    parts.push(
      `<line x1="${tx}" y1="${TOP - 6}" x2="${tx}" y2="${axisY}" stroke="#e3e3e3"/>`,
      `<text x="${tx}" y="${axisY + 16}" text-anchor="middle" fill="#444">${t} ms</text>`,
    );
  }
  series.forEach((s, i) => {
    const y0 = TOP + i * GROUP;
    parts.push(
      `<text x="${LEFT - 10}" y="${y0 + 1.5 * BAR + GAP + 4}" text-anchor="end" ` +
        `font-weight="bold">${escapeXml(s.label)}</text>`,
    );
    (["median", "p95", "p99"] as const).forEach((k, j) => {
      const y = y0 + j * (BAR + GAP);
      const v = s[k];
      if (!Number.isFinite(v) || v <= 0) {
        parts.push(`<text x="${LEFT + 4}" y="${y + BAR - 2}" fill="#888">not measured</text>`);
        return;
      }
      const w = Math.max(1, x(v) - LEFT);
      parts.push(
        `<rect x="${LEFT}" y="${y}" width="${w.toFixed(1)}" height="${BAR}" fill="${COLORS[k]}">` +
          `<title>${escapeXml(`${s.label} ${k}: ${fmt(v)}`)}</title></rect>`,
        `<text x="${(LEFT + w + 4).toFixed(1)}" y="${y + BAR - 2}" fill="#222">${fmt(v)}</text>`,
      );
    });
  });
  parts.push(
    `<line x1="${LEFT}" y1="${axisY}" x2="${WIDTH - RIGHT}" y2="${axisY}" stroke="#888"/>`,
  );
  const legendY = axisY + 34;
  let lx = LEFT;
  for (const [k, c] of Object.entries(COLORS)) {
    parts.push(
      `<rect x="${lx}" y="${legendY - 10}" width="12" height="12" fill="${c}"/>`,
      `<text x="${lx + 16}" y="${legendY}">${k}</text>`,
    );
    lx += 90;
  }
  parts.push(`<text x="${lx + 10}" y="${legendY}" fill="#555">logarithmic scale</text>`);
  parts.push(`</svg>`);
  return parts.join("\n") + "\n";
}

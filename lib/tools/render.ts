/**
 * Compact text rendering of tool results, for clients that read only text.
 *
 * @module
 */

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.join(",");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replace(/[\r\n\t]/g, " ");
}

/** Render items as an aligned table with the given columns. */
export function renderTable(items: readonly object[], columns: string[]): string {
  if (items.length === 0) return "(no items)";
  const rows = [
    columns.map((c) => c.toUpperCase()),
    ...items.map((i) => columns.map((c) => cell((i as Record<string, unknown>)[c]))),
  ];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

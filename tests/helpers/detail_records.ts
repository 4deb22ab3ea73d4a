/**
 * Records of a `print detail` capture (real RouterOS output), as rows of
 * text for the pure modules' tests.
 *
 * @module
 */
import { splitPairs } from "../../lib/routeros/parse_terse.ts";
import type { Row } from "../../lib/routeros/route_lookup.ts";

/**
 * The records of a `print detail` block: one per blank-line-separated
 * paragraph, its flag letters turned into yes/no properties by `flags`.
 */
export function detailRecords(block: string, flags: Record<string, string>): Row[] {
  const paragraphs = block.replace(/\u00a0/g, " ").replace(/\r/g, "").split(/\n\s*\n/);
  const out: Row[] = [];
  for (const p of paragraphs) {
    const text = p.split("\n").filter((l) => !/Flags:|^\s*[a-zA-Z+] - |^\s*y; *$|^\s*c - /.test(l))
      .join(" ").trim();
    const m = /^(\d+)?\s*([A-Za-z+ ]*?)\s+(?=[a-z][a-z-]*=)/.exec(text);
    if (!m) continue;
    const row: Record<string, string> = {};
    if (m[1] !== undefined) row[".id"] = `*${Number(m[1]) + 1}`;
    for (const [letter, name] of Object.entries(flags)) {
      row[name] = m[2].includes(letter) ? "yes" : "no";
    }
    Object.assign(row, splitPairs(text.slice(m[0].length), []).pairs);
    out.push(row);
  }
  return out;
}

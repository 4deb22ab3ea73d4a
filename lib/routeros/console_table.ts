/**
 * Tables the console prints for commands that have no usable value form
 * (`/tool torch`, `/tool sniffer quick`, `/tool ip-scan`), read by column
 * position, as real captures print them:
 *
 * - RouterOS 7 puts a `Columns: A, B, ...` line before the header; a name's
 *   lowercase tail is the part the header row leaves out to fit the
 *   terminal (`INTERFace` over a column headed `INTERF`), and the line
 *   itself is cut with `>` at the terminal's width (MikroTik's Packet
 *   Sniffer and IP Scan manual pages; a user's `tool/torch ether1` capture
 *   printing `Columns: MAC-PROTOCOL, ..., TX>` over headers `MA ... T  R`).
 * - RouterOS 6 prints the header row alone (tik4net's 6.49.13 torch
 *   capture, `tik4net.unittests/Cli/CliTorchTableTests.cs`).
 * - Text is left-aligned, numbers are right-aligned under their header and
 *   may start left of it (`3.5kbps` under a header `TX` in that capture), a
 *   cell may hold spaces (`8291 (winbox)`), and an empty cell is blank.
 * - A refreshing display prints a new frame each time, each ended by the
 *   pager line `-- [Q quit|D dump|C-z pause]`; the last frame is the one
 *   that counts.
 *
 * A word of a row belongs to the column whose header ends where it ends (a
 * right-aligned value), else to the last column that starts at or before
 * it (tik4net's rule for their ping table: a value may start one character
 * left of its header). A header row is only taken for one
 * when each of its words is a column name or the start of one, in order;
 * anything else is not a table.
 *
 * @module
 */

/** One frame of a table: the full names of its columns and its rows by column. */
export interface TableFrame {
  columns: string[];
  /** Each row's non-empty cells, by full column name. */
  rows: Record<string, string>[];
}

/** A header or value word and where it stands on its line. */
interface Word {
  text: string;
  start: number;
  end: number;
}

/** The pager line ending each frame of a refreshing display. */
const PAGER = /^\s*-- \[Q quit/;
const COLUMNS = /^Columns: /;
const HEADER_WORD = /^[A-Z#][A-Z0-9#-]*$/;

function wordsOf(line: string): Word[] {
  return [...line.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    start: m.index!,
    end: m.index! + m[0].length,
  }));
}

/**
 * The names of a `Columns:` declaration (which may wrap over lines), in
 * upper case; a name cut by the terminal's width ends the list.
 */
function declaredColumns(lines: readonly string[], at: number): { names: string[]; next: number } {
  let text = lines[at].replace(COLUMNS, "");
  let next = at + 1;
  // A wrapped declaration: the line ends with a comma.
  while (/,\s*$/.test(text) && next < lines.length) text += " " + lines[next++];
  const names: string[] = [];
  for (const part of text.split(",")) {
    const name = part.trim();
    if (name.endsWith(">")) break;
    if (name) names.push(name.toUpperCase());
  }
  return { names, next };
}

/**
 * The full names of a header row's words: each is a name of `candidates`,
 * or the start of one, in order (candidates may be skipped). Undefined when
 * the row is not such a header.
 */
function headerNames(words: readonly Word[], candidates: readonly string[]): string[] | undefined {
  if (words.length === 0 || !words.every((w) => HEADER_WORD.test(w.text))) return undefined;
  const names: string[] = [];
  let from = 0;
  for (const w of words) {
    let found = -1;
    for (let i = from; i < candidates.length && found < 0; i++) {
      if (candidates[i].startsWith(w.text)) found = i;
    }
    if (found < 0) return undefined;
    names.push(candidates[found]);
    from = found + 1;
  }
  return names;
}

/** The names of `known` after the last of `declared` (all of them when it is not known). */
function after(known: readonly string[], declared: readonly string[]): readonly string[] {
  const last = declared.at(-1);
  return last === undefined ? known : known.slice(known.indexOf(last) + 1);
}

/** The cells of one row under `header` (its words, with their full names). */
function cellsOf(line: string, header: readonly Word[], names: readonly string[]) {
  const groups = new Map<number, Word[]>();
  for (const w of wordsOf(line)) {
    // A right-aligned value ends under the end of its header; any other word
    // belongs to the last column that starts (one character of slack) at or
    // before it. A left value never ends within one character of the next
    // header's end: columns are at least one space apart and headers two
    // characters wide.
    let at = header.findIndex((h) => Math.abs(w.end - h.end) <= 1);
    if (at < 0) {
      at = 0;
      header.forEach((h, i) => {
        if (h.start - 1 <= w.start) at = i;
      });
    }
    groups.set(at, [...(groups.get(at) ?? []), w]);
  }
  const row: Record<string, string> = {};
  for (const [i, ws] of groups) row[names[i]] = line.slice(ws[0].start, ws.at(-1)!.end);
  return row;
}

/**
 * The last frame of a table in `text`. `known` lists the full column names
 * the command prints, in the console's order; RouterOS 7's own `Columns:`
 * line is preferred where there is one. Undefined when no header is found.
 */
export function lastTableFrame(text: string, known: readonly string[]): TableFrame | undefined {
  const lines = text.replace(/\r/g, "").split("\n");
  let frame: { header: Word[]; names: string[]; rows: string[] } | undefined;
  let declared: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (COLUMNS.test(line)) {
      const d = declaredColumns(lines, i);
      declared = d.names;
      i = d.next - 1;
      continue;
    }
    if (PAGER.test(line) || line.trim() === "") continue;
    const words = wordsOf(line);
    // A declaration cut short names fewer columns than the header has: the
    // known ones after its last name follow.
    const names = (declared && headerNames(words, [...declared, ...after(known, declared)])) ??
      headerNames(words, known);
    if (names) {
      frame = { header: words, names, rows: [] };
      declared = undefined;
      continue;
    }
    frame?.rows.push(line);
  }
  if (!frame) return undefined;
  const { header, names } = frame;
  return {
    columns: names,
    rows: frame.rows.map((l) => cellsOf(l, header, names)),
  };
}

/**
 * A rate as the console prints it (`0bps`, `1664bps`, `3.5kbps`,
 * `50.3Mbps`, `1.2Gbps`) in bits per second; undefined for anything else.
 */
export function bitsPerSecond(text: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(bps|kbps|Mbps|Gbps)$/.exec((text ?? "").trim());
  if (!m) return undefined;
  const scale = { bps: 1, kbps: 1e3, Mbps: 1e6, Gbps: 1e9 }[m[2] as "bps"];
  return Math.round(Number(m[1]) * scale);
}

/**
 * `/export` and `<menu> export`: a script that rebuilds the configuration.
 * Menus come in registry order under `/menu path` headers; `add` arguments
 * are sorted by name; only values that differ from defaults are shown (plus
 * derived ones such as `network=`); lines wrap near 80 columns with ` \`.
 * `terse` prints one unwrapped line per command with its full path.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "./menu_types.ts";
import { onRelease } from "./releases.ts";
import type { RouterState } from "./state.ts";
import { propsOf, quoteIfNeeded, showValue } from "./props.ts";
import { fmtDateTime } from "./timefmt.ts";
import { hardware } from "./menus/system.ts";

/** Export options. */
export interface ExportOpts {
  /** Menu path prefix ("" = everything). */
  prefix: string;
  terse: boolean;
  verbose: boolean;
  sensitive: boolean;
  /** Date for the header (default: the router clock). */
  at?: Date;
}

/** The default a property gives a new item (a computed default is asked with the item). */
function defaultOf(p: PropDef, it: Item, st: RouterState): string | undefined {
  return typeof p.default === "function" ? p.default(it, st) : p.default;
}

function args(menu: MenuDef, st: RouterState, it: Item, o: ExportOpts, base?: Item): string[] {
  const out: string[] = [];
  for (const p of propsOf(menu, st)) {
    if (p.ro || p.compute || p.secret) continue;
    if (p.sensitive && !o.sensitive) continue;
    const v = it[p.name];
    if (v === undefined) continue;
    const always = p.exportAlways !== undefined &&
      (p.exportAlways === true || onRelease(st.release, p.exportAlways));
    if (base) {
      if (base[p.name] === v && !o.verbose && !always) continue;
    } else if (!o.verbose && !always && defaultOf(p, it, st) === v) {
      continue;
    }
    if (menu.switches?.includes(p.name) && p.type === "bool") {
      // a yes/no switch (`blackhole`) is exported as a bare word when set
      if (v === "true" || v === "yes") out.push(p.name);
      continue;
    }
    out.push(`${p.name}=${quoteIfNeeded(showValue(p, v))}`);
  }
  return abbreviateGroups(out.sort(), st);
}

/**
 * RouterOS 7 writes a property of the same group as the one before it by
 * its dotted tail: `configuration.country="United Kingdom" .mode=ap
 * .ssid=praze` (kaihendry/mikrotik-configs@4355032b tvroom.rsc, a 7.18.2
 * `/export`; issue 34 saw the same in 7.12 `wifiwave2` and 7.19 `wifi`
 * exports). Arguments are sorted, so a group's members are neighbours.
 */
function abbreviateGroups(tokens: string[], st: RouterState): string[] {
  if (st.v6) return tokens;
  let group: string | undefined;
  return tokens.map((t) => {
    const eq = t.indexOf("=");
    const name = eq > 0 ? t.slice(0, eq) : t;
    const dot = name.lastIndexOf(".");
    const g = dot > 0 ? name.slice(0, dot) : undefined;
    const short = g !== undefined && g === group ? t.slice(dot) : t;
    group = g;
    return short;
  });
}

/** Longest line of an export before its ` \`: 77 characters (79 with it). */
const FIT = 77;
/** Longest text before the `\` that cuts a value longer than a line: 78 characters. */
const FILL = 78;
const INDENT = "    ";

/**
 * The pieces of a printed value a line break never splits: an escape
 * (`\"`, `\$`, `\r`, `\1B`) or one character.
 */
function atoms(value: string): string[] {
  return value.match(/\\[0-9A-F]{2}|\\[^]|[^]/gu) ?? [];
}

/**
 * Wraps one export command as RouterOS does over an exec (80 columns),
 * measured on real exports (real-output/export-show-sensitive-v7.15.2-exec-oxidized.txt
 * and -v7.18.2-; public 6.48.x and 7.15 exports of `/system script`, such as
 * kaihendry/mikrotik-configs praze.rsc (6.48.3) and a 6.48.1 `MDF-RTR-1` export):
 * - an argument goes on the line when the line stays within 77 characters
 *   (79 with ` \`);
 * - else, when its `name=` fits and its value fits a line of its own, the
 *   line ends `name=\` and the value starts the next (`comment=\` then
 *   `    "defconf: ..."`);
 * - else, when the whole argument fits a line of its own, the line breaks
 *   before it;
 * - else (a value longer than a line or holding a newline, a script's `source=`), the value
 *   starts after `name=` and is cut wherever the line reaches 78
 *   characters, even inside a word (`...,pas\` then `    sword,...`), never
 *   inside an escape; a continuation that would start with a blank starts
 *   with `\_`; and every newline of the value (`\n`) starts a line of its
 *   own, so `\r\n` ends one line with `\r\` and starts the next with `\n`
 *   (issue 34: `...NetWatch_check\r\` then `\n"`).
 * Continuation lines are indented by four blanks.
 */
export function wrapCommand(head: string, tokens: string[]): string[] {
  const out: string[] = [];
  let cur = head;
  for (const t of tokens) {
    const eq = t.indexOf("=");
    const name = eq > 0 ? t.slice(0, eq + 1) : "";
    const value = eq > 0 ? t.slice(eq + 1) : t;
    // a value holding a newline is always cut at it, however short
    const whole = !atoms(value).includes("\\n");
    if (whole && cur.length + 1 + t.length <= FIT) {
      cur += " " + t;
      continue;
    }
    if (
      whole && name && INDENT.length + value.length <= FIT && cur.length + 1 + name.length <= FIT
    ) {
      out.push(`${cur} ${name}\\`);
      cur = INDENT + value;
      continue;
    }
    if (whole && INDENT.length + t.length <= FIT) {
      out.push(`${cur} \\`);
      cur = INDENT + t;
      continue;
    }
    if (name && cur.length + 1 + name.length <= FIT) cur += " " + name;
    else {
      out.push(`${cur} \\`);
      cur = INDENT + name;
    }
    for (let a of atoms(value)) {
      const fresh = cur.length === INDENT.length;
      if (a === "\\n" && !fresh) {
        out.push(cur + "\\");
        cur = INDENT;
      } else if (cur.length + a.length > FILL) {
        out.push(cur + "\\");
        cur = INDENT;
        if (a === " ") a = "\\_";
      }
      cur += a;
    }
  }
  out.push(cur);
  return out;
}

/** One export command: its head (`add`, `set`, `set [ find default-name=ether1 ]`) and arguments. */
interface Command {
  head: string;
  args: string[];
}

/** A default item with the default values its menu's properties give it. */
function filled(menu: MenuDef, st: RouterState, item: Item): Item {
  const it = { ...item };
  st.fillDefaults(menu, it);
  return it;
}

function sectionLines(menu: MenuDef, st: RouterState, o: ExportOpts): Command[] {
  const cmds: Command[] = [];
  if (menu.kind === "single") {
    const it = st.stored(menu)[0];
    const def = menu.defaults?.(st)[0] ?? {};
    const base: Item = { ...def };
    for (const p of propsOf(menu, st)) {
      if (base[p.name] === undefined && typeof p.default === "string") base[p.name] = p.default;
    }
    if (menu.path === "/system/identity") base.name = "MikroTik";
    const a = args(menu, st, it, o, base);
    if (a.length) cmds.push({ head: "set", args: a });
    return cmds;
  }
  const defaults = menu.exportFindBy
    ? (menu.defaults?.(st) ?? []).map((d) => filled(menu, st, d))
    : [];
  for (const it of st.stored(menu)) {
    if (menu.exportSkip?.(it, st)) continue;
    const findBy = menu.exportFindBy;
    if (findBy && it[findBy] !== undefined) {
      const base = defaults.find((d) => d[findBy] === it[findBy]);
      const a = args(menu, st, it, o, base);
      if (a.length) cmds.push({ head: `set [ find ${findBy}=${it[findBy]} ]`, args: a });
      continue;
    }
    cmds.push({ head: "add", args: args(menu, st, it, o) });
  }
  return cmds;
}

/** Export text (lines joined by `\n`). */
export function exportConfig(st: RouterState, o: ExportOpts): string {
  const out: string[] = [];
  {
    const hw = hardware(st);
    out.push(
      `# ${fmtDateTime(o.at ?? st.now(), st.legacyDates)} by RouterOS ${hw.version.split(" ")[0]}`,
    );
    out.push(`# software id = ${hw.softwareId}`);
    out.push("#");
    out.push(`# model = ${hw.model}`);
    out.push(`# serial number = ${hw.serial}`);
  }
  for (const m of st.menus.all) {
    if (m.noExport || !st.menus.present(m, st.release, st.packages)) continue;
    if (o.prefix && m.path !== o.prefix && !m.path.startsWith(o.prefix + "/")) continue;
    const cmds = sectionLines(m, st, o);
    if (!cmds.length) continue;
    const header = m.path.slice(1).split("/").join(" ");
    if (o.terse) {
      for (const c of cmds) out.push([`/${header}`, c.head, ...c.args].join(" "));
      continue;
    }
    out.push("/" + header);
    for (const c of cmds) out.push(...wrapCommand(c.head, c.args));
  }
  return out.join("\n");
}

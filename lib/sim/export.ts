/**
 * `/export` and `<menu> export`: a script that rebuilds the configuration.
 * Menus come in registry order under `/menu path` headers; `add` arguments
 * are sorted by name; only values that differ from defaults are shown (plus
 * derived ones such as `network=`); lines wrap near 80 columns with ` \`.
 * `terse` prints one unwrapped line per command with its full path.
 *
 * @module
 */
import type { Item, MenuDef } from "./menu_types.ts";
import { onRelease } from "./releases.ts";
import { ALL_MENUS } from "./menus/registry.ts";
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

function args(menu: MenuDef, st: RouterState, it: Item, o: ExportOpts, base?: Item): string[] {
  const out: string[] = [];
  for (const p of propsOf(menu, st)) {
    if (p.ro || p.compute || p.secret) continue;
    if (p.sensitive && !o.sensitive) continue;
    const v = it[p.name];
    if (v === undefined) continue;
    if (base) {
      if (base[p.name] === v && !o.verbose) continue;
    } else if (!o.verbose && !p.exportAlways && typeof p.default === "string" && p.default === v) {
      continue;
    }
    if (menu.switches?.includes(p.name) && p.type === "bool") {
      // a yes/no switch (`blackhole`) is exported as a bare word when set
      if (v === "true" || v === "yes") out.push(p.name);
      continue;
    }
    out.push(`${p.name}=${quoteIfNeeded(showValue(p, v))}`);
  }
  return out.sort();
}

function wrap(line: string): string[] {
  if (line.length <= 80) return [line];
  const tokens = line.split(/ (?=(?:[^"]*"[^"]*")*[^"]*$)/);
  const out: string[] = [];
  let cur = tokens[0];
  for (const t of tokens.slice(1)) {
    if (cur.length + 1 + t.length <= 78) {
      cur += " " + t;
      continue;
    }
    const eq = t.indexOf("=");
    if (eq > 0 && cur.length + 2 + eq <= 78) {
      out.push(cur + " " + t.slice(0, eq + 1) + "\\");
      cur = "    " + t.slice(eq + 1);
    } else {
      out.push(cur + " \\");
      cur = "    " + t;
    }
  }
  out.push(cur);
  return out;
}

function sectionLines(menu: MenuDef, st: RouterState, o: ExportOpts): string[] {
  const cmds: string[] = [];
  if (menu.kind === "single") {
    const it = st.stored(menu)[0];
    const def = menu.defaults?.(st)[0] ?? {};
    const base: Item = { ...def };
    for (const p of propsOf(menu, st)) {
      if (base[p.name] === undefined && typeof p.default === "string") base[p.name] = p.default;
    }
    if (menu.path === "/system/identity") base.name = "MikroTik";
    const a = args(menu, st, it, o, base);
    if (a.length) cmds.push("set " + a.join(" "));
    return cmds;
  }
  const defaults = menu.exportFindBy ? (menu.defaults?.(st) ?? []) : [];
  for (const it of st.stored(menu)) {
    if (menu.exportSkip?.(it, st)) continue;
    const findBy = menu.exportFindBy;
    if (findBy && it[findBy] !== undefined) {
      const base = defaults.find((d) => d[findBy] === it[findBy]);
      const a = args(menu, st, it, o, base);
      if (a.length) cmds.push(`set [ find ${findBy}=${it[findBy]} ] ` + a.join(" "));
      continue;
    }
    const a = args(menu, st, it, o);
    cmds.push(["add", ...a].join(" "));
  }
  return cmds;
}

/** Export text (lines joined by `\n`). */
export function exportConfig(st: RouterState, o: ExportOpts): string {
  const out: string[] = [];
  {
    const hw = hardware(st);
    out.push(`# ${fmtDateTime(o.at ?? st.now(), st.v6)} by RouterOS ${hw.version.split(" ")[0]}`);
    out.push(`# software id = ${hw.softwareId}`);
    out.push("#");
    out.push(`# model = ${hw.model}`);
    out.push(`# serial number = ${hw.serial}`);
  }
  for (const m of ALL_MENUS) {
    if (m.noExport || !onRelease(st.release, m.releases)) continue;
    if (o.prefix && m.path !== o.prefix && !m.path.startsWith(o.prefix + "/")) continue;
    const cmds = sectionLines(m, st, o);
    if (!cmds.length) continue;
    const header = m.path.slice(1).split("/").join(" ");
    if (o.terse) {
      for (const c of cmds) out.push(`/${header} ${c}`);
      continue;
    }
    out.push("/" + header);
    for (const c of cmds) out.push(...wrap(c));
  }
  return out.join("\n");
}

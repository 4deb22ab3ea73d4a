/**
 * The `:` commands of the scripting language: :put, :local, :global, :set,
 * :serialize, :if, :foreach, :for, :do, :while, :log, :len, :typeof, :pick,
 * :find, :tostr/:tonum/:tobool/:toarray, :return, :error, :resolve, :delay...
 *
 * @module
 */
import type { Expr, Statement, Word } from "./ast.ts";
import { evalExpr } from "./expr_eval.ts";
import { badCommand, expectedEnd, fail, RosError } from "./errors.ts";
import type { Interp } from "./interp_types.ts";
import type { Arg, Args } from "./interp_types.ts";
import { plainText, ReturnSignal } from "./interp_types.ts";
import { Code, id, isNum, sortedMap, Time, toStr, truthy, type Val } from "./values.ts";
import { parseScript } from "./tokenizer.ts";
import { parseInterval } from "./timefmt.ts";
import { SCRIPT_COMMANDS } from "./script_commands.ts";
import { type Builtin, CONVERSIONS, only } from "./conversions.ts";

function runCode(ip: Interp, a: Arg | undefined): Val {
  if (!a) return null;
  const p = a.pieces[0];
  if (a.pieces.length === 1 && p.k === "block") return ip.runBlock(p.script);
  const v = ip.scriptVal(a);
  if (v instanceof Code) return ip.runBlock(parseScript(v.src));
  if (typeof v === "string") return ip.runBlock(parseScript(v));
  return v;
}

function nameOf(a: Arg): string {
  const t = plainText(a.word);
  if (t === null) throw expectedEnd(a.word.pos);
  return t;
}

/** `($name->key)`: the variable and key expression of an element target. */
function elementTarget(a: Arg): { name: string; key: Expr } | null {
  const pieces = a.word.pieces;
  if (pieces.length !== 1 || pieces[0].k !== "expr") return null;
  const e = pieces[0].expr;
  if (e.k !== "bin" || e.op !== "->" || e.a.k !== "var") return null;
  return { name: e.a.name, key: e.b };
}

/**
 * `array` with element `key` set to `value`: a number at the end of a list
 * appends, a number inside it replaces; any other key makes a keyed array
 * (kept key-sorted, as RouterOS keeps it).
 */
function withElement(array: Val, key: Val, value: Val): Val {
  const list = Array.isArray(array) ? [...array] : null;
  const n = isNum(key) ? Number(key) : -1;
  if (list && Number.isInteger(n) && n >= 0 && n <= list.length) {
    list[n] = value;
    return list;
  }
  const entries: [string, Val][] = array instanceof Map
    ? [...array]
    : (list ?? []).map((v, i) => [String(i), v]);
  const k = toStr(key);
  return sortedMap([...entries.filter(([x]) => x !== k), [k, value]]);
}

function setVar(ip: Interp, name: string, v: Val): void {
  const m = ip.scope.find(name);
  if (m) m.set(name, v);
  else if (ip.st.globals.has(name)) ip.st.globals.set(name, v);
  else ip.scope.vars.set(name, v);
}

function asList(v: Val): Val[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v.values()];
  if (v === null) return [];
  return [v];
}

let jobSeq = 0;

const B: Record<string, Builtin> = {
  put(ip, args) {
    only(args, [], 1);
    const v = args.positional[0] ? ip.scriptVal(args.positional[0]) : "";
    ip.print(toStr(v));
    return null;
  },
  local(ip, args) {
    only(args, [], 2);
    if (!args.positional[0]) throw fail("missing value(s) of argument(s) name");
    const name = nameOf(args.positional[0]);
    ip.scope.vars.set(name, args.positional[1] ? ip.scriptVal(args.positional[1]) : null);
    return null;
  },
  global(ip, args) {
    only(args, [], 2);
    if (!args.positional[0]) throw fail("missing value(s) of argument(s) name");
    const name = nameOf(args.positional[0]);
    if (args.positional[1]) ip.st.globals.set(name, ip.scriptVal(args.positional[1]));
    else if (!ip.st.globals.has(name)) ip.st.globals.set(name, null);
    return null;
  },
  set(ip, args) {
    only(args, [], 2);
    if (!args.positional[0]) throw fail("missing value(s) of argument(s) name");
    const target = elementTarget(args.positional[0]);
    if (target) {
      // `:set ($array->key) value`: one element of an array variable.
      const key = evalExpr(target.key, ip);
      const value = args.positional[1] ? ip.scriptVal(args.positional[1]) : null;
      const found = ip.scope.find(target.name);
      const old = found ? found.get(target.name)! : ip.st.globals.get(target.name) ?? null;
      setVar(ip, target.name, withElement(old, key, value));
      return null;
    }
    setVar(
      ip,
      nameOf(args.positional[0]),
      args.positional[1] ? ip.scriptVal(args.positional[1]) : null,
    );
    return null;
  },
  unset(ip, args) {
    only(args, [], 1);
    if (args.positional[0]) {
      const n = nameOf(args.positional[0]);
      ip.scope.find(n)?.delete(n);
      ip.st.globals.delete(n);
    }
    return null;
  },
  if(ip, args) {
    only(args, ["do", "else"], 1);
    const cond = args.positional[0] ? truthy(ip.argVal(args.positional[0])) : false;
    return cond ? runCode(ip, args.named.get("do")) : runCode(ip, args.named.get("else"));
  },
  foreach(ip, args) {
    // `:foreach n, a in=...` (a blank after the comma) names key and value
    // too; a real script does so (real-output/json-serialize-type-mapping-forum.txt)
    let name = args.positional[0] ? nameOf(args.positional[0]) : "";
    const split = name.endsWith(",") && args.positional.length > 1;
    if (split) name += nameOf(args.positional[1]);
    only(args, ["in", "do"], split ? 2 : 1);
    const inArg = args.named.get("in");
    const v = inArg ? ip.scriptVal(inArg) : null;
    // `:foreach k,v in=$array`: key (or index) and value
    const [keyName, valName] = name.includes(",") ? name.split(",", 2) : [null, name];
    if (keyName !== null) {
      const pairs: [Val, Val][] = v instanceof Map ? [...v] : asList(v).map((x, i) => [i, x]);
      for (const [k, x] of pairs) {
        ip.scope.vars.set(keyName, k);
        ip.scope.vars.set(valName, x);
        runCode(ip, args.named.get("do"));
      }
      return null;
    }
    for (const x of asList(v)) {
      ip.scope.vars.set(name, x);
      runCode(ip, args.named.get("do"));
    }
    return null;
  },
  for(ip, args) {
    only(args, ["from", "to", "step", "do"], 1);
    const name = args.positional[0] ? nameOf(args.positional[0]) : "";
    const num = (
      k: string,
      d: number,
    ) => (args.named.get(k) ? Number(ip.argStr(args.named.get(k)!)) : d);
    const from = num("from", 0), to = num("to", 0);
    const step = num("step", from <= to ? 1 : -1);
    let guard = 0;
    for (let i = from; step > 0 ? i <= to : i >= to; i += step) {
      if (++guard > 100000) break;
      ip.scope.vars.set(name, i);
      runCode(ip, args.named.get("do"));
    }
    return null;
  },
  do(ip, args) {
    only(args, ["do", "while", "on-error"], 1);
    const body = args.positional[0] ?? args.named.get("do");
    const onError = args.named.get("on-error");
    const whileArg = args.named.get("while");
    let guard = 0;
    do {
      try {
        runCode(ip, body);
      } catch (e) {
        if (!(e instanceof RosError) || !onError) throw e;
        runCode(ip, onError);
        return null;
      }
    } while (whileArg && truthy(ip.argVal(whileArg)) && ++guard < 100000);
    return null;
  },
  while(ip, args) {
    only(args, ["do"], 1);
    let guard = 0;
    while (args.positional[0] && truthy(ip.argVal(args.positional[0])) && ++guard < 100000) {
      runCode(ip, args.named.get("do"));
    }
    return null;
  },
  delay(ip, args) {
    only(args, ["delay-time"], 1);
    const a = args.named.get("delay-time") ?? args.positional[0];
    if (a && parseInterval(ip.argStr(a)) === null) {
      throw fail("invalid value for argument delay-time");
    }
    return null;
  },
  log(ip, args) {
    // `:log info "text"` - the level is the command's first positional word
    only(args, [], 2);
    const level = args.positional[0] ? ip.argStr(args.positional[0]) : "info";
    if (!["debug", "error", "info", "warning"].includes(level)) {
      throw fail("bad command name " + level);
    }
    ip.st.log(`script,${level}`, args.positional[1] ? ip.argStr(args.positional[1]) : "");
    return null;
  },
  pick(ip, args) {
    only(args, [], 3);
    const v = args.positional[0] ? ip.scriptVal(args.positional[0]) : null;
    const s = args.positional[1] ? Number(ip.argStr(args.positional[1])) : 0;
    const e = args.positional[2] ? Number(ip.argStr(args.positional[2])) : undefined;
    if (Array.isArray(v)) return e === undefined ? (v[s] ?? null) : v.slice(s, e);
    const str = toStr(v);
    return e === undefined ? (str[s] ?? null) : str.slice(s, e);
  },
  find(ip, args) {
    only(args, [], 3);
    const v = args.positional[0] ? ip.argVal(args.positional[0]) : null;
    const needle = args.positional[1] ? ip.argVal(args.positional[1]) : null;
    if (Array.isArray(v)) {
      const i = v.findIndex((x) => toStr(x) === toStr(needle));
      return i < 0 ? null : i;
    }
    const i = toStr(v).indexOf(toStr(needle));
    return i < 0 ? null : i;
  },
  return(ip, args) {
    only(args, [], 1);
    throw new ReturnSignal(args.positional[0] ? ip.scriptVal(args.positional[0]) : null);
  },
  error(ip, args) {
    only(args, [], 1);
    throw new RosError(args.positional[0] ? ip.argStr(args.positional[0]) : "");
  },
  nothing() {
    return null;
  },
  beep() {
    return null;
  },
  time(ip, args) {
    only(args, [], 1);
    runCode(ip, args.positional[0]);
    return new Time(1000n);
  },
  parse(ip, args) {
    only(args, [], 1);
    const src = args.positional[0] ? ip.argStr(args.positional[0]) : "";
    parseScript(src);
    return new Code(src);
  },
  execute(ip, args) {
    // runs the script as a background job: no console, no confirmation prompts
    const asString = args.positional.findIndex((p) => plainText(p.word) === "as-string");
    if (asString >= 0) args.positional.splice(asString, 1);
    only(args, ["script", "file", "as-string"], 1);
    const a = args.named.get("script") ?? args.positional[0];
    let src = "";
    if (a) {
      const p = a.pieces[0];
      const v = a.pieces.length === 1 && p.k === "block" ? new Code(p.src) : ip.argVal(a);
      src = v instanceof Code ? v.src : toStr(v);
    }
    const saved = ip.out.length;
    const failed = ip.failed;
    ip.runScriptText(src);
    ip.failed = failed;
    const output = ip.out.splice(saved).join("\n");
    if (asString >= 0 || args.named.has("as-string")) return output;
    const file = args.named.get("file");
    if (file) {
      const name = ip.argStr(file);
      ip.st.writeFile(name.endsWith(".txt") ? name : name + ".txt", output, ".txt file");
    }
    return id("*" + (++jobSeq).toString(16).toUpperCase());
  },
  resolve(ip, args) {
    only(args, ["domain-name", "server", "server-port", "type"], 1);
    const a = args.named.get("domain-name") ?? args.positional[0];
    const name = a ? ip.argStr(a) : "";
    return resolveName(ip, name);
  },
};

/** Resolves a name from `/ip/dns/static` (and a few well-known names). */
export function resolveName(ip: Interp, name: string): string {
  const m = ip.st.menus.byPath("/ip/dns/static");
  if (m) {
    for (const it of ip.st.list(m)) {
      if (it.disabled === "true") continue;
      if ((it.name && it.name === name) || (it.regexp && new RegExp(it.regexp).test(name))) {
        if (it.address) return it.address;
      }
    }
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return name;
  if (name === "localhost") return "127.0.0.1";
  const id = ip.st.findByKey("/system/identity", "") ??
    ip.st.list(ip.st.menus.byPath("/system/identity")!)[0];
  if (id && id.name === name) return "192.168.88.1";
  throw fail("failure: dns name does not exist");
}

const ALL: Record<string, Builtin> = { ...B, ...CONVERSIONS, ...SCRIPT_COMMANDS };

/** True when `name` is a `:` command the simulator knows. */
export function isBuiltin(name: string): boolean {
  return Object.hasOwn(ALL, name);
}

/** Runs a `:` command. Unknown names answer `bad command name X`. */
export function runBuiltin(ip: Interp, name: string, word: Word, args: Args, stmt: Statement): Val {
  const b = Object.hasOwn(ALL, name) ? ALL[name] : undefined;
  if (!b) throw badCommand(name, word.pos);
  return b(ip, args, word, stmt);
}

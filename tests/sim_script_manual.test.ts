/**
 * The scripting examples of MikroTik's manual and of real captures
 * (../shared/real-output), run against a simulator of a fitting release over
 * SSH, with the printed lines compared to the capture's.
 *
 * The examples are read from the capture files themselves: every console
 * line of a file runs, in order, on one router (globals carry over, as in
 * the console the example was typed into), except the ones listed with the
 * reason the simulator cannot run them. Outputs are compared line by line
 * after the normalisation the captures call for: Confluence turned some
 * spaces into NO-BREAK SPACEs and left trailing blanks and blank lines, so
 * lines are compared with NBSP as a space, trailing blanks removed and
 * blank lines dropped.
 */
import assert from "node:assert/strict";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { SshConn } from "./sim_helpers.ts";

/**
 * `../shared/real-output` beside the repository; from a worktree one level
 * deeper (`/work/wt/<name>`), the same folder two levels up.
 */
const CANDIDATES = ["../../shared/real-output/", "../../../shared/real-output/"].map((p) =>
  new URL(p, import.meta.url)
);
function isDir(u: URL): boolean {
  try {
    return Deno.statSync(u).isDirectory;
  } catch {
    return false;
  }
}
const DIR = CANDIDATES.find(isDir) ?? CANDIDATES[0];
const present = isDir(DIR);
if (!present) console.log(`note: ${DIR.pathname} not found; the manual's examples are not run`);

/** One console line of a capture and the lines it printed. */
interface Example {
  /** Menu of the prompt (`/ip address`), "" at the root. */
  path: string;
  cmd: string;
  out: string[];
}

const norm = (l: string) => l.replace(/\u00a0/g, " ").trimEnd();

/** The capture text after its `# ---` header line. */
function body(file: string): string {
  const text = Deno.readTextFileSync(new URL(file, DIR));
  const i = text.indexOf("\n# ---\n");
  assert.ok(i >= 0, `${file} has no header end`);
  return text.slice(i + 7);
}

/**
 * The examples of a capture. A command is a line after a console prompt
 * (`[admin@MikroTik] /ip address> :put ...`), or, in files without
 * prompts, a line starting with `:`; the lines after it up to the next
 * command or `----- ... -----` separator are its output.
 */
function examples(file: string): Example[] {
  const lines = body(file).split("\n").map(norm);
  const prompt = /^\[[^\]]*\] ?(.*?)> ?(.*)$/;
  const prompted = lines.some((l) => prompt.test(l));
  const out: Example[] = [];
  let cur: Example | null = null;
  for (const l of lines) {
    if (/^----- .* -----$/.test(l)) {
      cur = null;
      continue;
    }
    const m = prompted ? prompt.exec(l) : null;
    if (m || (!prompted && l.startsWith(":"))) {
      cur = { path: m ? m[1].trim() : "", cmd: m ? m[2] : l, out: [] };
      out.push(cur);
    } else if (cur && l !== "") cur.out.push(l);
  }
  return out;
}

/** Runs every example but the skipped ones over one SSH connection; compares outputs. */
async function runFile(
  file: string,
  version: string,
  skip: { cmd: RegExp; why: string }[],
): Promise<number> {
  const all = examples(file);
  for (const s of skip) {
    assert.ok(all.some((e) => s.cmd.test(e.cmd)), `${file}: no example matches ${s.cmd}`);
  }
  const sim = await startSimulator({ version });
  const ssh = await SshConn.open(sim);
  let ran = 0;
  try {
    for (const e of all) {
      if (skip.some((s) => s.cmd.test(e.cmd))) continue;
      const cd = e.path && e.path !== "/" ? e.path + "\n" : "";
      const r = await ssh.exec(cd + e.cmd);
      const got = r.stdout.split(/\r?\n/).map(norm).filter((l) => l !== "");
      assert.deepEqual(got, e.out, `${file} on ${version}: ${e.cmd}`);
      ran++;
    }
  } finally {
    await ssh.close();
    await sim.close();
  }
  return ran;
}

const ENVIRONMENT = { cmd: /environment print/, why: "`/environment print` is not simulated" };
const DSV = { cmd: /dsv/, why: "DSV (`to=dsv`, `from=dsv`) is not simulated" };

Deno.test({
  name: "manual: :serialize and :deserialize examples (7.17 and 7.24)",
  ignore: !present,
  async fn() {
    for (const version of ["7.17", "7.24"]) {
      const ran = await runFile("json-serialize-deserialize-docs.txt", version, [
        DSV,
        { cmd: /\/file\/get file\.json/, why: "needs the manual's file.json; prints nothing" },
      ]);
      assert.equal(ran, 5, "examples run");
    }
  },
});

Deno.test({
  name: "manual: array, :typeof and :foreach examples (6.49 and 7.16)",
  ignore: !present,
  async fn() {
    assert.equal(
      await runFile("asvalue-find-and-typeof-docs.txt", "6.49.13", [
        ENVIRONMENT,
        { cmd: /dst-address="10.0.0.0\/8"/, why: "needs the lab router's route table" },
      ]),
      4,
    );
    assert.equal(await runFile("asvalue-array-to-string-docs.txt", "6.49.13", [ENVIRONMENT]), 6);
    assert.equal(
      await runFile("asvalue-environment-and-foreach-docs.txt", "7.16.2", [ENVIRONMENT]),
      9,
    );
    assert.equal(await runFile("error-syntax-error-local-scope-docs.txt", "7.16.2", []), 2);
  },
});

/** Members of a one-level JSON object as raw `key` → value text. */
function members(json: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of json.matchAll(/"([^"]+)": ?("(?:[^"\\]|\\.)*"|[^,}]+)/g)) out.set(m[1], m[2]);
  return out;
}

/** The JSON kind of a raw value: a float with six decimals, an integer, a bool, a string... */
function kind(raw: string): string {
  if (/^-?\d+\.\d{6}$/.test(raw)) return "float";
  if (/^-?\d+$/.test(raw)) return "integer";
  if (raw === "true" || raw === "false") return "bool";
  if (raw.startsWith('"')) return "string";
  return raw;
}

/** A value's shape: every run of digits stands for any digits. */
const shape = (raw: string) => new RegExp("^" + raw.replace(/\d+/g, "\\d+") + "$");

Deno.test({
  name: "capture 7.23.2: :serialize of /system/resource and of an empty match",
  ignore: !present,
  async fn() {
    const all = examples("json-serialize-resource-certificate-file-7.23.2-tik4net.txt");
    const resource = all.find((e) => e.cmd.includes("/system resource print as-value"))!;
    const none = all.find((e) => e.cmd.includes("t4n-nonexistent"))!;
    const sim = await startSimulator({ version: "7.23.2" });
    try {
      await new Promise((r) => setTimeout(r, 1100));
      assert.deepEqual(lines(sim, none.cmd), none.out);
      // the capture is abridged and from other hardware: compare each of its
      // members' kind, the uptime's clock form and the version text
      const want = members(resource.out[0]);
      const got = members(lines(sim, resource.cmd)[0]);
      for (const [k, raw] of want) {
        assert.ok(got.has(k), `member ${k}`);
        assert.equal(kind(got.get(k)!), kind(raw), `kind of ${k}`);
      }
      assert.match(got.get("uptime")!, shape(want.get("uptime")!));
      assert.equal(got.get("version"), want.get("version"));
    } finally {
      await sim.close();
    }
  },
});

function lines(sim: SimRouter, cmd: string): string[] {
  return sim.run(cmd).output.split(/\r?\n/).map(norm).filter((l) => l !== "");
}

Deno.test({
  name: "capture 7.16+/7.17: every type through :typeof and :serialize options=json.pretty",
  ignore: !present,
  async fn() {
    // The poster's array (real-output/json-serialize-type-mapping-forum.txt)
    // without its `op` value `(>[:put "echo"])`, which the simulator lacks;
    // bignum/bigneg, there from [:tonsec [:timestamp]], are the printed values.
    const script = '{ :local arr { "num"=0; "str"="mystr"; "emptystr"=""; "ip4"=1.1; ' +
      '"ip6"=1::1; "prefix4"=1.0.0.1/31; "prefix6"=1::1/69; "float"="1.1"; "time"=1s; ' +
      '"now"=[:timestamp]; "null"=[:nothing]; "list"=(1, 2,"three"); ' +
      '"listlist"={(1, 2, 3);("a","b","c")}; "dict"={"a"=1;"b"="z"}; ' +
      '"dictlist"={{"m"="M"};{"z"="Z"}}; "dictdict"={"b"={"one"=1;"two"=2};' +
      '"w"={"1"="one";"2"="two"}}; "bignum"=1738076593889955906; ' +
      '"bigneg"=(0-1738076593889845466); }; :local rv $arr; ' +
      ':foreach n, a in=$arr do={ :set ($rv->"$n-type") [:typeof $a] }; ' +
      ":put [:serialize to=json options=json.pretty $rv] }";
    const all = body("json-serialize-type-mapping-forum.txt");
    const text = all.slice(all.indexOf("----- output"));
    const start = text.indexOf("array BEFORE serialization") + "array BEFORE serialization".length;
    let want = text.slice(start, text.indexOf("convert to JSON", start));
    const now = /"now": ("[^"]*"),"now-type": "time",/.exec(want);
    assert.ok(now, "the capture's now member");
    want = want.replace(now[0], "").replace(/,"optype": "\(op\)","optype-type": "op"/, "");
    const sim = await startSimulator({ version: "7.17" });
    try {
      // the crawler flattened the pretty output: line breaks and indentation
      let got = lines(sim, script).map((l) => l.trimStart()).join("");
      const gotNow = /"now": ("[^"]*"),"now-type": "time",/.exec(got);
      assert.ok(gotNow, got);
      assert.match(gotNow[1], shape(now[1]));
      got = got.replace(gotNow[0], "");
      assert.equal(got, want);
    } finally {
      await sim.close();
    }
  },
});

Deno.test({
  name: "manual: :put [:timestamp] prints weeks, a clock and nanoseconds (7.16)",
  ignore: !present,
  async fn() {
    const shots = examples("asvalue-timestamp-docs.txt").filter((e) =>
      e.cmd === ":put [:timestamp]"
    );
    const shapes = shots.map((e) => shape(e.out[0]));
    assert.equal(shapes.length, 2);
    const sim = await startSimulator({ version: "7.16.2" });
    try {
      const got = lines(sim, ":put [:timestamp]");
      assert.equal(got.length, 1);
      assert.ok(
        shapes.some((s) => s.test(got[0])),
        `${got[0]} has the shape of ${shapes.join(" or ")}`,
      );
    } finally {
      await sim.close();
    }
  },
});

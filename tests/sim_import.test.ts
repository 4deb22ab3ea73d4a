/**
 * The simulator's `/import` per release: its arguments as the command
 * trees give them (`../shared/fidelity`: `dry-run` from 7.16), a verbose
 * run that prints each line and stops at the first error with the lines
 * before it applied, a non-verbose run whose syntax error runs nothing, a
 * dry run that checks and changes nothing, and the wording of MikroTik's
 * documentation examples (`../shared/real-output`, read in place).
 */
import assert from "node:assert/strict";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { importUnits } from "../lib/sim/import_command.ts";

const REAL = ["../../shared/real-output/", "../../../shared/real-output/"]
  .map((p) => new URL(p, import.meta.url))
  .find((u) => {
    try {
      return Deno.statSync(u).isDirectory;
    } catch {
      return false;
    }
  });

/** The console lines of a capture after its header, the prompt's command lines left out. */
function captured(file: string): string[] {
  const text = Deno.readTextFileSync(new URL(file, REAL));
  return text.slice(text.indexOf("\n# ---\n") + 7).split("\n")
    .map((l) => l.replace(/\u00a0/g, " ").trimEnd());
}

/** Put a file on the simulated router (`/file add` on 7.x; a `.txt` made by print on 6.x). */
function putFile(sim: SimRouter, name: string, text: string): void {
  const quoted = '"' +
    text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\$/g, "\\$").replace(/\n/g, "\\n") +
    '"';
  const v6 = sim.version.startsWith("6.");
  if (v6) sim.run(`/file print file=${name.replace(/\.txt$/, "")} where name=""`);
  const out = sim.run(
    v6
      ? `/file set [find name=${name}] contents=${quoted}`
      : `/file add name=${name} contents=${quoted}`,
  );
  assert.equal(out.output, "", out.output);
}

const addresses = (sim: SimRouter) => sim.items("/ip/address").map((a) => a.address);

const THIRD_LINE_FAILS = [
  "/ip address add address=10.51.0.1/24 interface=ether2",
  "/ip address add address=10.51.1.1/24 interface=ether2",
  "/ip address add address=10.51.2.1/24 interface=no-such-port",
  "/ip address add address=10.51.3.1/24 interface=ether2",
  "",
].join("\n");

for (const version of ["6.49.13", "7.12.2", "7.15.3", "7.16.2", "7.20.8", "7.24"]) {
  const v6 = version.startsWith("6.");
  const dryRunHere = !v6 && !version.startsWith("7.12") && !version.startsWith("7.15");
  const file = v6 ? "t.txt" : "t.rsc";

  Deno.test(`sim ${version}: /import verbose=yes stops at the failing line, the lines before applied`, async () => {
    const sim = await startSimulator({ version });
    try {
      putFile(sim, file, THIRD_LINE_FAILS);
      const out = sim.run(`/import file-name=${file} verbose=yes`);
      const lines = out.output.split("\r\n");
      const at = lines.indexOf("#line 3");
      assert.ok(at > 0, out.output);
      assert.equal(lines[at + 1], "/ip address add address=10.51.2.1/24 interface=no-such-port");
      const error = (version >= "7.16" ? "Script Error: " : "") +
        "input does not match any value of interface";
      assert.equal(lines[at + 2], error);
      assert.ok(!lines.includes("#line 4"), "nothing after the failing line ran");
      assert.deepEqual(
        addresses(sim).filter((a) => a.startsWith("10.51.")),
        ["10.51.0.1/24", "10.51.1.1/24"],
      );
    } finally {
      await sim.close();
    }
  });

  Deno.test(`sim ${version}: /import without verbose parses the whole file first`, async () => {
    const sim = await startSimulator({ version });
    try {
      putFile(sim, file, '/ip address add address=10.52.0.1/24 interface=ether2\n:put "x\n');
      const out = sim.run(`/import ${file}`);
      assert.match(out.output, /syntax error \(line 3 column 1\)/);
      assert.ok(!addresses(sim).includes("10.52.0.1/24"), "a syntax error runs nothing");
      putFile(
        sim,
        file.replace("t.", "u."),
        ":put hello\n/ip address add address=10.52.1.1/24 interface=ether2\n",
      );
      const ok = sim.run(`/import file-name=${file.replace("t.", "u.")}`);
      assert.match(
        ok.output,
        /^(Opening script file u\.\S+\r\n\r\n)?hello\r\nScript file loaded and executed successfully\r\n$/,
      );
      assert.ok(addresses(sim).includes("10.52.1.1/24"));
      assert.equal(
        sim.run("/import no-such.rsc").output,
        "Cannot open import file, file does not exist\r\n",
      );
    } finally {
      await sim.close();
    }
  });

  Deno.test(`sim ${version}: /import dry-run ${dryRunHere ? "checks and changes nothing" : "is not an argument"}`, async () => {
    const sim = await startSimulator({ version });
    try {
      putFile(sim, file, THIRD_LINE_FAILS);
      const out = sim.run(`/import file-name=${file} verbose=yes dry-run`);
      if (!dryRunHere) {
        assert.match(out.output, /^expected end of command \(line 1 column \d+\)/);
        return;
      }
      // A reference to nothing is found only by a real run: the dry run passes.
      assert.equal(out.exitCode, 0, out.output);
      assert.match(out.output, /#line 4\r\n/);
      putFile(
        sim,
        "bad.rsc",
        "/ip address add address=10.53.0.1/24 interface=ether2\n/ip address add adress=1\nfoo\n",
      );
      const bad = sim.run("/import file-name=bad.rsc verbose=yes dry-run").output.split("\r\n");
      assert.deepEqual(bad.slice(2), [
        "#line 2",
        "/ip address add adress=1",
        "bad parameter adress (line 2 column 17)",
        "#line 3",
        "foo",
        "bad command name foo (line 3 column 1)",
        "Script Error: found 2 error(s) in import file",
        "",
      ]);
      assert.ok(!addresses(sim).some((a) => a.startsWith("10.5")), "a dry run changes nothing");
      // The console takes `dry-run` as a bare flag only.
      assert.match(sim.run("/import bad.rsc dry-run=yes").output, /^expected end of command/);
    } finally {
      await sim.close();
    }
  });
}

Deno.test("sim: a verbose import's units follow continuations, brackets and open quotes", () => {
  assert.deepEqual(
    importUnits('# c\n/ip address\n\n:if (1) do={\n  :put 1\n}\nadd \\\n  comment=x\n:put "a\nb\n')
      .map((u) => [u.from, u.to]),
    [[2, 2], [4, 6], [7, 8], [9, 11]],
  );
});

Deno.test("sim 7.16: the documentation's /import examples print as the docs show", {
  ignore: !REAL,
}, async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  try {
    putFile(sim, "test.rsc", "this\nthat\n/ip address add foo=1\nthose\nthese\n");
    const doc = captured("error-import-onerror-dry-run-docs.txt");
    const run = (command: string) => sim.run(command).output.split("\r\n").slice(0, -1);
    assert.deepEqual(run('do { import test.rsc } on-error={ :put "Failure" }'), [doc[1]]);
    // The docs' second example (`onerror e in={...}`, 7.13+) needs `:onerror`, which the
    // simulator does not have; the message it shows is the error a non-verbose import stops with.
    assert.deepEqual(run("import test.rsc"), [doc[4].replace("Failure - ", "")]);
    const dry = run("import test.rsc verbose=yes dry-run");
    assert.deepEqual(dry.slice(0, 3), doc.slice(7, 10));
    assert.equal(dry.at(-1), doc[11]);
  } finally {
    await sim.close();
  }
});

Deno.test("sim 6.49: a successful import prints what the documentation shows", {
  ignore: !REAL,
}, async () => {
  const sim = await startSimulator({ version: "6.49.13" });
  try {
    putFile(sim, "address.txt", "/ip address add address=10.54.0.1/24 interface=ether2\n");
    const doc = captured("console-import-success-docs.txt");
    const out = sim.run("import address.txt").output.split("\r\n");
    assert.deepEqual(
      out.slice(0, 3),
      doc.slice(1, 4).map((l) => l.replace("address.rsc", "address.txt")),
    );
  } finally {
    await sim.close();
  }
});

Deno.test("sim 7.16: from-line starts a verbose import at that line", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  try {
    putFile(sim, "f.rsc", ":put one\n:put two\n:put three\n");
    const out = sim.run("/import file-name=f.rsc verbose=yes from-line=2").output.split("\r\n");
    assert.deepEqual(out, [
      "#line 2",
      ":put two",
      "two",
      "#line 3",
      ":put three",
      "three",
      "Script file loaded and executed successfully",
      "",
    ]);
  } finally {
    await sim.close();
  }
});

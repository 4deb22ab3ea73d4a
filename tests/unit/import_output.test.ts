/**
 * Reading what `/import` printed (`lib/routeros/import_output.ts`): the
 * documentation's captures in `../shared/real-output` (read in place), the
 * forms RouterOS 7.24.4 was measured to print (written here in their form,
 * with this test's own lines; sources named in the module), and when a
 * failed import may have changed the router.
 */
import assert from "node:assert/strict";
import { mayHaveApplied, parseImportOutput } from "../../lib/routeros/import_output.ts";
import { hasImportDryRun, importStatement } from "../../lib/routeros/import_revert.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";
import { argsOf, trees, treesAvailable } from "../helpers/trees.ts";

const MENUS = new Set(["/ip/address", "/ip/dns/static"]);

Deno.test("the documentation's successful import is read as done", {
  ignore: !realOutputAvailable(),
}, () => {
  const [body] = capture("console-import-success-docs.txt").blocks;
  const output = body.split("\n").filter((l) => !l.startsWith("[admin@")).join("\n");
  const r = parseImportOutput(output);
  assert.equal(r.ok, true);
  assert.deepEqual(r.units, []);
});

Deno.test("the documentation's dry run: each line's error, and the summary", {
  ignore: !realOutputAvailable(),
}, () => {
  const blocks = capture("error-import-onerror-dry-run-docs.txt").blocks;
  const dry = blocks[2].split("\n").filter((l) => !l.startsWith("[admin@") && l !== "...");
  const r = parseImportOutput(dry.join("\n"));
  assert.equal(r.ok, false);
  assert.equal(r.error, "found 5 error(s) in import file");
  assert.deepEqual(r.problems, [{ line: 1, error: "bad command name this (line 1 column 1)" }]);
  assert.equal(r.line, 1);
  assert.equal(mayHaveApplied(r, MENUS), true, "a summary is not a stop: read as may have");
});

Deno.test("a verbose import that stopped: the failing line, its error, the lines before", () => {
  for (const prefix of ["Script Error: ", ""]) {
    const out = [
      "#line 1",
      "/ip address",
      "#line 2",
      "add address=10.0.0.1/24 interface=ether2",
      "#line 3",
      "add address=10.0.1.1/24 interface=nope",
      `${prefix}input does not match any value of interface`,
      "",
    ].join("\r\n");
    const r = parseImportOutput(out);
    assert.equal(r.ok, false);
    assert.equal(r.line, 3);
    assert.equal(r.error, "input does not match any value of interface");
    assert.equal(r.kind, "missing-reference");
    assert.deepEqual(r.units.map((u) => u.from), [1, 2, 3]);
    assert.equal(mayHaveApplied(r, MENUS), true, "line 2 ran");
    // The same error on the first write after entering the menu changed nothing.
    const first = parseImportOutput(out.replace(/#line 2\r\nadd[^\r]*\r\n/, ""));
    assert.equal(first.line, 3);
    assert.equal(mayHaveApplied(first, MENUS), false);
  }
});

Deno.test("a command over several lines, an error at the end of the file, output of :put", () => {
  const r = parseImportOutput([
    "#line 1",
    ':put "hello"',
    "hello",
    "#line 2..5",
    '/ip dns static add name="open',
    "/ip dns static add name=b address=192.0.2.2",
    "/ip dns static add name=c address=192.0.2.3",
    "",
    "",
    "Script Error: expected name value (line 6 column 1)",
  ].join("\n"));
  assert.equal(r.ok, false);
  assert.deepEqual(r.units[0].output, ["hello"]);
  assert.equal(r.units[1].text.length, 4);
  assert.equal(r.line, 2);
  assert.deepEqual(r.position, { line: 6, column: 1 });
  // It did not parse, but the :put before it ran: not provably nothing.
  assert.equal(mayHaveApplied(r, MENUS), true);
  assert.equal(mayHaveApplied({ ...r, units: r.units.slice(1) }, MENUS), false);
});

Deno.test("7.24 forms: the failing command of a non-verbose run, the import's own position", () => {
  const run = parseImportOutput(
    "Script Error: input does not match any value of interface (/ip/address/add (interface); " +
      "line 4) (:import; line 1)\r\n",
  );
  assert.equal(
    run.error,
    "input does not match any value of interface (/ip/address/add " +
      "(interface); line 4)",
  );
  assert.equal(run.line, 4);
  assert.equal(mayHaveApplied(run, MENUS), true, "a non-verbose run-time error: lines before ran");
  const syntax = parseImportOutput("Script Error: syntax error (line 3 column 12)\n");
  assert.equal(syntax.line, 3);
  assert.equal(syntax.kind, "syntax");
  assert.equal(mayHaveApplied(syntax, MENUS), false, "the file is parsed before it runs");
  const missing = parseImportOutput(
    "Cannot open import file, file does not exist (:import; line 1)\r\n",
  );
  assert.equal(missing.missing, true);
  assert.equal(missing.error, "Cannot open import file, file does not exist");
  assert.equal(mayHaveApplied(missing, MENUS), false);
});

Deno.test("a dry run with no error, and output that never says it finished", () => {
  const ok = parseImportOutput("#line 1\n/ip address add address=10.0.0.1/24 interface=ether2\n");
  assert.equal(ok.ok, true);
  const cut = parseImportOutput("");
  assert.equal(cut.ok, false);
  assert.equal(cut.kind, "unparsable");
  assert.equal(mayHaveApplied(cut, MENUS), true, "unknown is never nothing");
});

Deno.test("a failing line that runs other code or several statements may have applied", () => {
  const at = (line: string) => parseImportOutput(`#line 1\n${line}\nScript Error: failure: x\n`);
  for (
    const line of ["/system script run s", "add comment=a; add comment=b", ":do {add} on-error={}"]
  ) {
    assert.equal(mayHaveApplied(at(line), MENUS), true, line);
  }
  assert.equal(mayHaveApplied(at('/ip address set 0 comment="x"'), MENUS), false);
});

Deno.test("/import's arguments per release are the real trees': dry-run from 7.16", {
  ignore: !treesAvailable(),
}, () => {
  for (const tree of trees()) {
    const args = argsOf(tree, "/", "import");
    assert.ok(args, `${tree.version}: /import`);
    for (const used of ["file-name", "verbose"]) {
      assert.ok(args.has(used), `${tree.version} ${used}`);
    }
    assert.equal(args.has("dry-run"), hasImportDryRun(tree.release), tree.version);
    assert.equal(
      importStatement("a.rsc", hasImportDryRun(tree.release)),
      `/import file-name="a.rsc" verbose=yes${args.has("dry-run") ? " dry-run" : ""}`,
    );
  }
});

/**
 * The one quoting function and the allow-list checks, against the rules in
 * ../shared/routeros-cli.md ("Quoting: the one function for untrusted
 * values"): `\` first, then `"`, `$`, `?`; `\n`, `\r`, `\t`; other control
 * bytes and bytes from 0x7F as uppercase `\XX`; nothing else escaped; names
 * and ids never quoted but allow-listed.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  checkFileName,
  checkId,
  checkMenuPath,
  checkName,
  isFileName,
  quoteValue,
  UnsafeInputError,
} from "../../lib/routeros/quote.ts";
import { forEachExcept } from "../../lib/routeros/command.ts";

Deno.test("quoteValue: the escapes RouterOS takes, and no others", () => {
  assert.equal(quoteValue(""), '""');
  assert.equal(quoteValue('a\\b"c$d?e'), '"a\\\\b\\"c\\$d\\?e"');
  assert.equal(quoteValue("x\ny\rz\tw"), '"x\\ny\\rz\\tw"');
  assert.equal(quoteValue("\x1b\x00\x7f"), '"\\1B\\00\\7F"');
  assert.equal(quoteValue("✅"), '"\\E2\\9C\\85"');
  assert.equal(quoteValue("$[/system reboot]"), '"\\$[/system reboot]"');
  assert.equal(quoteValue("x; /system reboot"), '"x; /system reboot"', "inside quotes ; is text");
});

Deno.test("quoteValue: each byte as the rules say, in plain text and beside an escape", () => {
  const rule = (c: number): string =>
    c === 0x5c
      ? "\\\\"
      : c === 0x22
      ? '\\"'
      : c === 0x24
      ? "\\$"
      : c === 0x3f
      ? "\\?"
      : c === 0x0a
      ? "\\n"
      : c === 0x0d
      ? "\\r"
      : c === 0x09
      ? "\\t"
      : c < 0x20 || c === 0x7f
      ? "\\" + c.toString(16).toUpperCase().padStart(2, "0")
      : String.fromCharCode(c);
  for (let c = 0; c < 0x80; c++) {
    const ch = String.fromCharCode(c);
    // Alone and among plain text (the plain-text shortcut), and beside a byte that is escaped.
    assert.equal(quoteValue(`a${ch}b`), `"a${rule(c)}b"`, `byte ${c}`);
    assert.equal(quoteValue(`é${ch}`), `"\\C3\\A9${rule(c)}"`, `byte ${c} after é`);
  }
});

Deno.test("quoteValue: any string is one quoted token whose escapes are all known", () => {
  fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => {
    const q = quoteValue(s);
    assert.ok(q.startsWith('"') && q.endsWith('"'));
    const inner = q.slice(1, -1);
    // Every backslash starts a known escape; no bare quote, $ or ? and no raw control byte.
    // deno-lint-ignore no-control-regex
    assert.match(inner, /^(?:[^\\"$?\x00-\x1f\x7f-\uffff]|\\[\\"$?nrt]|\\[0-9A-F]{2})*$/);
  }));
});

Deno.test("allow-lists: names, ids and menu paths outside them are refused before sending", () => {
  assert.equal(checkName("src-address"), "src-address");
  assert.equal(checkName(".id"), ".id");
  for (const bad of ["Src", "a b", "a;b", "-x", "", "a=b", "$x"]) {
    assert.throws(() => checkName(bad), UnsafeInputError, bad);
  }
  assert.equal(checkId("*1A"), "*1A");
  for (const bad of ["*1a", "1A", "*", "*1A;", "*123456789"]) {
    assert.throws(() => checkId(bad), UnsafeInputError, bad);
  }
  assert.deepEqual(checkMenuPath("/ip/firewall/filter"), ["ip", "firewall", "filter"]);
  assert.throws(() => checkMenuPath("/ip/../system"), UnsafeInputError);
  assert.throws(() => checkMenuPath("/ip;reboot"), UnsafeInputError);
});

Deno.test("forEachExcept: the ids left alone are checked; with none it is a plain find", () => {
  const where = [{ key: "chain", value: "input" }];
  assert.equal(
    forEachExcept("/ip/firewall/filter", "remove", where, []),
    '/ip firewall filter remove [find where chain="input"]',
  );
  assert.equal(
    forEachExcept("/ip/firewall/filter", "remove", where, ["*1", "*3"]),
    ':foreach i in=[/ip firewall filter find where chain="input"] do={:if ($i != *1 && ' +
      "$i != *3) do={/ip firewall filter remove $i}}",
  );
  assert.throws(
    () => forEachExcept("/ip/route", "remove", where, ["*1;/reboot"]),
    UnsafeInputError,
  );
});

Deno.test("file names: folders with '/', nothing that climbs, hides or escapes", () => {
  for (const ok of ["notes.txt", "flash/notes.txt", "disk1/a b/fw-7.16.npk", "_x", "a..b"]) {
    assert.equal(checkFileName(ok), ok);
  }
  for (
    const bad of [
      "",
      "/etc/passwd",
      "../x",
      "a/../b",
      "a/./b",
      ".hidden",
      "a//b",
      "a/",
      "a\\b",
      'a"b',
      "a$b",
      "a\nb",
      "a\0b",
      "x".repeat(256),
    ]
  ) {
    assert.throws(() => checkFileName(bad), UnsafeInputError, JSON.stringify(bad));
  }
  fc.assert(fc.property(fc.string(), (s) => {
    if (!isFileName(s)) return;
    assert.ok(!s.startsWith("/") && !s.split("/").some((p) => p === "" || p.startsWith(".")));
    assert.match(s, /^[A-Za-z0-9 ._+\/-]+$/);
  }));
});

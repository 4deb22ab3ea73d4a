/** Secret masking of free text: whole tokens for short secrets, anywhere for long ones. */
import assert from "node:assert/strict";
import { maskArgs, maskCommand, maskText } from "../../lib/tools/guard/masking.ts";

Deno.test("maskText: a short secret is masked as a token, not inside other words", () => {
  const text = maskText('next login fails; password "x" was x.', { password: "x" }, ["password"]);
  assert.equal(text, 'next login fails; password "********" was ********.');
});

Deno.test("maskText: a long secret is masked anywhere, and regex characters are literal", () => {
  assert.equal(
    maskText("keyAbc+/def=12345tail", { key: "Abc+/def=12345" }, ["key"]),
    "key********tail",
  );
  assert.equal(maskText("a.b and a+b", { p: "a.b" }, ["p"]), "******** and a+b");
  assert.equal(maskText("untouched", { p: "" }, ["p"]), "untouched");
});

Deno.test("maskText: short values with other characters first, then words; thousands stay whole", () => {
  assert.equal(maskText("a-b then a", { p: "a-b", q: "a" }, ["p", "q"]), "******** then ********");
  // A raw command of 5000 passwords: each is masked in an error that quotes them all.
  const command = Array.from({ length: 5000 }, (_, i) => `password=p${i}x`).join(" ");
  const text = maskText(`failed: ${command}`, { command }, [], ["command"]);
  assert.equal(text, `failed: ${Array(5000).fill("password=********").join(" ")}`);
});

Deno.test("maskCommand: a secret inside a quoted background script is masked too", () => {
  const load =
    ':execute script="/system backup load name=\\"b.backup\\" password=\\"Zq9 not-shown\\""';
  assert.equal(
    maskCommand(load, ["password"]),
    ':execute script="/system backup load name=\\"b.backup\\" password=\\"********\\""',
  );
  assert.equal(maskCommand('/x set password="a\\"b"', ["password"]), '/x set password="********"');
});

Deno.test("raw console text arguments: each secret name=value is masked in args and free text", () => {
  const args = { command: '/user add name=ops password="Hunter 2!" comment=c' };
  assert.deepEqual(maskArgs(args, [], ["command"]), {
    command: '/user add name=ops password="********" comment=c',
  });
  assert.equal(
    maskText('failure near password="Hunter 2!", i.e. Hunter 2!', args, [], ["command"]),
    'failure near password="********", i.e. ********',
  );
  assert.equal(
    maskCommand("/ppp secret add name=u password=p1 service=any"),
    "/ppp secret add name=u password=******** service=any",
    "every command text is masked by RouterOS's secret names, whatever tool sent it",
  );
});

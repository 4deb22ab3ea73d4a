/** Secret masking of free text: whole tokens for short secrets, anywhere for long ones. */
import assert from "node:assert/strict";
import { maskCommand, maskText } from "../../lib/tools/guard/masking.ts";

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

Deno.test("maskCommand: a secret inside a quoted background script is masked too", () => {
  const load =
    ':execute script="/system backup load name=\\"b.backup\\" password=\\"Zq9 not-shown\\""';
  assert.equal(
    maskCommand(load, ["password"]),
    ':execute script="/system backup load name=\\"b.backup\\" password=\\"********\\""',
  );
  assert.equal(maskCommand('/x set password="a\\"b"', ["password"]), '/x set password="********"');
});

/** What a raw command names: statements, menu words, command, argument names; scripting is opaque. */
import assert from "node:assert/strict";
import { parseRawCommand } from "../../lib/routeros/raw_command.ts";

Deno.test("parseRawCommand: space and slash paths, arguments up to where, statements", () => {
  assert.deepEqual(parseRawCommand('/ip address add address=10.0.0.1/24 comment="a; b"'), [
    {
      absolute: true,
      words: ["ip", "address", "add"],
      args: ["address", "comment"],
      opaque: false,
    },
  ]);
  assert.deepEqual(parseRawCommand("/ip/route/print detail where dst-address=0.0.0.0/0"), [
    { absolute: true, words: ["ip", "route", "print", "detail"], args: [], opaque: false },
  ]);
  assert.deepEqual(
    parseRawCommand("/interface\nset [find name=ether1] mtu=1400; print").map((s) => s.words),
    [["interface"], ["set"], ["print"]],
  );
  assert.deepEqual(parseRawCommand("/interface\nset [find name=ether1] mtu=1400")[1].args, ["mtu"]);
});

Deno.test("parseRawCommand: scripting and odd words are opaque", () => {
  for (
    const text of [":put [/system identity get name]", "{ /ip address print }", "$f", "../.. print"]
  ) {
    assert.equal(parseRawCommand(text)[0].opaque, true, text);
  }
  assert.deepEqual(parseRawCommand(" ; \n"), []);
});

/**
 * Client input in an error is an excerpt: at most 80 characters of it, then
 * its full size in bytes; never a split surrogate pair.
 */
import assert from "node:assert/strict";
import { cut, echo } from "../../lib/echo.ts";

Deno.test("echo: short values as JSON, long ones cut with their size", () => {
  assert.equal(echo("MikroTik-1"), '"MikroTik-1"');
  assert.equal(echo(["MikroTik-1"]), '["MikroTik-1"]');
  assert.equal(echo(undefined), "undefined");
  const long = echo("d".repeat(1024 * 1024));
  assert.equal(long, `"${"d".repeat(79)}…(1048578 bytes)`);
  assert.equal(cut("x".repeat(80)), "x".repeat(80));
  assert.equal(cut("é".repeat(100)), `${"é".repeat(80)}…(200 bytes)`);
  // An emoji across the cut is left out whole.
  assert.equal(cut("a".repeat(79) + "😀" + "b"), `${"a".repeat(79)}…(84 bytes)`);
});

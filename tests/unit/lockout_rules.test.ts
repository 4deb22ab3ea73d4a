/**
 * The lock-out guard's pure parts: address-in-prefix for IPv4 and IPv6, and
 * which firewall rules count as matching every packet.
 */
import assert from "node:assert/strict";
import { prefixContains, sameAddress } from "../../lib/routeros/prefix.ts";
import { catchAllRule, mayCut, ownAddress } from "../../lib/tools/guard/lockout.ts";
import type { ToolContext } from "../../lib/tools/tool.ts";

Deno.test("prefixContains: IPv4, IPv6, bare addresses, mapped addresses and bad text", () => {
  assert.equal(prefixContains("10.0.0.0/8", "10.200.1.1"), true);
  assert.equal(prefixContains("10.0.0.0/8", "11.0.0.1"), false);
  assert.equal(prefixContains("192.168.88.0/24", "::ffff:192.168.88.7"), true);
  assert.equal(prefixContains("0.0.0.0/0", "203.0.113.9"), true);
  assert.equal(prefixContains("203.0.113.9", "203.0.113.9"), true);
  assert.equal(prefixContains("203.0.113.9/32", "203.0.113.8"), false);
  assert.equal(prefixContains("2001:db8::/32", "2001:db8:ffff::1"), true);
  assert.equal(prefixContains("2001:db8::/32", "2001:db9::1"), false);
  assert.equal(prefixContains("::/0", "fe80::1"), true);
  assert.equal(prefixContains("::ffff:0:0/96", "::ffff:10.1.2.3"), false, "mapped text is IPv4");
  assert.equal(prefixContains("10.0.0.0/8", "2001:db8::1"), false, "families differ");
  assert.equal(prefixContains("10.0.0.0/33", "10.0.0.1"), false);
  assert.equal(prefixContains("wan-hosts", "10.0.0.1"), false);
  assert.equal(sameAddress("2001:db8:0:0::1/64", "2001:db8::1"), true);
  assert.equal(sameAddress("192.168.88.1/24", "192.168.88.10"), false);
});

Deno.test("catchAllRule: only enabled rules without a matcher, in the named chains and actions", () => {
  const rule = catchAllRule(["input"], ["drop"], "drop").check;
  const ctx = {} as ToolContext;
  const add = (after: Record<string, unknown>) => rule({ verb: "add", after }, ctx);
  assert.match(String(add({ chain: "input", action: "drop", comment: "x", log: true })), /input/);
  assert.equal(add({ chain: "input", action: "drop", src_address: "10.0.0.0/8" }), undefined);
  assert.equal(add({ chain: "input", action: "drop", connection_state: ["invalid"] }), undefined);
  assert.match(String(add({ chain: "input", action: "drop", connection_state: [] })), /input/);
  assert.equal(add({ chain: "input", action: "drop", disabled: true }), undefined);
  assert.equal(add({ chain: "forward", action: "drop" }), undefined);
  assert.equal(add({ chain: "input", action: "accept" }), undefined);
  const same = { chain: "input", action: "drop" };
  assert.equal(
    rule({ verb: "update", before: same, after: { ...same, comment: "c" } }, ctx),
    undefined,
  );
  assert.match(
    String(rule({ verb: "enable", before: { ...same, disabled: true }, after: same }, ctx)),
    /every packet in chain input/,
  );
  assert.equal(mayCut(catchAllRule(["input"], ["drop"], "drop"), "remove", {}), false);
  assert.equal(mayCut(ownAddress, "update", { comment: "x" }), false, "a comment cuts nothing");
  assert.equal(mayCut(ownAddress, "update", { address: "10.0.0.1/24" }), true);
  assert.equal(mayCut(ownAddress, "add", { address: "10.0.0.1/24" }), false);
  const nat = catchAllRule(["dstnat"], "rewriting", "rewrite").check;
  assert.match(
    String(nat({ verb: "add", after: { chain: "dstnat", action: "dst-nat" } }, ctx)),
    /dstnat/,
  );
  assert.equal(nat({ verb: "add", after: { chain: "dstnat", action: "accept" } }, ctx), undefined);
});

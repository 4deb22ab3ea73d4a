/**
 * Pure parts of the resources and completions: resource URIs, the cut of a
 * large resource, and completion matching.
 */
import assert from "node:assert/strict";
import { matching, MAX_VALUES } from "../../lib/server/completions.ts";
import {
  DEVICES_URI,
  deviceUri,
  MAX_RESOURCE_TEXT,
  parseUri,
  truncate,
} from "../../lib/server/resources.ts";

Deno.test("resource URIs: titles with spaces and IPv6 hosts round-trip", () => {
  assert.deepEqual(parseUri(DEVICES_URI), { kind: "devices" });
  for (const title of ["sim", "edge a", "::1", "r/1", "100%"]) {
    const uri = deviceUri(title, "export");
    assert.deepEqual(parseUri(uri), { kind: "export", device: title, rest: "" }, uri);
  }
  assert.deepEqual(parseUri("routeros://sim/print/ip/arp"), {
    kind: "print",
    device: "sim",
    rest: "/ip/arp",
  });
  for (const bad of ["routeros://", "routeros://sim", "file:///etc/passwd", "routeros://%E0/log"]) {
    assert.equal(parseUri(bad), undefined, bad);
  }
});

Deno.test("a large resource is cut at a line, with a note of what was left out", () => {
  assert.equal(truncate("short\n", () => "note"), "short\n");
  const line = "x".repeat(99) + "\n";
  const text = line.repeat(2000);
  const cut = truncate(text, (shown, total) => `# truncated: ${shown} of ${total}`);
  assert.ok(cut.length <= MAX_RESOURCE_TEXT + 100);
  const [body, note] = [cut.slice(0, cut.lastIndexOf("#")), cut.slice(cut.lastIndexOf("#"))];
  assert.ok(body.endsWith("\n") && body.length % 100 === 0, "whole lines only");
  assert.equal(note, `# truncated: ${body.length} of ${text.length}\n`);
});

Deno.test("completion: prefix matches first, then substrings, at most 100", () => {
  const paths = ["/interface", "/ip/address", "/ip/firewall/filter", "/ipv6/firewall/filter"];
  assert.deepEqual(matching(paths, "ip/f").values, ["/ip/firewall/filter"]);
  assert.deepEqual(matching(paths, "firewall").values, [
    "/ip/firewall/filter",
    "/ipv6/firewall/filter",
  ]);
  assert.deepEqual(matching(["ether1", "Ether2", "bridge"], "ETH").values, ["ether1", "Ether2"]);
  const many = Array.from({ length: 150 }, (_, i) => `vlan${i}`);
  const r = matching(many, "vlan");
  assert.equal(r.values.length, MAX_VALUES);
  assert.equal(r.total, 150);
  assert.equal(r.hasMore, true);
});

/**
 * Releases, ranges and the read form each release gets, and the guarded
 * `:serialize` statement and its reader.
 */
import assert from "node:assert/strict";
import { dialectOf, parseVersion } from "../../lib/routeros/dialect.ts";
import {
  compareReleases,
  describeRange,
  inRange,
  parseRelease,
  release,
  releaseOfVersion,
} from "../../lib/routeros/release.ts";
import { putJson, unguard } from "../../lib/routeros/serialize.ts";
import { parseJsonItems } from "../../lib/routeros/parse_json.ts";

Deno.test("releases parse from what RouterOS prints", () => {
  assert.deepEqual(parseRelease("7.16.2"), { major: 7, minor: 16, patch: 2, text: "7.16.2" });
  assert.equal(parseRelease("7.17")?.patch, 0);
  assert.equal(releaseOfVersion("6.49.13 (long-term)")?.text, "6.49.13");
  assert.equal(releaseOfVersion("7.17rc3 (testing)")?.minor, 17);
  for (const bad of ["", "7", "seven", "7.16.2.1", "7.16 stable", "-7.1"]) {
    assert.equal(parseRelease(bad), null, bad);
  }
  assert.ok(compareReleases(release("7.9"), release("7.10")) < 0, "7.9 is older than 7.10");
});

Deno.test("ranges: a minor bound covers its patch releases", () => {
  assert.ok(inRange(release("7.16.2"), { until: "7.16" }));
  assert.ok(!inRange(release("7.17"), { until: "7.16" }));
  assert.ok(!inRange(release("7.16.2"), { until: "7.16.1" }));
  assert.ok(inRange(release("7.17"), { from: "7.17" }));
  assert.ok(!inRange(release("7.16.3"), { from: "7.17" }));
  assert.ok(inRange(release("6.49.13"), { until: "6.49" }));
  assert.equal(describeRange({ from: "7.17" }), "RouterOS 7.17 or later");
  assert.equal(describeRange({ until: "6.49" }), "RouterOS 6");
  assert.equal(describeRange({ from: "7.13", until: "7.16" }), "RouterOS 7.13 to 7.16");
});

Deno.test("read form per release: terse before 7.13, guarded JSON 7.13 to 7.16, JSON from 7.17", () => {
  const table: [string, string][] = [
    ["6.49.13", "terse"],
    ["7.12.2", "terse"],
    ["7.13", "json-guarded"],
    ["7.15.3", "json-guarded"],
    ["7.16.2", "json-guarded"],
    ["7.17", "json"],
    ["7.24", "json"],
  ];
  for (const [r, form] of table) assert.equal(dialectOf(release(r)).read, form, r);
  assert.equal(parseVersion("7.16.2 (stable)")?.read, "json-guarded");
  assert.equal(parseVersion("bad command name version"), null);
});

Deno.test("the :serialize statement of each form, and no options before 7.17", () => {
  const json = putJson(dialectOf(release("7.17")), "[/ip address print detail as-value]", "list");
  assert.equal(
    json,
    ":put [:serialize to=json options=json.no-string-conversion [/ip address print detail as-value]]",
  );
  for (const r of ["7.13", "7.16.2"]) {
    const guarded = putJson(dialectOf(release(r)), "[/ip address print detail as-value]", "list");
    assert.ok(!guarded.includes("options="), `${r}: ${guarded}`);
    assert.match(guarded, /:put \[:serialize to=json \$r\]/);
  }
  assert.throws(() => putJson(dialectOf(release("7.12.2")), "[x]", "list"), /no :serialize/);
});

Deno.test("guarded JSON: every string loses its prefix; a string without it fails closed", () => {
  const line =
    '[{".id":"s*1","comment":"s0042","mtu":1500,"disabled":false,"ranges":["s10.0.0.1-10.0.0.9"]}]';
  assert.deepEqual(parseJsonItems(line, true), [{
    ".id": "*1",
    comment: "0042",
    mtu: 1500,
    disabled: false,
    ranges: ["10.0.0.1-10.0.0.9"],
  }]);
  assert.throws(() => parseJsonItems('[{"comment":42.000000,".id":"*1"}]', true), /unexpected/);
  assert.throws(() => parseJsonItems('[{".id":"*1"}]', true), /unexpected answer/);
  assert.equal(unguard("s"), "");
});

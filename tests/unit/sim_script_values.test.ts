/**
 * The simulator's value rules as pure functions: typed unquoted words,
 * RouterOS's time text, and its JSON writer and reader. The expected texts
 * come from real-output captures in ../shared (named per case).
 */
import assert from "node:assert/strict";
import { literal } from "../../lib/sim/literals.ts";
import { fmtTimeValue, parseInterval, parseTimeNs } from "../../lib/sim/timefmt.ts";
import { type JsonOptions, parseJson, toJson } from "../../lib/sim/json.ts";
import { sortedMap, Time, toStr, typeOf, type Val } from "../../lib/sim/values.ts";

const S = 1_000_000_000n;

Deno.test("unquoted words get the type RouterOS gives them", () => {
  // json-serialize-type-mapping-forum.txt: `"ip4"=1.1` is ip 1.0.0.1,
  // `1::1` ip6, `1.0.0.1/31` ip-prefix, `1::1/69` ip6-prefix 1::/69, `1s` time
  const cases: [string, string, string][] = [
    ["1234", "num", "1234"],
    ["-7", "num", "-7"],
    ["1738076593889955906", "num", "1738076593889955906"],
    ["1.1", "ip", "1.0.0.1"],
    ["10.0.0.1", "ip", "10.0.0.1"],
    ["1::1", "ip6", "1::1"],
    ["1.0.0.1/31", "ip-prefix", "1.0.0.1/31"],
    ["1::1/69", "ip6-prefix", "1::/69"],
    ["1s", "time", "00:00:01"],
    ["ether1", "str", "ether1"],
    ["1.2.3.4.5", "str", "1.2.3.4.5"],
    ["AA:BB:CC:DD:EE:FF", "str", "AA:BB:CC:DD:EE:FF"],
  ];
  for (const [word, type, text] of cases) {
    const v = literal(word);
    assert.equal(typeOf(v), type, word);
    assert.equal(toStr(v), text, word);
  }
  // json-serialize-deserialize-docs.txt: value=a,b,c serialises as ["a","b","c"]
  assert.deepEqual(literal("a,b,c"), ["a", "b", "c"]);
});

Deno.test("time values print in RouterOS's clock form", () => {
  const cases: [bigint, string][] = [
    [300n * S, "00:05:00"],
    [86400n * S, "1d00:00:00"],
    [(604800n + 2n * 86400n + 3n * 3600n + 4n * 60n + 5n) * S, "1w2d03:04:05"],
    // asvalue-timestamp-docs.txt
    [
      2735n * 604800n * S + (21n * 3600n + 41n * 60n + 43n) * S + 481891543n,
      "2735w21:41:43.481891543",
    ],
    // asvalue-ping-timing-and-table-offsets-7.23.2-tik4net.txt: 60us
    [60_000n, "00:00:00.000060"],
    [1_500_000_000n, "00:00:01.500"],
  ];
  for (const [ns, text] of cases) {
    assert.equal(fmtTimeValue(ns), text);
    assert.equal(parseTimeNs(text), ns, text);
  }
  assert.equal(parseTimeNs("1w2d3h4m5s"), (604800n + 2n * 86400n + 3n * 3600n + 245n) * S);
  assert.equal(parseTimeNs("500ms"), 500_000_000n);
  assert.equal(parseTimeNs("90"), null, "bare digits are a num");
  assert.equal(parseInterval("1w2d03:04:05"), 604800 + 2 * 86400 + 3 * 3600 + 245);
});

const JSON_DEFAULT: JsonOptions = { noStringConversion: false, pretty: false, timeForm: "date" };

Deno.test("toJson writes what :serialize prints", () => {
  const v = sortedMap([["string", "1234"], ["number", 1234]] as [string, Val][]);
  // json-serialize-deserialize-docs.txt
  assert.equal(toJson(v, JSON_DEFAULT), '{"number":1234,"string":1234.000000}');
  assert.equal(
    toJson(v, { ...JSON_DEFAULT, noStringConversion: true }),
    '{"number":1234,"string":"1234"}',
  );
  // json-serialize-type-mapping-forum.txt (7.16+/7.17): a 1 s duration
  assert.equal(toJson(new Time(S), JSON_DEFAULT), '"1970-01-01 00:00:01"');
  // json-serialize-resource-certificate-file-7.23.2-tik4net.txt
  const uptime = new Time((6n * 3600n + 42n * 60n + 44n) * S);
  assert.equal(toJson(uptime, { ...JSON_DEFAULT, timeForm: "clock" }), '"06:42:44"');
  assert.equal(toJson(literal("1738076593889955906"), JSON_DEFAULT), "1738076593889955906");
  assert.equal(toJson("7.1", JSON_DEFAULT), "7.100000");
  assert.equal(toJson([], JSON_DEFAULT), "[]");
  const pretty = toJson(sortedMap([["a", 1], ["l", [1, "x"]]] as [string, Val][]), {
    ...JSON_DEFAULT,
    pretty: true,
  });
  assert.equal(pretty, '{\n    "a": 1,\n    "l": [\n        1,\n        "x"\n    ]\n}');
});

Deno.test("parseJson reads what :deserialize reads", () => {
  const v = parseJson('{ "str": "123", "n": 1738076593889955906, "l": [true, null] }', false);
  assert.ok(v instanceof Map);
  assert.equal(typeOf(v.get("str")!), "num");
  assert.equal(toStr(v.get("n")!), "1738076593889955906");
  assert.deepEqual(v.get("l"), [true, null]);
  // json-serialize-deserialize-docs.txt: with json.no-string-conversion "123" stays str
  const kept = parseJson('{ "str": "123" }', true) as Map<string, Val>;
  assert.equal(typeOf(kept.get("str")!), "str");
  assert.throws(() => parseJson("{", false));
  assert.throws(() => parseJson('"a" x', false));
});

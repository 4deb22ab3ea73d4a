/**
 * Script values on the simulated router, per release: array literals,
 * typed numbers and times, `.id` values, `:serialize` and `:deserialize`
 * with their options, and an uptime that passes. Expected texts come from
 * the real-output captures in ../shared (named per case) or are the
 * documented choices of lib/sim/json.ts.
 */
import assert from "node:assert/strict";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";

/** Output lines of one exec (CRLF or LF), without trailing empty lines. */
function out(sim: SimRouter, command: string): string[] {
  const lines = sim.run(command).output.split(/\r?\n/);
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

async function withSim(version: string, fn: (sim: SimRouter) => void | Promise<void>) {
  const sim = await startSimulator({ version });
  try {
    await fn(sim);
  } finally {
    await sim.close();
  }
}

Deno.test("sim 7.x: every form of array literal is a value", async () => {
  await withSim("7.16.2", (sim) => {
    // the manual's example (json-serialize-deserialize-docs.txt)
    assert.deepEqual(out(sim, ':put [:serialize to=json ({"string"="1234";"number"=1234})]'), [
      '{"number":1234,"string":1234.000000}',
    ]);
    assert.deepEqual(out(sim, ":put [:serialize to=json ({})]"), ["[]"]);
    assert.deepEqual(out(sim, ":global q ({}); :put [:typeof $q]; :put [:len $q]"), ["array", "0"]);
    assert.deepEqual(
      out(
        sim,
        ':local test {a=(1,2,3);b=(4,5,6);c=(7,"text",9)}; :put [:serialize to=json $test]',
      ),
      ['{"a":[1,2,3],"b":[4,5,6],"c":[7,"text",9]}'],
    );
    assert.deepEqual(
      out(
        sim,
        ':local q [:toarray ""]; :local Url "https://x"; :local Text "hi"; ' +
          ":set ($q->[:len $q]) { url=$Url; text=$Text }; :put [:serialize to=json $q]",
      ),
      ['[{"text":"hi","url":"https://x"}]'],
    );
    assert.deepEqual(out(sim, ":local l {1;2;3}; :put [:typeof $l]; :put ($l->2)"), [
      "array",
      "3",
    ]);
    assert.deepEqual(out(sim, ":global e {}; :put [:typeof $e]"), ["array"]);
    // keyed elements sort after unkeyed ones (asvalue-environment-and-foreach-docs.txt)
    assert.deepEqual(out(sim, ':foreach k,v in={2; "aX"=1; y=2; 5} do={:put ("$k=$v")}'), [
      "0=2",
      "1=5",
      "aX=1",
      "y=2",
    ]);
    assert.deepEqual(out(sim, ":put [:serialize to=json {z=1;a={b=2;a=(1,{c=3})}}]"), [
      '{"a":{"a":[1,{"c":3}],"b":2},"z":1}',
    ]);
    // a multi-line literal
    assert.deepEqual(out(sim, ':local m {\n  a=1\n  b="x"\n}; :put [:serialize to=json $m]'), [
      '{"a":1,"b":"x"}',
    ]);
    // a block that is not an array literal stays code
    assert.deepEqual(out(sim, ':if (true) do={ :put "ran" }'), ["ran"]);
  });
});

Deno.test("sim 6.49: the empty array literal is a syntax error, others work", async () => {
  await withSim("6.49.13", (sim) => {
    // asvalue-find-and-typeof-docs.txt
    assert.deepEqual(out(sim, "/interface\n:global array {}"), ["syntax error (line 1 column 17)"]);
    // asvalue-array-to-string-docs.txt
    assert.deepEqual(
      out(sim, ':global array {"cccc", "ddddd"}\n:put ("array value is: " . $array )'),
      ["array value is: cccc;array value is: ddddd"],
    );
  });
});

Deno.test("sim: bare numbers are num, quoted ones str, 19 digits exact", async () => {
  await withSim("7.17", (sim) => {
    assert.deepEqual(out(sim, ":local a 1234; :put [:typeof $a]"), ["num"]);
    assert.deepEqual(out(sim, ':local a "1234"; :put [:typeof $a]'), ["str"]);
    assert.deepEqual(out(sim, ':local a {n=5}; :put [:typeof ($a->"n")]'), ["num"]);
    assert.deepEqual(out(sim, ":put (0-1738076593889845466)"), ["-1738076593889845466"]);
    // json-serialize-type-mapping-forum.txt: 19-digit nums stay integers
    assert.deepEqual(out(sim, ":put [:serialize to=json {n=1738076593889955906}]"), [
      '{"n":1738076593889955906}',
    ]);
    assert.deepEqual(out(sim, ":put (2*3); :put (7 / 2); :put (1h + 30m)"), ["6", "3", "01:30:00"]);
  });
});

Deno.test("sim: menu values are typed: time, id, num, bool; print keeps the stored text", async () => {
  await withSim("7.16.2", (sim) => {
    out(sim, "/ip dhcp-server add name=d1 interface=ether2 lease-time=1d2h");
    assert.deepEqual(out(sim, ":put [/ip dhcp-server get d1 lease-time]"), ["1d02:00:00"]);
    assert.deepEqual(out(sim, ":put [:typeof [/ip dhcp-server get d1 lease-time]]"), ["time"]);
    assert.deepEqual(
      out(
        sim,
        ':put ("lease " . ([/ip dhcp-server print as-value where name="d1"]->0->"lease-time"))',
      ),
      ["lease 1d02:00:00"],
    );
    assert.deepEqual(out(sim, ":put [/ip dhcp-server find where lease-time>1d]"), ["*2"]);
    assert.ok(out(sim, "/ip dhcp-server print terse").some((l) => l.includes("lease-time=1d2h")));
    assert.ok(out(sim, "/ip dhcp-server print detail").some((l) => l.includes("lease-time=1d2h")));
    assert.deepEqual(out(sim, ':put [:typeof ([/ip address print as-value]->0->".id")]'), [
      "id",
    ]);
    assert.deepEqual(out(sim, ":put [:typeof ([/ip address find]->0)]"), ["id"]);
    assert.deepEqual(
      out(sim, ":put [:typeof [/ip address add address=10.9.9.1/24 interface=ether2]]"),
      ["id"],
    );
    // asvalue-find-and-typeof-docs.txt: an address read as-value is a str
    assert.deepEqual(out(sim, '/ip address\n:put [:typeof ([print as-value]->0->"address")]'), [
      "str",
    ]);
    assert.deepEqual(out(sim, ':put [:typeof "*1"]'), ["str"]);
  });
});

Deno.test("sim: :serialize prints a time as a date before 7.20 and as a clock from 7.20", async () => {
  const cases: [string, string][] = [
    ["7.15.3", '"1970-01-01 00:30:00"'],
    ["7.17", '"1970-01-01 00:30:00"'],
    ["7.20.8", '"00:30:00"'],
    ["7.24", '"00:30:00"'],
  ];
  for (const [version, want] of cases) {
    await withSim(version, (sim) => {
      assert.deepEqual(
        out(sim, ":put [:serialize to=json [/ip dhcp-server get defconf lease-time]]"),
        [want],
        version,
      );
      assert.deepEqual(out(sim, ":put [:serialize to=json 1d]"), [
        want.startsWith('"1970') ? '"1970-01-02 00:00:00"' : '"1d00:00:00"',
      ], version);
    });
  }
});

Deno.test("sim: :deserialize and json.pretty take what each release takes", async () => {
  const example = ':put [:typeof ([:deserialize "{ \\"str\\": \\"123\\" }" from=json' +
    ' options=json.no-string-conversion]->"str")]';
  const plain = ':put [:typeof ([:deserialize "{ \\"str\\": \\"123\\" }" from=json]->"str")]';
  await withSim("7.15.3", (sim) => {
    assert.match(out(sim, example)[0], /^expected end of command/);
    assert.deepEqual(out(sim, plain), ["num"]);
    assert.match(
      out(sim, ":put [:serialize to=json options=json.pretty {a=1}]")[0],
      /^expected end/,
    );
  });
  await withSim("7.16.2", (sim) => {
    // json-serialize-deserialize-docs.txt
    assert.deepEqual(out(sim, example), ["str"]);
    assert.deepEqual(out(sim, plain), ["num"]);
    assert.deepEqual(out(sim, ":put [:serialize to=json options=json.pretty {a=1;l=(1,2)}]"), [
      "{",
      '    "a": 1,',
      '    "l": [',
      "        1,",
      "        2",
      "    ]",
      "}",
    ]);
    assert.deepEqual(out(sim, ':put [:deserialize from=json value="{\\"a\\":"]'), [
      "failure: json parse error",
    ]);
  });
});

Deno.test("sim: /system/resource uptime passes from the router's boot", async () => {
  await withSim("7.16.2", async (sim) => {
    await new Promise((r) => setTimeout(r, 1100));
    const printed = out(sim, "/system resource print").find((l) => l.includes("uptime:"));
    assert.match(printed ?? "", /uptime: [1-9]\d*s$/);
    assert.match(out(sim, ":put [/system resource get uptime]")[0], /^00:00:[0-5][1-9]$/);
    assert.deepEqual(out(sim, ":put [:typeof [/system resource get uptime]]"), ["time"]);
    assert.match(
      out(sim, ":put [:serialize to=json [/system resource print as-value]]")[0],
      /"uptime":"1970-01-01 00:00:[0-5][1-9]"/,
    );
  });
});

/**
 * `Script.records` on releases without `:serialize` (6.49, 7.12): every
 * key/value line and every record starts with the script's nonce, so a
 * value that holds newlines (a comment) continues its own line and cannot
 * fake a key or a record; `"every"` prints each key a record has.
 */
import assert from "node:assert/strict";
import { bracket, cmd } from "../../lib/routeros/command.ts";
import { dialectOf } from "../../lib/routeros/dialect.ts";
import { release } from "../../lib/routeros/release.ts";
import { Script } from "../../lib/routeros/script.ts";

const PRINT = bracket(cmd("/ip/firewall/filter", "print", { switches: ["as-value"] }));

for (const version of ["6.49.13", "7.12.2"]) {
  Deno.test(`records on ${version}: nonce-marked lines; a value cannot fake a key or a record`, () => {
    const script = new Script(dialectOf(release(version)));
    const every = script.records(PRINT, true, "every");
    const some = script.records(PRINT, true, ["chain", "comment"]);
    const text = script.toString();
    const mark = /--mcp-[0-9a-f]+--/.exec(text)![0];
    // Another script's nonce (the chance that it is this one's: 16^-12).
    const other = mark.replace(/[0-9a-f]/g, "0");
    assert.match(
      text,
      /:foreach k,v in=\$r do=\{:put \("--mcp-[0-9a-f]+--:" \. \$k \. "=" \. \[:tostr \$v\]\)\}/,
    );
    assert.ok(text.includes(`:put ("${mark}:chain=" . ($r->"chain"))`), text);
    const record = [
      `${mark}record`,
      `${mark}:.id=*1`,
      `${mark}:action=drop`,
      `${mark}:chain=input`,
      `${mark}:comment=first line`,
      "action=accept",
      "--mcp-server-router-record--",
      `${other}record`,
      "src-address=10.0.0.0/8",
      `${mark}:connection-state=established;related`,
    ];
    const out = [...record, mark, ...record.slice(0, 5), mark, ""].join("\n");
    const parsed = script.parse(out);
    const rules = parsed.get(every);
    assert.equal(rules.length, 1);
    assert.deepEqual(rules[0], {
      ".id": "*1",
      action: "drop",
      chain: "input",
      comment: [
        "first line",
        "action=accept",
        "--mcp-server-router-record--",
        `${other}record`,
        "src-address=10.0.0.0/8",
      ].join("\n"),
      "connection-state": "established;related",
    });
    assert.equal(parsed.get(some).length, 1);
  });
}

import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { lines, SshConn, sshExec } from "./sim_helpers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("sim ip address: default table print v7", async () => {
  const r = await startSimulator();
  try {
    const out = r.run("/ip address print");
    assert.equal(out.exitCode, 0);
    assert.deepEqual(lines(out.output), [
      "Columns: ADDRESS, NETWORK, INTERFACE",
      "# ADDRESS          NETWORK       INTERFACE",
      ";;; defconf",
      "0 192.168.88.1/24  192.168.88.0  bridge",
    ]);
    assert.equal(r.run("/ip/address/print").output, out.output);
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: add, :put [add], ids never reused, set/remove/get/find", async () => {
  const r = await startSimulator();
  try {
    assert.equal(r.run("/ip address add address=10.0.0.1/24 interface=ether1").output, "");
    const id = r.run(":put [/ip address add address=10.0.1.1/24 interface=ether2]").output.trim();
    assert.match(id, /^\*[0-9A-F]+$/);
    assert.equal(r.run(`/ip address remove ${id}`).output, "");
    const id2 = r.run(":put [/ip/address/add address=10.0.1.1/24 interface=ether2]").output.trim();
    assert.notEqual(id2, id);
    assert.equal(r.run(`/ip address set ${id2} comment="a b"`).output, "");
    assert.equal(r.run(`:put [/ip address get ${id2} comment]`).output, "a b\r\n");
    assert.equal(
      r.run(':put [/ip address find where address="10.0.1.1/24"]').output,
      id2 + "\r\n",
    );
    const items = r.items("/ip/address");
    assert.equal(items.length, 3);
    const it = items.find((i) => i[".id"] === id2)!;
    assert.equal(it.network, "10.0.1.0");
    assert.equal(it.disabled, "false");
    assert.equal(r.run(`/ip address disable ${id2}`).output, "");
    assert.equal(r.items("/ip address").find((i) => i[".id"] === id2)!.disabled, "true");
    assert.equal(r.run(`/ip address enable ${id2}`).output, "");
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: errors are printed and leave state untouched", async () => {
  const r = await startSimulator();
  try {
    const before = JSON.stringify(r.items("/ip/address"));
    const cases: [string, string][] = [
      [
        "/ip address add address=192.168.88.1/24 interface=bridge",
        "failure: already have such address",
      ],
      [
        "/ip address add address=10.9.9.9/24 interface=nope",
        "input does not match any value of interface",
      ],
      [
        "/ip address add address=10.9.9.300/24 interface=ether1",
        "invalid value for argument address",
      ],
      ["/ip address foo", "bad command name foo (line 1 column 13)"],
      ["/ip address remove numbers=*7FFFFFFF", "no such item (4)"],
      ["/ip address remove *7FFFFFFF", "no such item"],
      [':put "a\\y"', "syntax error (line 1 column 8)"],
      [':put "a\\1b"', "syntax error (line 1 column 8)"],
      [
        "/ip address add address=10.9.9.9/24 interface=ether1 bogus=1",
        "expected end of command (line 1 column 54)",
      ],
    ];
    for (const [cmd, err] of cases) {
      const out = r.run(cmd);
      assert.equal(out.output, err + "\r\n", cmd);
      assert.equal(out.exitCode, 1, cmd);
    }
    assert.equal(JSON.stringify(r.items("/ip/address")), before);
    // remove [find] with no match is silent
    assert.equal(r.run('/ip address remove [find where address="1.2.3.4/32"]').output, "");
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: ; chain stops at first error, newline lines continue", async () => {
  const r = await startSimulator();
  try {
    const a = r.run(":put one; /ip address foo; :put two");
    assert.deepEqual(lines(a.output), ["one", "bad command name foo (line 1 column 23)"]);
    const b = r.run(":put one\n/ip address foo\n:put two");
    assert.deepEqual(lines(b.output), ["one", "bad command name foo (line 1 column 13)", "two"]);
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: quoting, escapes and $ substitution", async () => {
  const r = await startSimulator();
  try {
    r.run(':local y "Q"; /ip address add address=10.1.1.1/24 interface=ether1 comment="x$y z"');
    assert.equal(r.items("/ip/address").at(-1)!.comment, "xQ z");
    // undefined variable: syntax error, nothing added
    const out = r.run('/ip address add address=10.1.2.1/24 interface=ether1 comment="x$zz"');
    assert.match(out.output, /^syntax error \(line 1 column \d+\)\r\n$/);
    assert.equal(r.items("/ip/address").length, 2);
    r.run(
      '/ip address add address=10.1.3.1/24 interface=ether1 comment="a\\$b\\"c\\\\d\\?e\\E2\\9C\\85\\1B"',
    );
    assert.equal(r.items("/ip/address").at(-1)!.comment, 'a$b"c\\d?e✅\x1b');
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: print forms", async () => {
  const r = await startSimulator();
  try {
    r.run("/ip address add address=10.0.0.1/24 interface=ether1 comment=uplink");
    assert.equal(r.run("/ip address print count-only").output, "2\r\n");
    assert.equal(r.run('/ip address print count-only where interface="ether1"').output, "1\r\n");
    const terse = lines(r.run("/ip address print terse").output);
    assert.equal(terse.length, 2);
    assert.match(
      terse[1],
      /^1\s+comment=uplink address=10\.0\.0\.1\/24 network=10\.0\.0\.0 interface=ether1/,
    );
    const ids = lines(r.run("/ip address print terse show-ids").output);
    assert.match(ids[0], /^\*1\s/);
    // unquoted value with "/" in where silently matches nothing
    assert.equal(r.run("/ip address print count-only where address=10.0.0.1/24").output, "0\r\n");
    assert.equal(r.run('/ip address print count-only where address="10.0.0.1/24"').output, "1\r\n");
    assert.equal(
      r.run('/ip address print count-only where comment~"^up" and !disabled').output,
      "1\r\n",
    );
    const asValue = r.run(":put [/ip address print as-value]").output;
    assert.match(asValue, /^\.id=\*1;actual-interface=bridge;address=192\.168\.88\.1\/24;/);
    const detail = r.run("/ip address print detail").output;
    assert.match(detail, /;;; uplink/);
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: :serialize to=json with and without no-string-conversion", async () => {
  const r = await startSimulator({ version: "7.17" });
  try {
    r.run('/ip address add address=10.0.0.1/24 interface=ether1 comment="7.1"');
    const j = r.run(":put [:serialize to=json [/ip/address/print detail as-value]]").output.trim();
    const arr = JSON.parse(j);
    assert.equal(arr.length, 2);
    assert.equal(arr[0][".id"], "*1");
    assert.equal(arr[0].disabled, false);
    assert.deepEqual(Object.keys(arr[0]), [...Object.keys(arr[0])].sort());
    assert.match(j, /"comment":7\.100000/);
    const k = r.run(
      ":put [:serialize to=json options=json.no-string-conversion [/ip/address/print detail as-value]]",
    ).output;
    assert.match(k, /"comment":"7\.1"/);
    assert.equal(
      r.run(
        ':put [:serialize to=json [/ip/address/print detail as-value where address="9.9.9.9/32"]]',
      ).output,
      "[]\r\n",
    );
    for (const v of ["7.12", "6.49"] as const) {
      const old = await startSimulator({ version: v });
      try {
        const out = old.run(":put [:serialize to=json [/ip address print detail as-value]]");
        assert.equal(out.output, "bad command name serialize (line 1 column 7)\r\n");
      } finally {
        await old.close();
      }
    }
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: v6 syntax and tables", async () => {
  const r = await startSimulator({ version: "6.49" });
  try {
    assert.equal(r.run("/ip/address/print").output, "expected command name (line 1 column 4)\r\n");
    const out = lines(r.run("/ip address print").output);
    assert.equal(out[0].trimEnd(), "Flags: X - disabled, I - invalid, D - dynamic");
    assert.match(out[1], /^ #\s+ADDRESS\s+NETWORK\s+INTERFACE$/);
  } finally {
    await r.close();
  }
});

Deno.test("sim ip address: read users may not write", async () => {
  const r = await startSimulator({
    users: [{ name: "admin", password: "", group: "full" }, {
      name: "ro",
      password: "pw",
      group: "read",
    }],
  });
  try {
    assert.equal(
      r.run("/ip address add address=10.0.0.1/24 interface=ether1", "ro").output,
      "not enough permissions (9)\r\n",
    );
    assert.equal(r.run("/ip address print count-only", "ro").output, "1\r\n");
  } finally {
    await r.close();
  }
});

Deno.test({
  name: "sim ip address: over SSH (password auth, counters, \\r\\n)",
  ...opts,
  fn: async () => {
    const r = await startSimulator({
      users: [{ name: "admin", password: "secret", group: "full" }],
    });
    try {
      const c = await SshConn.open(r, { password: "secret" });
      const a = await c.exec(":put [/ip address add address=10.0.0.1/24 interface=ether1]");
      assert.match(a.stdout, /^\*[0-9A-F]+\r\n$/);
      assert.equal(a.code, 0);
      const b = await c.exec("/ip address foo");
      assert.equal(b.stdout, "bad command name foo (line 1 column 13)\r\n");
      assert.equal(b.code, 1);
      const d = await c.exec("/ip address print count-only");
      assert.equal(d.stdout, "2\r\n");
      await c.close();
      assert.equal(r.counters.connections, 1);
      assert.equal(r.counters.execChannels, 3);
      assert.equal(r.counters.commands, 3);
      await assert.rejects(sshExec(r, "/ip address print", { password: "wrong" }));
      assert.equal(r.counters.authFailures >= 1, true);
      const e = await sshExec(r, "/ip address print count-only", {
        username: "admin+ct",
        password: "secret",
      });
      assert.equal(e.stdout, "2\r\n");
    } finally {
      await r.close();
    }
  },
});

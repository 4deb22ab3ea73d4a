/**
 * Faithfulness: every output sample and error text of shared/routeros-cli.md
 * rendered by the simulator from equivalent state, compared byte for byte
 * (trailing blanks on lines ignored). The samples are embedded here and, when
 * the document is present, checked to still appear in it verbatim.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { injectItem } from "../lib/sim/testing.ts";
import { FIXED_NOW } from "./sim_helpers.ts";

const DOC = new URL("../../shared/routeros-cli.md", import.meta.url);
let docText: string | null = null;
try {
  docText = Deno.readTextFileSync(DOC);
} catch {
  console.log(`note: ${DOC.pathname} not found; using the embedded samples only`);
}

const norm = (s: string) => s.split(/\r?\n/).map((l) => l.trimEnd()).join("\n").replace(/\n+$/, "");

function inDoc(sample: string): void {
  if (docText !== null) {
    assert.ok(docText.includes(sample), `sample no longer in the doc:\n${sample}`);
  }
}

Deno.test("sim faithful: v7 table with flags legend and ;;; comment line", async () => {
  const sample = [
    "Flags: D - DYNAMIC",
    "Columns: ADDRESS, NETWORK, INTERFACE",
    "#   ADDRESS          NETWORK      INTERFACE",
    "0   ;;; uplink",
    "    10.0.0.1/24      10.0.0.0     ether1",
    "1 D 172.27.27.15/24  172.27.27.0  zt1",
  ].join("\n");
  inDoc(sample);
  const r = await startSimulator();
  try {
    r.run("/ip address remove [find]");
    r.run("/ip address add address=10.0.0.1/24 interface=ether1 comment=uplink");
    injectItem(r, "/interface", {
      name: "zt1",
      type: "zerotier",
      mtu: "2800",
      disabled: "false",
      dynamic: "true",
    });
    injectItem(r, "/ip/address", {
      address: "172.27.27.15/24",
      network: "172.27.27.0",
      interface: "zt1",
      disabled: "false",
      dynamic: "true",
    });
    assert.equal(norm(r.run("/ip address print").output), sample);
  } finally {
    await r.close();
  }
});

Deno.test("sim faithful: v6 table legend and indented #", async () => {
  const legend = "Flags: X - disabled, I - invalid, D - dynamic";
  inDoc(legend);
  const r = await startSimulator({ version: "6.49" });
  try {
    const out = norm(r.run("/ip address print").output).split("\n");
    assert.equal(out[0], legend);
    assert.ok(out[1].startsWith(" # "), out[1]);
  } finally {
    await r.close();
  }
});

Deno.test("sim faithful: singleton print right-aligned on the colon", async () => {
  inDoc("`  name: MikroTik`");
  const r = await startSimulator();
  try {
    assert.equal(r.run("/system identity print").output, "  name: MikroTik\r\n");
  } finally {
    await r.close();
  }
});

Deno.test("sim faithful: export header (v7 ISO date, v6 month date)", async () => {
  inDoc("# 2024-10-25 12:09:43 by RouterOS 7.15.2");
  inDoc("# jul/21/2023 09:42:42 by RouterOS 6.48.6");
  const r7 = await startSimulator({ now: FIXED_NOW });
  const r6 = await startSimulator({ version: "6.49.10", now: FIXED_NOW });
  try {
    assert.equal(
      r7.run("/export").output.split("\r\n")[0],
      "# 2024-06-26 11:42:37 by RouterOS 7.16.2",
    );
    assert.equal(
      r6.run("/export").output.split("\r\n")[0],
      "# jun/26/2024 11:42:37 by RouterOS 6.49.10",
    );
    const wrapped = r7.run("/ip address export").output.split("\r\n");
    assert.ok(
      wrapped.includes("add address=192.168.88.1/24 comment=defconf interface=bridge network=\\"),
    );
    assert.ok(wrapped.includes("    192.168.88.0"));
    for (const l of r7.run("/export").output.split("\r\n")) assert.ok(l.length <= 80, l);
    const terse = r7.run("/export terse").output.split("\r\n");
    assert.ok(
      terse.includes(
        "/ip address add address=192.168.88.1/24 comment=defconf interface=bridge network=192.168.88.0",
      ),
    );
  } finally {
    await r7.close();
    await r6.close();
  }
});

Deno.test("sim faithful: :serialize JSON conventions and :put [add] id", async () => {
  inDoc('`"factory-software":7.100000`');
  inDoc('`.id` as `"*1A"`');
  const r = await startSimulator();
  const r17 = await startSimulator({ version: "7.17" });
  try {
    const j = r.run(":put [:serialize to=json [/system/resource/print as-value]]").output;
    assert.match(j, /^\{.*"factory-software":7\.100000.*\}\r\n$/);
    // json.no-string-conversion is a :serialize option from 7.17 (7.16 takes only json.pretty).
    const k = r17.run(
      ":put [:serialize to=json options=json.no-string-conversion [/system/resource/print as-value]]",
    ).output;
    assert.match(k, /"factory-software":"7\.1"/);
    for (let i = 0; i < 30; i++) r.run(`/ip address add address=10.1.${i}.1/24 interface=ether1`);
    const id = r.run(":put [/ip address add address=10.0.0.1/24 interface=ether1]").output;
    assert.equal(id, "*20\r\n");
    const arr = JSON.parse(
      r.run(':put [:serialize to=json [/ip/address/print detail as-value where comment="defconf"]]')
        .output,
    );
    assert.equal(arr[0][".id"], "*1");
    assert.equal(arr[0].dynamic, false);
    assert.equal(
      r.run(':put [:serialize to=json [/ip/address/print as-value where comment="none"]]').output,
      "[]\r\n",
    );
  } finally {
    await r.close();
    await r17.close();
  }
});

Deno.test("sim faithful: every error text of the doc table", async () => {
  const r7 = await startSimulator();
  const r6 = await startSimulator({ version: "6.49" });
  try {
    const cases: [typeof r7, string, string][] = [
      [r7, "/ip address foo", "bad command name foo (line 1 column 13)"],
      [r7, "/ip address add address=10.0.0.1/24 x", "expected end of command (line 1 column 37)"],
      [r7, ':put "\\y"', "syntax error (line 1 column 7)"],
      [r6, "/ipv6/address/print", "expected command name (line 1 column 6)"],
      [
        r7,
        "/ip address add address=192.168.88.1/24 interface=bridge",
        "failure: already have such address",
      ],
      [r7, "/ip address remove *7FFFFFFF", "no such item"],
      [r7, "/ip address remove numbers=*7FFFFFFF", "no such item (4)"],
      [
        r7,
        "/ip address add address=10.0.0.1/24 interface=nope",
        "input does not match any value of interface",
      ],
      [
        r7,
        "/ip address add address=10.0.0.256/24 interface=ether1",
        "invalid value for argument address",
      ],
      [r7, "/system identity set name=ab numbers=1", "bad parameter numbers (line 1 column 30)"],
      [r7, "/interface bridge add name=ether1", "interface with such name already exists"],
      [
        r7,
        "/interface ethernet set ether1 mtu=1500x",
        "value of mtu contains invalid trailing characters",
      ],
    ];
    for (const [r, cmd, err] of cases) {
      inDoc("`" + err + "`");
      const out = r.run(cmd);
      assert.equal(out.output, err + "\r\n", cmd);
    }
    assert.match(r7.run("/system reboot").output, /action cancelled\r\n$/);
    inDoc("`action cancelled`");
  } finally {
    await r7.close();
    await r6.close();
  }
});

Deno.test("sim faithful: terse flags before the first key, show-ids, as-value, count-only", async () => {
  const r = await startSimulator();
  try {
    r.run("/ip address add address=10.0.0.1/24 interface=ether1 disabled=yes");
    const t = r.run("/ip address print terse").output.split("\r\n");
    // RouterOS 7 terse numbers are as wide as the longest (`0 D E  mac-address=`,
    // real-output/terse-bridge-host-v7.txt); one flag column for X, I and D
    assert.match(t[1], /^1 X address=10\.0\.0\.1\/24 /);
    const s = r.run("/ip address print terse show-ids").output.split("\r\n");
    assert.match(s[1], /^\*2 X address=/);
    const v = r.run(":put [/ip address print as-value]").output;
    assert.match(v, /^\.id=\*1;.*;\.id=\*2;/);
    assert.equal(r.run("/ip address print count-only").output, "2\r\n");
    // v7 accepts both path forms, v6 only the space form
    assert.equal(r.run("/ip/address/print count-only").output, "2\r\n");
  } finally {
    await r.close();
  }
});

Deno.test("sim faithful: routes use routing-table on v7 and routing-mark on v6", async () => {
  const r7 = await startSimulator();
  const r6 = await startSimulator({ version: "6.49" });
  try {
    assert.equal(
      r7.run("/ip route add dst-address=10.50.0.0/16 gateway=192.168.88.2 routing-table=main")
        .output,
      "",
    );
    assert.match(
      r7.run("/ip route add dst-address=10.51.0.0/16 gateway=192.168.88.2 routing-mark=x").output,
      /^expected end of command/,
    );
    assert.equal(
      r6.run("/ip route add dst-address=10.50.0.0/16 gateway=192.168.88.2 routing-mark=x").output,
      "",
    );
    assert.match(
      r6.run("/ip route add dst-address=10.51.0.0/16 gateway=192.168.88.2 routing-table=main")
        .output,
      /^expected end of command/,
    );
    assert.match(r7.run("/log print").output, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /);
  } finally {
    await r7.close();
    await r6.close();
  }
});

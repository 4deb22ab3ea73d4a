/**
 * The export parser and the structured diff: real exports from
 * `../shared/real-output` (RouterOS 6.42 to 7.18, compact, verbose and
 * show-sensitive) parse into menus and commands with nothing left over, and
 * a diff of two exports names each item added, removed or changed.
 */
import assert from "node:assert/strict";
import { diffExports, renderDiff } from "../../lib/routeros/config_diff.ts";
import { isOrdered } from "../../lib/routeros/ordered_menus.ts";
import { logicalLines, parseExport, unquote, words } from "../../lib/routeros/export_parse.ts";
import { capture, captures, realOutputAvailable } from "../helpers/real_output.ts";

Deno.test("export parser: continuations, quotes, brackets", () => {
  assert.deepEqual(logicalLines("add a=1 \\\n    b=2\nadd c=\\\n    3"), [
    "add a=1 b=2",
    "add c=3",
  ]);
  assert.deepEqual(words('set [ find default-name=ether1 ] comment="a b" x=1'), [
    "set",
    "[ find default-name=ether1 ]",
    'comment="a b"',
    "x=1",
  ]);
  assert.equal(unquote('"say \\"hi\\"\\n\\41"'), 'say "hi"\nA');
  const p = parseExport([
    "# 2024-10-25 12:09:43 by RouterOS 7.15.2",
    "/interface ethernet",
    "set [ find default-name=ether2 ] mtu=1514",
    "/ip route",
    "add blackhole dst-address=10.0.0.0/8",
    "/ip service",
    "set telnet disabled=yes",
    "/system identity",
    "set name=r1",
    '/ip firewall filter add action=drop chain=input comment="no way"',
  ].join("\n"));
  assert.equal(p.version, "7.15.2");
  assert.deepEqual([...p.menus.keys()], [
    "/interface/ethernet",
    "/ip/route",
    "/ip/service",
    "/system/identity",
    "/ip/firewall/filter",
  ]);
  assert.equal(p.menus.get("/interface/ethernet")![0].selector, "default-name=ether2");
  assert.deepEqual(p.menus.get("/ip/route")![0].values, {
    blackhole: "yes",
    "dst-address": "10.0.0.0/8",
  });
  assert.equal(p.menus.get("/ip/service")![0].selector, "telnet");
  assert.equal(p.menus.get("/system/identity")![0].selector, undefined);
  assert.equal(p.menus.get("/ip/firewall/filter")![0].values.comment, "no way");
});

Deno.test("export parser: every real export parses with nothing left over", () => {
  if (!realOutputAvailable()) return;
  // Console sessions (a prompt before the command) are not plain exports.
  const files = captures("export-").filter((f) =>
    !/^\s*\[.*\] .*>/m.test(capture(f).blocks.join("\n"))
  );
  assert.ok(files.length >= 5, files.join(", "));
  for (const file of files) {
    const c = capture(file);
    const text = c.blocks.join("\n");
    const p = parseExport(text);
    assert.deepEqual(p.other, [], file);
    assert.ok(p.menus.size > 0, file);
    const commands = [...p.menus.values()].flat();
    // Every command line of the text is one command (continuations joined).
    const expected = logicalLines(text).filter((l) => /^\s*(add|set|remove)\b/.test(l)).length;
    assert.equal(commands.length, expected, file);
    for (const cmd of commands) {
      for (const [k, v] of Object.entries(cmd.values)) {
        assert.ok(!k.includes(" "), `${file}: argument name ${k}`);
        assert.ok(!/^".*"$/s.test(v), `${file}: ${k} still quoted`);
      }
    }
    if (/by RouterOS/.test(text)) assert.equal(p.version, c.version.split(" ")[0], file);
  }
});

Deno.test("export parser: a real 7.15 export's pieces", () => {
  if (!realOutputAvailable()) return;
  const c = capture("export-show-sensitive-v7.15.2-exec-oxidized.txt");
  const p = parseExport(c.blocks.join("\n"));
  const bridge = p.menus.get("/interface/bridge")![0];
  assert.equal(bridge.values.name, "bridge");
  assert.equal(bridge.values["port-cost-mode"], "short", "continuation joined");
  assert.equal(p.menus.get("/interface/pppoe-client")![0].values.password, "password");
  assert.equal(p.menus.get("/port")![0].selector, "0");
});

Deno.test("diff: keyed and unnamed items, set selectors, settings", () => {
  const a = parseExport([
    "/interface bridge",
    "add name=bridge comment=old",
    "add name=gone",
    "/ip address",
    "add address=10.0.0.1/24 interface=bridge",
    "add address=10.0.1.1/24 interface=ether2",
    "/ip firewall filter",
    "add action=accept chain=input protocol=icmp",
    "add action=drop chain=input",
    "/ip service",
    "set telnet disabled=yes",
    "/system identity",
    "set name=a",
  ].join("\n"));
  const b = parseExport([
    "/interface bridge",
    "add name=bridge comment=new",
    "add name=fresh",
    "/ip address",
    "add address=10.0.0.1/24 interface=bridge",
    "add address=10.0.1.1/24 interface=ether3",
    "/ip firewall filter",
    "add action=accept chain=input protocol=icmp",
    "add action=accept chain=input dst-port=22 protocol=tcp",
    "add action=drop chain=input",
    "/ip service",
    "set telnet disabled=no",
    "/system identity",
    "set name=b",
  ].join("\n"));
  const d = diffExports(a, b);
  const menu = (p: string) => d.menus.find((m) => m.menu === p)!;
  assert.deepEqual(menu("/interface/bridge").added, [{
    key: "name=fresh",
    values: { name: "fresh" },
  }]);
  assert.deepEqual(menu("/interface/bridge").removed.map((i) => i.key), ["name=gone"]);
  assert.deepEqual(menu("/interface/bridge").changed, [{
    key: "name=bridge",
    fields: [{ field: "comment", old: "old", new: "new" }],
  }]);
  assert.deepEqual(menu("/ip/address").changed, [{
    key: "#2",
    fields: [{ field: "interface", old: "ether2", new: "ether3" }],
  }]);
  assert.deepEqual(menu("/ip/firewall/filter").added.map((i) => i.values["dst-port"]), ["22"]);
  assert.equal(menu("/ip/firewall/filter").removed.length, 0);
  assert.equal(menu("/ip/firewall/filter").changed.length, 0);
  assert.deepEqual(menu("/ip/service").changed[0], {
    key: "set telnet",
    fields: [{ field: "disabled", old: "yes", new: "no" }],
  });
  assert.deepEqual(menu("/system/identity").changed[0].key, "settings");
  assert.deepEqual([d.added, d.removed, d.changed], [2, 1, 4]);
  assert.match(renderDiff(d), /~ name=bridge comment: old -> new/);
  assert.equal(renderDiff(diffExports(a, a)), "no differences");
});

Deno.test("diff: ignore menus, arguments and values", () => {
  const a = parseExport(
    "/ip address\nadd address=10.0.0.1/24 interface=bridge network=10.0.0.0\n/system identity\nset name=a",
  );
  const b = parseExport(
    "/ip address\nadd address=10.0.0.2/24 interface=bridge network=10.0.0.0\n/system identity\nset name=b",
  );
  assert.equal(diffExports(a, b).menus.length, 2);
  const ignored = diffExports(a, b, {
    ignore: ["/system identity", "/ip/address address"],
  });
  assert.deepEqual(ignored.menus, []);
  assert.deepEqual(
    diffExports(a, b, { ignore: ["/system/identity"], ignoreValues: ["10.0.0.1/24", "10.0.0.2"] })
      .menus,
    [],
  );
});

Deno.test("diff: a menu's natural key matches unnamed adds", () => {
  const a = parseExport("/ip dns static\nadd address=10.0.0.1 name=x\n/ip pool\nadd ranges=1");
  const b = parseExport("/ip dns static\nadd address=10.0.0.2 name=x\n/ip pool\nadd ranges=2");
  const d = diffExports(a, b, { keyOf: (m) => (m === "/ip/pool" ? "ranges" : undefined) });
  assert.deepEqual(
    d.menus.map((m) => [m.menu, m.added.length, m.removed.length, m.changed.length]),
    [
      ["/ip/dns/static", 0, 0, 1],
      ["/ip/pool", 1, 1, 0],
    ],
  );
});

Deno.test("diff: a set on one side only is a change from defaults", () => {
  const a = parseExport("/ip service\nset telnet disabled=yes");
  const b = parseExport("/system identity\nset name=r2");
  assert.deepEqual(diffExports(a, b).menus, [
    {
      menu: "/ip/service",
      added: [],
      removed: [],
      changed: [{ key: "set telnet", fields: [{ field: "disabled", old: "yes" }] }],
      moved: [],
    },
    {
      menu: "/system/identity",
      added: [],
      removed: [],
      changed: [{ key: "settings", fields: [{ field: "name", new: "r2" }] }],
      moved: [],
    },
  ]);
});

/** A firewall filter export of these rules (one `add` per rule). */
function filter(...rules: string[]) {
  return parseExport(["/ip firewall filter", ...rules.map((r) => `add ${r}`)].join("\n"));
}

const SSH = "action=accept chain=input dst-port=22 in-interface-list=LAN protocol=tcp";
const WINBOX = "action=accept chain=input dst-port=8291 in-interface-list=LAN protocol=tcp";
const SNMP = "action=accept chain=input dst-port=161 in-interface-list=LAN protocol=udp";
const ICMP = "action=accept chain=input in-interface-list=LAN protocol=icmp";
const DROP = "action=drop chain=input in-interface-list=!LAN";

Deno.test("diff of an ordered list: comments renamed and a rule inserted is one added, three comments changed", () => {
  // Issue 34: the old diff paired the new rule with the first old rule half like it and
  // reported three rules rewritten (ports, protocols) and one added.
  const d = diffExports(
    filter(`${SSH} comment=ssh`, `${WINBOX} comment=winbox`, `${SNMP} comment=snmp`, DROP),
    filter(
      `${ICMP} comment=icmp`,
      `${SSH} comment="SSH from LAN"`,
      `${WINBOX} comment="Winbox from LAN"`,
      `${SNMP} comment="SNMP from LAN"`,
      DROP,
    ),
  );
  const m = d.menus[0];
  assert.deepEqual(m.added.map((i) => i.values.protocol), ["icmp"]);
  assert.deepEqual(m.removed, []);
  assert.deepEqual(m.moved, []);
  assert.deepEqual(m.changed, [
    { key: "#2", fields: [{ field: "comment", old: "ssh", new: "SSH from LAN" }] },
    { key: "#3", fields: [{ field: "comment", old: "winbox", new: "Winbox from LAN" }] },
    { key: "#4", fields: [{ field: "comment", old: "snmp", new: "SNMP from LAN" }] },
  ]);
  assert.deepEqual([d.added, d.removed, d.changed, d.moved], [1, 0, 3, 0]);
});

Deno.test("diff of an ordered list: a rule moved down is moved, nothing else", () => {
  const d = diffExports(filter(SSH, WINBOX, SNMP, DROP), filter(WINBOX, SNMP, SSH, DROP));
  const m = d.menus[0];
  assert.deepEqual([m.added, m.removed, m.changed], [[], [], []]);
  assert.equal(m.moved.length, 1);
  assert.equal(m.moved[0].values?.["dst-port"], "22");
  assert.deepEqual([m.moved[0].from, m.moved[0].to, m.moved[0].key], [1, 3, "#3"]);
  assert.match(renderDiff(d), /> #3 moved from 1 to 3 .*dst-port="22"/);
});

Deno.test("diff of an ordered list: a deleted rule is removed, the rest kept", () => {
  const d = diffExports(filter(SSH, WINBOX, SNMP, DROP), filter(SSH, SNMP, DROP));
  const m = d.menus[0];
  assert.deepEqual(m.removed.map((i) => [i.key, i.values["dst-port"]]), [["#2", "8291"]]);
  assert.deepEqual([m.added, m.changed, m.moved], [[], [], []]);
});

Deno.test("diff of an ordered list: two identical rules are two items", () => {
  const one = diffExports(filter(SSH, SSH, DROP), filter(SSH, DROP));
  assert.deepEqual([one.added, one.removed, one.changed, one.moved], [0, 1, 0, 0]);
  const two = diffExports(filter(SSH, DROP), filter(SSH, DROP, SSH));
  assert.deepEqual([two.added, two.removed, two.changed, two.moved], [1, 0, 0, 0]);
  assert.equal(two.menus[0].added[0].key, "#3");
  assert.deepEqual(diffExports(filter(SSH, SSH), filter(SSH, SSH)).menus, []);
});

Deno.test("diff of an ordered list: two rules swapped is one move", () => {
  const d = diffExports(filter(SSH, WINBOX, DROP), filter(WINBOX, SSH, DROP));
  assert.deepEqual([d.added, d.removed, d.changed, d.moved], [0, 0, 0, 1]);
  // Swapped and each comment changed: two changes, one of them also a move.
  const both = diffExports(
    filter(`${SSH} comment=a`, `${WINBOX} comment=b`, DROP),
    filter(`${WINBOX} comment=B`, `${SSH} comment=A`, DROP),
  );
  const m = both.menus[0];
  assert.deepEqual([m.added.length, m.removed.length, m.moved.length], [0, 0, 0]);
  assert.deepEqual(m.changed.map((c) => c.fields.map((f) => f.field)), [["comment"], ["comment"]]);
  assert.equal(m.changed.filter((c) => c.from !== undefined).length, 1, "one of them moved");
});

Deno.test("diff: order counts only in ordered menus; named items of an ordered menu can move", () => {
  const a = parseExport(
    "/ip address\nadd address=10.0.0.1/24 interface=a\nadd address=10.0.1.1/24 interface=b",
  );
  const b = parseExport(
    "/ip address\nadd address=10.0.1.1/24 interface=b\nadd address=10.0.0.1/24 interface=a",
  );
  assert.deepEqual(diffExports(a, b).menus, [], "addresses have no order");
  const q = (...names: string[]) =>
    parseExport(
      ["/queue simple", ...names.map((n) => `add name=${n} target=10.0.0.${n.length}/32`)].join(
        "\n",
      ),
    );
  const d = diffExports(q("a", "bb", "ccc"), q("bb", "a", "ccc"));
  assert.deepEqual(
    [d.added, d.removed, d.changed, d.moved],
    [0, 0, 0, 1],
    "simple queues are ordered",
  );
});

Deno.test("diff of an ordered list: a rule moved past others with its comment changed is one change that moved", () => {
  const d = diffExports(
    filter(`${SSH} comment=ssh`, WINBOX, SNMP, DROP),
    filter(WINBOX, SNMP, DROP, `${SSH} comment="ssh, last"`),
  );
  const m = d.menus[0];
  assert.deepEqual([m.added.length, m.removed.length, m.moved.length], [0, 0, 0]);
  assert.deepEqual(m.changed, [{
    key: "#4",
    fields: [{ field: "comment", old: "ssh", new: "ssh, last" }],
    from: 1,
    to: 4,
  }]);
  assert.match(renderDiff(d), /~ #4 \(moved from 1 to 4\) comment: ssh -> ssh, last/);
});

Deno.test("diff of an ordered list: a long list with scattered edits names exactly those edits", () => {
  const rules = Array.from(
    { length: 1500 },
    (_, i) => `action=accept chain=forward dst-port=${1000 + i} protocol=tcp comment=r${i}`,
  );
  const edited = [...rules];
  edited[100] = edited[100].replace("comment=r100", "comment=renamed");
  edited.splice(700, 1); // r700 deleted
  edited.splice(900, 0, "action=drop chain=forward protocol=udp dst-port=53"); // inserted
  const [moved] = edited.splice(1200, 1);
  edited.splice(50, 0, moved); // moved up
  const d = diffExports(filter(...rules), filter(...edited));
  assert.deepEqual([d.added, d.removed, d.changed, d.moved], [1, 1, 1, 1]);
  assert.equal(d.menus[0].removed[0].values.comment, "r700");
  assert.equal(d.menus[0].changed[0].fields[0].new, "renamed");
});

Deno.test({
  name: "ordered menus: every menu that takes move in the real command trees is ordered",
  fn() {
    const dir = new URL("../../../shared/fidelity/", import.meta.url);
    let files: string[];
    try {
      files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
    } catch {
      console.log(`SKIP: ${dir.pathname} is absent (real command trees)`);
      return;
    }
    assert.ok(files.length >= 5);
    for (const f of files) {
      const tree = JSON.parse(Deno.readTextFileSync(new URL(f, dir)));
      for (const [menu, m] of Object.entries(tree.menus as Record<string, { c?: object }>)) {
        if (m.c && "move" in m.c) assert.ok(isOrdered(menu), `${f}: ${menu} takes move`);
      }
    }
  },
});

Deno.test({
  name:
    "diff on a real 7.18.2 export: comments renamed, a rule inserted and one moved in the IPv4 filter, nothing else",
  ignore: !realOutputAvailable(),
  fn() {
    const real = capture("export-show-sensitive-v7.18.2-exec-oxidized.txt").blocks.join("\n");
    const edited = real
      .replace('comment="defconf: accept ICMP"', 'comment="ICMP from anywhere"')
      .replace(
        'comment="defconf: drop invalid" connection-state=\\\n    invalid',
        (m) => m.replace("defconf: drop invalid", "drop invalid input"),
      )
      // A rule inserted before the ICMP one.
      .replace(
        'add action=accept chain=input comment="ICMP',
        "add action=accept chain=input dst-port=22 in-interface-list=LAN protocol=tcp\n" +
          'add action=accept chain=input comment="ICMP',
      );
    // The fasttrack rule moved to the end of the IPv4 filter.
    const fasttrack =
      'add action=fasttrack-connection chain=forward comment="defconf: fasttrack" \\\n' +
      "    connection-state=established,related hw-offload=yes\n";
    assert.ok(edited.includes(fasttrack));
    const moved = edited.replace(fasttrack, "").replace(
      "/ip firewall nat",
      fasttrack + "/ip firewall nat",
    );
    const d = diffExports(parseExport(real), parseExport(moved));
    assert.deepEqual(d.menus.map((m) => m.menu), ["/ip/firewall/filter"]);
    const m = d.menus[0];
    assert.deepEqual(m.added.map((i) => i.values["dst-port"]), ["22"]);
    assert.deepEqual(m.removed, []);
    assert.deepEqual(m.changed.map((c) => [c.key, c.fields]), [
      ["#2", [{ field: "comment", old: "defconf: drop invalid", new: "drop invalid input" }]],
      ["#4", [{ field: "comment", old: "defconf: accept ICMP", new: "ICMP from anywhere" }]],
    ]);
    assert.deepEqual(m.moved.map((x) => [x.from, x.to, x.values?.action]), [
      [8, 12, "fasttrack-connection"],
    ]);
  },
});

/**
 * The export parser and the structured diff: real exports from
 * `../shared/real-output` (RouterOS 6.42 to 7.18, compact, verbose and
 * show-sensitive) parse into menus and commands with nothing left over, and
 * a diff of two exports names each item added, removed or changed.
 */
import assert from "node:assert/strict";
import { diffExports, renderDiff } from "../../lib/routeros/config_diff.ts";
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
    },
    {
      menu: "/system/identity",
      added: [],
      removed: [],
      changed: [{ key: "settings", fields: [{ field: "name", new: "r2" }] }],
    },
  ]);
});

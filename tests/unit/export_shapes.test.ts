/**
 * Exports as real routers write them, and the configs they describe read
 * the same however they are spelled: RouterOS 7 abbreviates property groups
 * (`.ssid` after `configuration.mode`), quotes some values and not others,
 * and writes some defaults on one release and leaves them out on another.
 *
 * The export texts below are written for these tests in the shapes of
 * public exports (each test names its source); nothing is copied from
 * `../shared`. Where the real command trees are present, the expanded
 * names are checked against them.
 */
import assert from "node:assert/strict";
import { diffExports } from "../../lib/routeros/config_diff.ts";
import { parseExport } from "../../lib/routeros/export_parse.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";

/** The `set` arguments of a menu in a real command tree, or null without the trees. */
function treeArgs(version: string, menu: string): Set<string> | null {
  const file = new URL(`../../../shared/fidelity/tree-${version}.json`, import.meta.url);
  try {
    const tree = JSON.parse(Deno.readTextFileSync(file));
    return new Set(String(tree.menus[menu]?.c?.set ?? "").split(" ").filter(Boolean));
  } catch {
    console.log(`SKIP: ${file.pathname} is absent (real command trees)`);
    return null;
  }
}

// Shape of a 7.12 `/interface wifiwave2` export (the menu's name before 7.13): groups
// abbreviated across ` \` continuations, even when the break falls inside a value
// (`configuration.country=\` then `Russia .mode=ap`), and the same property in full on
// the next command. Public exports of this shape: MikroTik forum and GitHub configs such
// as ono7/dotfiles2 `.info/microtik_ax_config.md` (`configuration.mode=ap .ssid=...`).
const WAVE2_7_12 = [
  "# 2023-12-04 10:01:02 by RouterOS 7.12",
  "# software id = AB12-CD34",
  "#",
  "# model = C53UiG+5HPaxD2HPaxD",
  "/interface wifiwave2",
  "set [ find default-name=wifi1 ] channel.band=5ghz-ax .frequency=5000-5400 \\",
  "    .skip-dfs-channels=10min-cac .width=20/40/80mhz configuration.country=\\",
  "    Russia .mode=ap .ssid=home disabled=no security.authentication-types=\\",
  "    wpa2-psk,wpa3-psk .ft=yes .ft-over-ds=yes",
  "set [ find default-name=wifi2 ] channel.band=2ghz-ax \\",
  "    channel.skip-dfs-channels=10min-cac configuration.mode=ap \\",
  "    configuration.ssid=home disabled=no",
].join("\n");

// Shape of a 7.18/7.19 `/interface wifi` export: one long line per command with
// abbreviations and a quoted value with a space (kaihendry/mikrotik-configs@4355032b
// tvroom.rsc, RouterOS 7.18.2: `configuration.country="United Kingdom" .mode=ap .ssid=...`),
// and `add` of a virtual AP (an export of 7.20.4 of the same shape: `add configuration.mode=ap
// .ssid="... Guest" datapath=... master-interface=wifi1`).
const WIFI_7_19 = [
  "# 2025-06-11 08:30:00 by RouterOS 7.19.1",
  "/interface wifi",
  'set [ find default-name=wifi1 ] channel.frequency=5000-5400 .skip-dfs-channels=10min-cac configuration.country="United Kingdom" .mode=ap .ssid=home disabled=no security.authentication-types=wpa2-psk,wpa3-psk .ft=yes',
  'add configuration.mode=ap .ssid="home guest" disabled=no master-interface=wifi1 name=wifi-guest security.authentication-types=wpa2-psk',
].join("\n");

Deno.test("export parser: RouterOS 7 group shorthand, 7.12 wifiwave2 shape", () => {
  const p = parseExport(WAVE2_7_12);
  const [wifi1, wifi2] = p.menus.get("/interface/wifiwave2")!;
  assert.deepEqual(wifi1.values, {
    "channel.band": "5ghz-ax",
    "channel.frequency": "5000-5400",
    "channel.skip-dfs-channels": "10min-cac",
    "channel.width": "20/40/80mhz",
    "configuration.country": "Russia",
    "configuration.mode": "ap",
    "configuration.ssid": "home",
    disabled: "no",
    "security.authentication-types": "wpa2-psk,wpa3-psk",
    "security.ft": "yes",
    "security.ft-over-ds": "yes",
  });
  assert.equal(wifi2.values["channel.skip-dfs-channels"], "10min-cac", "written in full");
  assert.equal(wifi2.values["configuration.ssid"], "home");
  const args = treeArgs("7.12.2", "/interface/wifiwave2");
  if (args) {
    for (const k of Object.keys(wifi1.values)) assert.ok(args.has(k), `7.12.2 has ${k}`);
  }
});

Deno.test("export parser: RouterOS 7 group shorthand, 7.19 wifi shape", () => {
  const p = parseExport(WIFI_7_19);
  const [wifi1, guest] = p.menus.get("/interface/wifi")!;
  assert.equal(wifi1.values["channel.skip-dfs-channels"], "10min-cac");
  assert.equal(wifi1.values["configuration.country"], "United Kingdom");
  assert.equal(wifi1.values["configuration.mode"], "ap");
  assert.equal(wifi1.values["configuration.ssid"], "home");
  assert.equal(wifi1.values["security.ft"], "yes");
  assert.ok(!Object.keys(wifi1.values).some((k) => k.startsWith(".")), "no shorthand left");
  assert.equal(guest.values["configuration.ssid"], "home guest");
  const args = treeArgs("7.20.8", "/interface/wifi");
  if (args) {
    for (const k of Object.keys(wifi1.values)) assert.ok(args.has(k), `7.20.8 has ${k}`);
  }
});

Deno.test("export parser: a group holds within one command only", () => {
  const p = parseExport([
    "/interface wifi",
    "set [ find default-name=wifi1 ] configuration.mode=ap",
    "set [ find default-name=wifi2 ] .ssid=x",
  ].join("\n"));
  const [, wifi2] = p.menus.get("/interface/wifi")!;
  assert.deepEqual(wifi2.values, { ".ssid": "x" }, "no group in its own command: kept as written");
  // `/export terse` writes the same shorthand on its one-line commands (public 7.x terse exports:
  // `/interface wifi set [ find default-name=wifi2 ] channel.band=2ghz-ax .skip-dfs-channels=...`).
  const terse = parseExport(
    "/interface wifi set [ find default-name=wifi2 ] channel.band=2ghz-ax .width=20/40mhz " +
      "configuration.country=Spain .mode=ap disabled=no",
  );
  assert.deepEqual(Object.keys(terse.menus.get("/interface/wifi")![0].values), [
    "channel.band",
    "channel.width",
    "configuration.country",
    "configuration.mode",
    "disabled",
  ]);
});

Deno.test("diff: the same wifi config abbreviated and in full compares equal", () => {
  const full = [
    "# 2025-06-11 08:30:00 by RouterOS 7.19.1",
    "/interface wifi",
    "set [ find default-name=wifi1 ] channel.frequency=5000-5400 channel.skip-dfs-channels=\\",
    '    10min-cac configuration.country="United Kingdom" configuration.mode=ap \\',
    "    configuration.ssid=home disabled=no security.authentication-types=\\",
    "    wpa2-psk,wpa3-psk security.ft=yes",
    'add configuration.mode=ap configuration.ssid="home guest" disabled=no master-interface=wifi1 name=wifi-guest security.authentication-types=wpa2-psk',
  ].join("\n");
  const d = diffExports(parseExport(WIFI_7_19), parseExport(full));
  assert.deepEqual(d.menus, [], JSON.stringify(d.menus));
});

const v6 = (...lines: string[]) =>
  parseExport(["# jul/21/2023 09:42:42 by RouterOS 6.48.6", ...lines].join("\n"));
const v7 = (...lines: string[]) =>
  parseExport(["# 2024-10-25 12:09:43 by RouterOS 7.15.2", ...lines].join("\n"));

Deno.test("diff: a default written by one release and left out by another compares equal", () => {
  // Issue 34: v6 keeps distance=1 on static routes and writes no dst-address=0.0.0.0/0;
  // a 7.x export of a route made in WinBox writes every default.
  const routes6 = v6(
    "/ip route",
    "add distance=1 gateway=192.168.0.1",
    "add distance=1 dst-address=10.2.0.0/16 gateway=172.16.64.2",
  );
  const routes7 = v7(
    "/ip route",
    "add disabled=no distance=1 dst-address=0.0.0.0/0 gateway=192.168.0.1 \\",
    '    pref-src="" routing-table=main scope=30 suppress-hw-offload=no \\',
    "    target-scope=10",
    "add dst-address=10.2.0.0/16 gateway=172.16.64.2",
  );
  assert.deepEqual(diffExports(routes6, routes7).menus, []);
  assert.deepEqual(diffExports(routes7, routes6).menus, []);
  // A value other than the default is still a change, shown as written.
  const far = v7(
    "/ip route",
    "add distance=5 gateway=192.168.0.1",
    "add dst-address=10.2.0.0/16 gateway=172.16.64.2",
  );
  assert.deepEqual(diffExports(routes6, far).menus[0].changed, [{
    key: "#1",
    fields: [{ field: "distance", old: "1", new: "5" }],
  }]);
  // v6 keeps disabled=no on DHCP servers; 7.x leaves it out.
  assert.deepEqual(
    diffExports(
      v6("/ip dhcp-server", "add address-pool=dhcp disabled=no interface=bridge name=dhcp1"),
      v7("/ip dhcp-server", "add address-pool=dhcp interface=bridge name=dhcp1"),
    ).menus,
    [],
  );
});

Deno.test("diff: what a release's missing property means is not guessed", () => {
  // Between two v6 exports, a DHCP server with disabled=no and one without are not taken
  // as equal: no v6 default is declared, so the difference is shown.
  const d = diffExports(
    v6("/ip dhcp-server", "add address-pool=dhcp disabled=no interface=bridge name=dhcp1"),
    v6("/ip dhcp-server", "add address-pool=dhcp interface=bridge name=dhcp1"),
  );
  assert.deepEqual(d.menus[0].changed, [{
    key: "name=dhcp1",
    fields: [{ field: "disabled", old: "no" }],
  }]);
  // And a 7.x server disabled is a change from a v6 one enabled.
  const off = diffExports(
    v6("/ip dhcp-server", "add address-pool=dhcp disabled=no interface=bridge name=dhcp1"),
    v7("/ip dhcp-server", "add address-pool=dhcp disabled=yes interface=bridge name=dhcp1"),
  );
  assert.deepEqual(off.menus[0].changed[0].fields, [{ field: "disabled", old: "no", new: "yes" }]);
});

Deno.test("diff: quoted and unquoted, where or not, in values and in set selectors", () => {
  const a = v7(
    "/interface ethernet",
    "set [ find default-name=ether1 ] comment=uplink",
    "/interface bridge",
    "add name=bridge",
    "/interface bridge port",
    "add bridge=bridge interface=ether2",
  );
  const b = v7(
    "/interface ethernet",
    'set [ find where default-name="ether1" ] comment="uplink"',
    "/interface bridge",
    'add name="bridge"',
    "/interface bridge port",
    'add bridge="bridge" interface="ether2"',
  );
  assert.deepEqual(diffExports(a, b).menus, []);
});

Deno.test({
  name:
    "diff on real exports: a 6.42.5 DHCP client and its 7.x spelling; a 7.18.2 export quoted throughout",
  ignore: !realOutputAvailable(),
  fn() {
    // shared/real-output/export-v6.42.5-ansible.txt writes `add dhcp-options=hostname,clientid
    // disabled=no interface=ether1`; 7.10.1 (export-show-sensitive-v7.10.1-chr-exec-oxidized.txt)
    // writes the same client as `add interface=ether1`.
    const old = capture("export-v6.42.5-ansible.txt").blocks.join("\n");
    const client6 = parseExport(old).menus.get("/ip/dhcp-client")!;
    assert.equal(client6[0].values.disabled, "no");
    const newer = capture("export-show-sensitive-v7.10.1-chr-exec-oxidized.txt").blocks.join("\n");
    const pick = (text: string, menu: string) => {
      const p = parseExport(text);
      return { ...p, menus: new Map([[menu, p.menus.get(menu)!]]) };
    };
    assert.deepEqual(
      diffExports(pick(old, "/ip/dhcp-client"), pick(newer, "/ip/dhcp-client")).menus,
      [],
    );
    // Every value of a real 7.18.2 export quoted, and every selector with `where` and quotes.
    const real = capture("export-show-sensitive-v7.18.2-exec-oxidized.txt").blocks.join("\n");
    const quoted = real
      .replace(/\[ find ([a-z-]+)=([^\s\]"]+) \]/g, '[ find where $1="$2" ]')
      .replace(/(^|\s)(name|interface|bridge|list)=([A-Za-z0-9._-]+)(?=\s|$)/gm, '$1$2="$3"');
    assert.notEqual(quoted, real);
    assert.deepEqual(diffExports(parseExport(real), parseExport(quoted)).menus, []);
  },
});

Deno.test("export parser: a quoted value broken mid-word by the export's wrap; comments among a menu's commands", () => {
  // Shape of kaihendry/mikrotik-configs@3001d1a1 praze.rsc (RouterOS 6.48.3): the wrap falls
  // inside a quoted value (`...,pas\` then `    sword,...`), and `# managed by CAPsMAN`
  // comment lines sit between the `set` commands of `/interface wireless`.
  const p = parseExport([
    "# jun/09/2021 10:17:48 by RouterOS 6.48.3",
    "/interface wireless",
    "# managed by CAPsMAN",
    "# channel: 2452/20-Ce/gn(20dBm), SSID: home, CAPsMAN forwarding",
    "set [ find default-name=wlan1 ] ssid=MikroTik station-roaming=enabled",
    "/user group",
    'set full policy="local,telnet,ssh,ftp,reboot,read,write,policy,test,winbox,pas\\',
    '    sword,web,sniff,sensitive,api,romon,dude,tikapp"',
  ].join("\n"));
  assert.deepEqual(p.other, []);
  assert.equal(p.menus.get("/interface/wireless")!.length, 1);
  assert.match(p.menus.get("/user/group")![0].values.policy, /,winbox,password,web,/);
});

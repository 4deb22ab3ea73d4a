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

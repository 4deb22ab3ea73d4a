/**
 * The simulator's print and export formats held against real routers'
 * output (`../shared/real-output`, read in place, skipped with a reason
 * when absent) and against public captures named where they are used
 * (their shapes, in text written here).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { wrapCommand } from "../lib/sim/export.ts";
import { parseExport } from "../lib/routeros/export_parse.ts";
import { injectItem } from "../lib/sim/testing.ts";
import { capture, realOutputAvailable } from "./helpers/real_output.ts";

const ignore = !realOutputAvailable();
const at = () => new Date("2024-06-26T11:42:37Z");
const linesOf = (out: string) => out.split("\r\n").filter((l) => l !== "");

/** The `add`/`set` commands of an export, each as the lines it was written in. */
function commandsOf(text: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | null = null;
  for (const l of text.replace(/\r/g, "").split("\n")) {
    if (cur) {
      cur.push(l);
      if (!l.endsWith("\\")) {
        out.push(cur);
        cur = null;
      }
    } else if (/^(add|set) /.test(l)) {
      if (l.endsWith("\\")) cur = [l];
      else out.push([l]);
    }
  }
  return out;
}

/** A command's head and arguments, from its lines joined (quotes kept whole). */
function splitCommand(lines: string[]): [string, string[]] {
  const joined = lines.map((l, i) => (i ? l.slice(4) : l))
    .map((l, i, a) => (i < a.length - 1 ? l.slice(0, -1) : l)).join("");
  const tokens: string[] = [];
  let t = "";
  let quoted = false;
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i];
    if (c === "\\" && quoted) {
      t += c + joined[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === " " && !quoted) {
      if (t) tokens.push(t);
      t = "";
    } else t += c;
  }
  if (t) tokens.push(t);
  const head = [tokens.shift()!];
  if (tokens[0] === "[") head.push(...tokens.splice(0, tokens.indexOf("]") + 1));
  return [head.join(" "), tokens];
}

Deno.test({
  name: "export wrap: every command of real 7.10.1, 7.15.2 and 7.18.2 exports wraps as they do",
  ignore,
  fn() {
    // The contributor of the 7.15.2 capture replaced addresses, list names and
    // the SNMP location (its header says so): those three commands were
    // wrapped for their original, longer values.
    const sanitized = [/network=\\$/, /src-address-list=\\$/, /location="Riga, LATIVA" \\$/];
    let checked = 0;
    for (
      const file of [
        "export-show-sensitive-v7.10.1-chr-exec-oxidized.txt",
        "export-show-sensitive-v7.15.2-exec-oxidized.txt",
        "export-show-sensitive-v7.18.2-exec-oxidized.txt",
      ]
    ) {
      for (const real of commandsOf(capture(file).blocks.join(""))) {
        if (file.includes("7.15.2") && sanitized.some((re) => re.test(real[0]))) continue;
        const [head, args] = splitCommand(real);
        assert.deepEqual(wrapCommand(head, args), real, `${file}: ${real[0]}`);
        checked++;
      }
    }
    assert.ok(checked > 190, `${checked} commands`);
  },
});

Deno.test("export wrap: a script's newlines start lines, a long value is cut at 78, a blank at a cut is \\_", () => {
  // The shapes of public /system script exports (6.48.1 and 7.15 routers): `policy=\`
  // before a list that fits a line, `source=":\` when the value starts at the end
  // of a line, `...\r\` then `    \n...` at each CRLF, `\_` where a cut falls on a
  // blank.
  const source = '":local host \\"8.8.8.8\\"\\r\\n:if ([/ping \\$host count=3] = 0) do={' +
    '/log warning \\"NetWatch_check: host down, the router will retry in a minute\\"}\\r\\n"';
  const lines = wrapCommand("add", [
    "dont-require-permissions=no",
    "name=NetWatch_check",
    "owner=admin",
    "policy=ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon",
    `source=${source}`,
  ]);
  assert.deepEqual(lines, [
    "add dont-require-permissions=no name=NetWatch_check owner=admin policy=\\",
    '    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon source=":\\',
    '    local host \\"8.8.8.8\\"\\r\\',
    '    \\n:if ([/ping \\$host count=3] = 0) do={/log warning \\"NetWatch_check: host\\',
    '    \\_down, the router will retry in a minute\\"}\\r\\',
    '    \\n"',
  ]);
  for (const l of lines) assert.ok(l.length <= 79, l);
});

Deno.test("sim export: v6 keeps distance=1 and disabled=no and leaves out dst-address=0.0.0.0/0; 7.x the reverse", async () => {
  for (const version of ["6.49.13", "7.16.2"]) {
    const r = await startSimulator({ version, now: at });
    try {
      r.run("/ip route add gateway=10.0.0.1");
      r.run("/ip dhcp-client add interface=ether4");
      const text = r.run("/export").output.replace(/\r/g, "");
      const v6 = version.startsWith("6");
      const route = /^\/ip route\n((?:add .*\n)+)/m.exec(text)![1];
      assert.equal(
        route,
        v6
          ? "add distance=1 gateway=192.168.88.254\nadd distance=1 gateway=10.0.0.1\n"
          : "add dst-address=0.0.0.0/0 gateway=192.168.88.254\n" +
            "add dst-address=0.0.0.0/0 gateway=10.0.0.1\n",
      );
      assert.match(text, v6 ? /^add disabled=no interface=ether4$/m : /^add interface=ether4$/m);
      assert.match(
        text,
        v6
          ? /^add address-pool=default-dhcp disabled=no interface=bridge/m
          : /^add address-pool=default-dhcp interface=bridge/m,
      );
      // `network=\` then the value, as real-output/export-show-sensitive-v7.18.2-exec-oxidized.txt
      assert.match(
        text,
        /^add address=192\.168\.88\.1\/24 comment=defconf interface=bridge network=\\\n {4}192\.168\.88\.0$/m,
      );
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim export: a script with CRLF exports as real ones do and reads back whole", async () => {
  const r = await startSimulator({ version: "6.49.13", now: at });
  try {
    const src = ":local a 1\\r\\n:put \\$a\\r\\n";
    assert.equal(r.run(`/system script add name=NetWatch_check source="${src}"`).output, "");
    const text = r.run("/system script export").output.replace(/\r/g, "");
    const body = text.split("\n").filter((l) => !l.startsWith("#"));
    assert.deepEqual(body.slice(0, 5), [
      "/system script",
      "add dont-require-permissions=no name=NetWatch_check owner=admin policy=\\",
      '    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon source=":\\',
      "    local a 1\\r\\",
      "    \\n:put \\$a\\r\\",
    ]);
    const item = parseExport(text).menus.get("/system/script")![0];
    assert.equal(item.values.source, ":local a 1\r\n:put $a\r\n");
  } finally {
    await r.close();
  }
});

Deno.test("sim 7.x export: wifi groups abbreviated as real exports write them; dotted names taken as arguments", async () => {
  const r = await startSimulator({ version: "7.20.8", now: at });
  try {
    const set =
      "/interface wifi set wifi1 channel.frequency=5180 channel.skip-dfs-channels=10min-cac" +
      " configuration.hide-ssid=yes configuration.ssid=home";
    assert.equal(r.run(set).output, "");
    const text = r.run("/interface wifi export terse").output;
    // `configuration.country="United Kingdom" .mode=ap .ssid=praze` (kaihendry/mikrotik-configs
    // tvroom.rsc, 7.18.2)
    assert.match(
      text,
      /^\/interface wifi set \[ find default-name=wifi1 \] channel\.frequency=5180 \.skip-dfs-channels=10min-cac configuration\.hide-ssid=yes \.ssid=home\r$/m,
    );
    const wifi1 = parseExport(text).menus.get("/interface/wifi")![0].values;
    assert.equal(wifi1["channel.skip-dfs-channels"], "10min-cac");
    assert.equal(wifi1["configuration.ssid"], "home");
  } finally {
    await r.close();
  }
  const v6 = await startSimulator({ version: "6.49.13", now: at });
  try {
    assert.doesNotMatch(v6.run("/export").output, /(^| )\.[a-z]/m, "no shorthand on 6.x");
  } finally {
    await v6.close();
  }
});

Deno.test({
  name:
    "sim 6.49 terse: an address list prints line for line as real-output/terse-address-list-v4.txt",
  ignore,
  async fn() {
    // Rows 0 to 14 (row 15 lost its flag columns to an edit, its header says).
    const real = capture("terse-address-list-v4.txt").blocks[0].split("\n").slice(0, 15);
    const r = await startSimulator({ version: "6.49.13", now: at });
    try {
      for (const line of real) {
        const m = /^ *\d+ ([XD ]) list=(\S+) address=(\S+)/.exec(line)!;
        if (m[1] === "D") {
          // a dynamic entry beside a disabled one of the same address: one a firewall
          // rule adds (add-src-to-address-list), as a real router gets it
          injectItem(r, "/ip/firewall/address-list", {
            list: m[2],
            address: m[3],
            "creation-time": "jun/26/2024 11:42:37",
            timeout: "5m",
            dynamic: "true",
            disabled: "false",
          });
          continue;
        }
        const extra = m[1] === "X" ? " disabled=yes" : "";
        const add = `/ip firewall address-list add list=${m[2]} address=${m[3]}${extra}`;
        assert.equal(r.run(add).output, "");
      }
      // what varies: the clock, a timeout's count-down, the trailing blank some captures keep
      const norm = (l: string) =>
        l.replace(/creation-time=\S+ \S+/, "creation-time=T").replace(/timeout=\S+/, "timeout=S")
          .trimEnd();
      assert.deepEqual(
        linesOf(r.run("/ip firewall address-list print terse").output).map(norm),
        real.map(norm),
      );
    } finally {
      await r.close();
    }
  },
});

Deno.test("sim terse: flag columns per group, numbers as wide as RouterOS prints them, detail terse is terse", async () => {
  const r6 = await startSimulator({ version: "6.49.13", now: at });
  const r7 = await startSimulator({ version: "7.12.2", now: at });
  try {
    // v6 interfaces: D; X, R; S (real-output/terse-interface-v6-flags.txt: ` 0 D   name=`, ` 3  R  name=`)
    const if6 = linesOf(r6.run("/interface print terse").output);
    assert.match(if6[0], /^ 0 {2}R {2}name=ether1 /);
    assert.match(if6[1], /^ 1 {2}RS name=ether2 /);
    assert.match(if6[2], /^ 2 {3}S name=ether3 /);
    // v6 bridge ports: X, I; D; H (` 1 XI   interface=`, ` 5 I H interface=` in a public capture)
    r6.run("/interface bridge port disable [find interface=ether3]");
    const port6 = linesOf(r6.run("/interface bridge port print terse").output);
    assert.match(port6[0], /^ 0 {3}H comment=defconf interface=ether2 /);
    assert.match(port6[1], /^ 1 XI {3}comment=defconf interface=ether3 /);
    // v7 terse numbers are as wide as the longest; dynamic routes have none
    const routes7 = linesOf(r7.run("/ip route print terse").output);
    assert.match(routes7[0], /^0 {2}As {3}dst-address=0\.0\.0\.0\/0 routing-table=main /);
    assert.match(routes7[1], /^ {2}DAc {3}dst-address=192\.168\.88\.0\/24 /);
    // `print detail terse` is one line per item, with no legend
    for (const r of [r6, r7]) {
      const both = r.run("/interface bridge port print detail terse").output;
      assert.equal(both, r.run("/interface bridge port print terse").output);
    }
  } finally {
    await r6.close();
    await r7.close();
  }
});

Deno.test("sim bridge ports: every property a real port prints, in its order, per release", async () => {
  // v6: a public `/interface bridge port print terse` (devicemanager RB2011iL fixture) shows
  // these 24 properties in this order; 7.23.2 (`print detail` of a public session) drops the
  // path costs, and adds trusted-ra, trusted-dhcpv6 and the MVRP states before multicast-router.
  const v6 = "interface bridge priority path-cost internal-path-cost edge point-to-point learn " +
    "horizon hw auto-isolate restricted-role restricted-tcn pvid frame-types ingress-filtering " +
    "unknown-unicast-flood unknown-multicast-flood broadcast-flood tag-stacking bpdu-guard " +
    "trusted multicast-router fast-leave";
  const v7 = "interface bridge priority edge point-to-point learn horizon hw auto-isolate " +
    "restricted-role restricted-tcn pvid frame-types ingress-filtering unknown-unicast-flood " +
    "unknown-multicast-flood broadcast-flood tag-stacking bpdu-guard trusted trusted-ra " +
    "trusted-dhcpv6 mvrp-registrar-state mvrp-applicant-state multicast-router fast-leave";
  for (const [version, want, filtering] of [["6.49.13", v6, "no"], ["7.24", v7, "yes"]]) {
    const r = await startSimulator({ version, now: at });
    try {
      const line = linesOf(r.run("/interface bridge port print terse").output)[0];
      const keys = [...line.matchAll(/ ([a-z][a-z0-9-]*)=/g)].map((m) => m[1]);
      assert.equal(keys.filter((k) => k !== "comment").join(" "), want, version);
      assert.match(line, new RegExp(` ingress-filtering=${filtering} `));
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim get: a selection of two items is an error on 7.x (invalid internal item number), the first on 6.x", async () => {
  for (
    const [version, want] of [["7.16.2", "invalid internal item number\r\n"], [
      "6.49.13",
      "ether1\r\n",
    ]]
  ) {
    const r = await startSimulator({ version });
    try {
      assert.equal(r.run(':put [/interface get [find type="ether"] name]').output, want, version);
      assert.equal(r.run(':put [/interface get [find name="ether2"] name]').output, "ether2\r\n");
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim ethernet monitor: once and as-value, link modes as each release writes them", async () => {
  for (const version of ["6.49.13", "7.16.2"]) {
    const r = await startSimulator({ version });
    try {
      const lines = linesOf(r.run("/interface ethernet monitor ether1 once").output);
      // MikroTik's examples: `                      name: ether2` ... `  link-partner-advertising: ...`
      assert.equal(lines[0], "                      name: ether1");
      assert.equal(lines[1], "                    status: link-ok");
      assert.match(lines.at(-1)!, /^ {2}link-partner-advertising: 10M-/);
      const v6 = version.startsWith("6");
      assert.equal(lines.some((l) => l.includes(" supported: ")), !v6);
      assert.match(
        lines.join("\n"),
        v6 ? /advertising: 10M-half,/ : /advertising: 10M-baseT-half,/,
      );
      assert.equal(
        r.run(':put ([/interface ethernet monitor ether3 once as-value]->"status")').output,
        "no-link\r\n",
      );
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim dates: ISO from 7.10, build-time with a capitalised month up to 7.12", async () => {
  const cases: [string, string, string, string][] = [
    // release, clock date, export header date, build-time's date
    ["6.49.13", "jun/26/2024", "# jun/26/2024 11:42:37 ", "Aug/24/2023"],
    ["7.9", "jun/26/2024", "# jun/26/2024 11:42:37 ", "Oct/26/2023"],
    ["7.12.2", "2024-06-26", "# 2024-06-26 11:42:37 ", "Oct/26/2023"],
    ["7.15.3", "2024-06-26", "# 2024-06-26 11:42:37 ", "2023-10-26"],
  ];
  for (const [version, date, header, built] of cases) {
    const r = await startSimulator({ version, now: at });
    try {
      assert.equal(r.run(":put [/system clock get date]").output, `${date}\r\n`, version);
      assert.ok(r.run("/system export").output.startsWith(header), version);
      assert.match(
        r.run(":put [/system resource get build-time]").output,
        new RegExp(`^${built} `),
      );
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim packages: the hAP ax² has wifiwave2 up to 7.12, wifi-qcom and no /caps-man from 7.13", async () => {
  const cases: [string, string[], string][] = [
    ["6.49.13", [], "wireless"],
    ["7.12.2", [], "wifiwave2"],
    ["7.16.2", [], "wifi-qcom"],
    ["7.16.2", ["wireless"], "wireless"],
  ];
  for (const [version, packages, has] of cases) {
    const r = await startSimulator({ version, packages });
    try {
      const names = r.run(":put [/system package print as-value]").output;
      assert.match(names, new RegExp(`name=${has}(;|\\r)`), `${version} ${packages}`);
      const caps = r.run("/caps-man manager print").output;
      const lacks = version === "7.16.2" && !packages.length;
      assert.equal(caps.startsWith("bad command name caps-man"), lacks, `${version} ${packages}`);
    } finally {
      await r.close();
    }
  }
});

Deno.test("sim 7.x print detail: a property group's later members by their tail", async () => {
  // `configuration.tx-power=17 .ssid="Korona-wifi-2" .mode=ap` (a public 7.23.2 print detail)
  const r = await startSimulator({ version: "7.20.8", now: at });
  try {
    const detail = r.run("/interface wifi print detail").output;
    assert.match(detail, / configuration\.ssid=\S+ \.mode=ap \.country=Latvia /);
    assert.doesNotMatch(r.run("/interface wifi print terse").output, / \.mode=/);
  } finally {
    await r.close();
  }
});

Deno.test({
  name:
    "sim 6.49 print detail: addresses print line for line as real-output/print-ip-address-detail-v6.42-ansible.txt",
  ignore,
  async fn() {
    // Its first two items: the defconf address on ether1 and a dynamic one (as DHCP makes).
    const real = capture("print-ip-address-detail-v6.42-ansible.txt").blocks[0].split("\n")
      .slice(0, 8);
    const r = await startSimulator({ version: "6.49.13", now: at });
    try {
      assert.equal(r.run("/ip address set [find comment=defconf] interface=ether1").output, "");
      injectItem(r, "/ip/address", {
        address: "10.37.129.3/24",
        network: "10.37.129.0",
        interface: "ether1",
        dynamic: "true",
        disabled: "false",
      });
      const out = r.run("/ip address print detail").output.split("\r\n").slice(0, 8);
      // what varies: the blank some lines end with (kept by the console, cut by the capture)
      assert.deepEqual(out.map((l) => l.trimEnd()), real);
    } finally {
      await r.close();
    }
  },
});

Deno.test({
  name:
    "sim 7.12 terse: WireGuard interfaces print line for line as real-output/terse-wireguard-v7.txt",
  ignore,
  async fn() {
    const real = capture("terse-wireguard-v7.txt").blocks[0].split("\n");
    const r = await startSimulator({ version: "7.12.2", now: at });
    try {
      for (const line of real) {
        const m = /name=(\S+) mtu=(\d+) listen-port=(\d+) private-key=(\S+)/.exec(line)!;
        const add = `/interface wireguard add name=${m[1]} mtu=${m[2]} listen-port=${m[3]} ` +
          `private-key="${m[4]}"`;
        assert.equal(r.run(add).output, "");
      }
      // what varies: the public key (the simulator's stand-in is no Curve25519)
      const norm = (l: string) => l.replace(/public-key=\S+/, "public-key=K");
      assert.deepEqual(
        linesOf(r.run("/interface wireguard print terse").output).map(norm),
        real.map(norm),
      );
    } finally {
      await r.close();
    }
  },
});

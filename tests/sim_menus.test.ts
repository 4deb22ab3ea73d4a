import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { lines } from "./sim_helpers.ts";

async function withRouter(
  version: "7.16" | "7.12" | "6.49",
  f: (r: Awaited<ReturnType<typeof startSimulator>>) => void,
) {
  const r = await startSimulator({ version });
  try {
    f(r);
  } finally {
    await r.close();
  }
}

const ok = (r: { run(c: string): { output: string } }, cmd: string) =>
  assert.equal(r.run(cmd).output, "", cmd);

Deno.test("sim menus: interfaces, bridge ports, vlans, lists, wireguard", () =>
  withRouter("7.16", (r) => {
    ok(r, "/interface vlan add name=v10 vlan-id=10 interface=bridge");
    assert.equal(
      r.run("/interface vlan add name=v10 vlan-id=11 interface=bridge").output,
      "interface with such name already exists\r\n",
    );
    assert.equal(
      r.run("/interface vlan add name=v11 vlan-id=5000 interface=bridge").output,
      "invalid value for argument vlan-id\r\n",
    );
    ok(r, "/interface set v10 name=vlan10");
    assert.equal(r.items("/interface").some((i) => i.name === "vlan10" && i.type === "vlan"), true);
    ok(r, "/ip address add address=10.10.0.1/24 interface=vlan10");
    ok(r, "/interface vlan set vlan10 name=vl10");
    assert.equal(r.items("/ip/address").at(-1)!.interface, "vl10");
    ok(r, "/interface bridge port remove [find interface=ether5]");
    assert.equal(r.items("/interface").find((i) => i.name === "ether5")!.slave, "false");
    ok(r, "/interface bridge vlan add bridge=bridge vlan-ids=10 tagged=bridge,ether2");
    ok(r, "/interface list member add list=LAN interface=vl10");
    assert.equal(
      r.run("/interface list member add list=NOPE interface=vl10").output,
      "input does not match any value of list\r\n",
    );
    ok(r, "/interface wireguard add name=wg0 listen-port=51820");
    ok(
      r,
      '/interface wireguard peers add interface=wg0 public-key="YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=" allowed-address=10.9.0.2/32',
    );
    assert.match(
      r.run("/interface wireguard export").output,
      /^add allowed-address=10\.9\.0\.2\/32 interface=wg0 /m,
    );
    assert.doesNotMatch(r.run("/interface wireguard export").output, /private-key/);
    assert.match(r.run("/interface wireguard export show-sensitive").output, /private-key=/);
    ok(r, '/interface wifi set wifi1 configuration.ssid=Home security.passphrase="p w"');
    assert.match(r.run("/interface wifi print").output, /Home/);
    assert.match(r.run("/interface wifi registration-table print count-only").output, /^1\r\n$/);
    ok(r, "/interface wifi access-list add mac-address=AA:BB:CC:DD:EE:FF action=reject");
    assert.match(
      r.run("/interface ethernet poe monitor ether5 once").output,
      /poe-out-status: waiting-for-load/,
    );
    assert.equal(
      r.run("/interface ethernet set ether1 mtu=abc").output,
      "invalid value for argument mtu\r\n",
    );
    ok(r, "/interface ethernet set ether1 mtu=1400 comment=wan");
    assert.match(
      r.run("/interface ethernet export").output,
      /set \[ find default-name=ether1 \] comment=wan mtu=1400/,
    );
    ok(r, "/interface disable ether4");
    assert.match(r.run("/interface print where name=ether4").output, /X/);
  }));

Deno.test("sim menus: pool, dhcp server/network/lease, dns, routes", () =>
  withRouter("7.16", (r) => {
    assert.equal(
      r.run("/ip dhcp-server add interface=ether3 address-pool=nope").output,
      "input does not match any value of address-pool\r\n",
    );
    ok(r, "/ip pool add name=p2 ranges=10.2.0.10-10.2.0.100");
    assert.equal(
      r.run("/ip pool add name=p3 ranges=10.2.0.x").output,
      "invalid value for argument ranges\r\n",
    );
    ok(r, "/ip dhcp-server add name=d2 interface=ether3 address-pool=p2");
    ok(r, "/ip dhcp-server network add address=10.2.0.0/24 gateway=10.2.0.1");
    assert.equal(r.run("/ip pool used print count-only").output, "2\r\n");
    ok(r, "/ip dhcp-server lease make-static [find host-name=laptop]");
    assert.equal(
      r.items("/ip/dhcp-server/lease").find((l) => l["host-name"] === "laptop")!.dynamic,
      "false",
    );
    ok(
      r,
      "/ip dhcp-server lease add address=192.168.88.50 mac-address=aa:bb:cc:dd:ee:01 server=defconf comment=printer",
    );
    assert.equal(r.items("/ip/dhcp-server/lease").at(-1)!["mac-address"], "AA:BB:CC:DD:EE:01");
    ok(r, "/ip dns set servers=1.1.1.1,9.9.9.9 allow-remote-requests=no");
    assert.equal(r.run(":put [/ip dns get servers]").output, "1.1.1.1,9.9.9.9\r\n");
    assert.equal(
      r.run("/ip dns set servers=notanip").output,
      "invalid value for argument servers\r\n",
    );
    ok(r, "/ip dns static add name=nas.lan address=192.168.88.20");
    assert.equal(r.run(":put [:resolve nas.lan]").output, "192.168.88.20\r\n");
    ok(r, "/ip dns cache flush");
    assert.equal(r.run("/ip dns cache print count-only").output, "0\r\n");
    ok(r, "/ip route add dst-address=10.20.0.0/16 gateway=192.168.88.2 comment=lab");
    const routes = r.items("/ip/route");
    assert.ok(routes.some((x) => x["dst-address"] === "192.168.88.0/24" && x.dynamic === "true"));
    assert.ok(routes.some((x) => x["dst-address"] === "0.0.0.0/0" && x.dynamic === "false"));
    const json = JSON.parse(
      r.run(":put [:serialize to=json [/ip/route/print detail as-value]]").output,
    );
    assert.ok(
      json.some((x: Record<string, unknown>) =>
        x.comment === "lab" && x["routing-table"] === "main"
      ),
    );
  }));

Deno.test("sim menus: firewall rules, move, address lists, ipv6", () =>
  withRouter("7.16", (r) => {
    const n = Number(r.run("/ip firewall filter print count-only").output.trim());
    const id = r.run(
      ":put [/ip firewall filter add chain=input action=drop src-address-list=bl comment=blk]",
    ).output.trim();
    ok(r, `/ip firewall filter move ${id} destination=0`);
    assert.equal(r.items("/ip/firewall/filter")[0][".id"], id);
    assert.equal(r.run("/ip firewall filter print count-only").output, `${n + 1}\r\n`);
    assert.equal(
      r.run("/ip firewall filter add chain=input action=explode").output,
      "input does not match any value of action\r\n",
    );
    ok(r, "/ip firewall address-list add list=bl address=203.0.113.7 timeout=1h");
    assert.equal(
      r.run("/ip firewall address-list add list=bl address=203.0.113.7").output,
      "failure: already have such entry\r\n",
    );
    ok(
      r,
      "/ip firewall nat add chain=dstnat action=dst-nat protocol=tcp dst-port=8080 to-addresses=192.168.88.10 to-ports=80",
    );
    ok(r, "/ip firewall mangle add chain=prerouting action=mark-connection new-connection-mark=x");
    ok(r, "/ip firewall raw add chain=prerouting action=notrack dst-address=10.0.0.0/8");
    ok(r, "/ipv6 firewall address-list add list=v6 address=2001:db8::/32");
    ok(r, "/ipv6 address add address=2001:db8::1/64 interface=bridge");
    assert.match(r.run("/ipv6 address print").output, /2001:db8::1\/64/);
    const filter = r.run("/ip firewall filter print").output;
    assert.match(filter, /;;; blk/);
  }));

Deno.test("sim menus: system, users, files, queues, netwatch, logs, ping", () =>
  withRouter("7.16", (r) => {
    ok(r, "/system identity set name=edge-1");
    assert.equal(r.run(":put [/system identity get name]").output, "edge-1\r\n");
    assert.match(r.run("/system resource print").output, /version: 7\.16 \(stable\)/);
    assert.match(r.run("/system routerboard print").output, /model: /);
    assert.equal(r.run("/system package print count-only").output, "2\r\n");
    assert.match(r.run("/system health print").output, /cpu-temperature/);
    ok(r, "/system clock set date=2024-06-26 time=11:42:37");
    assert.match(r.run(":put [/system clock get date]").output, /^2024-06-26\r\n$/);
    ok(r, "/system ntp client set enabled=yes servers=pool.ntp.org");
    assert.equal(r.run(":put [/system ntp client get status]").output, "synchronized\r\n");
    ok(r, "/user add name=ro group=read password=secret");
    assert.equal(
      r.run("/ip address add address=10.0.0.1/24 interface=ether1", "ro").output,
      "not enough permissions (9)\r\n",
    );
    ok(r, "/user add name=w group=write password=x");
    assert.equal(
      r.run("/user add name=z group=read", "w").output,
      "not enough permissions (9)\r\n",
    );
    assert.equal(r.run("/ip address print count-only", "ro").output, "1\r\n");
    ok(r, "/user group add name=ops policy=read,write,ssh,test");
    assert.equal(
      r.run("/user group add name=bad policy=read,flying").output,
      "input does not match any value of policy\r\n",
    );
    assert.equal(
      r.run("/system backup save name=nightly").output,
      "Saving system configuration\r\nConfiguration backup saved\r\n",
    );
    assert.ok(r.items("/file").some((f) => f.name === "nightly.backup" && f.type === "backup"));
    ok(r, "/export file=cfg");
    assert.ok(r.items("/file").some((f) => f.name === "cfg.rsc"));
    ok(r, "/queue simple add name=q1 target=192.168.88.10/32 max-limit=10M/10M");
    ok(r, "/queue tree add name=t1 parent=global max-limit=50M");
    assert.equal(r.run("/queue type print count-only").output, "10\r\n");
    ok(r, "/tool netwatch add host=8.8.8.8 comment=dns");
    assert.equal(r.run(":put [/tool netwatch get [find comment=dns] status]").output, "up\r\n");
    ok(r, ':log warning "disk almost full"');
    assert.match(r.run('/log print where topics~"warning"').output, /disk almost full/);
    const ping = lines(r.run("/ping 8.8.8.8 count=3").output);
    assert.equal(ping.length, 5);
    assert.match(ping[4], /sent=3 received=3 packet-loss=0%/);
    assert.match(r.run("/ping 198.51.100.1 count=1").output, /timeout[\s\S]*packet-loss=100%/);
    assert.match(r.run("/tool traceroute 1.1.1.1 count=1").output, /1\.1\.1\.1/);
  }));

Deno.test("sim menus: v6 and v7.12 differences", async () => {
  await withRouter("6.49", (r) => {
    assert.match(r.run("/interface wireless print").output, /wlan1/);
    assert.equal(
      r.run("/interface wifi print").output,
      "bad command name wifi (line 1 column 12)\r\n",
    );
    ok(
      r,
      "/interface wireless security-profiles add name=home mode=dynamic-keys authentication-types=wpa2-psk wpa2-pre-shared-key=secretpass",
    );
    ok(r, "/interface wireless set wlan1 security-profile=home ssid=Home");
    assert.match(r.run("/export").output, /wpa2-pre-shared-key=secretpass/);
    assert.match(
      r.run("/export hide-sensitive").output.replace(/wpa2-pre-shared-key=RouterPass123/g, ""),
      /^(?![\s\S]*secretpass)/,
    );
    assert.match(
      r.run("/system scheduler add name=x start-date=jun/26/2024 start-time=11:00:00 interval=1d")
        .output,
      /^$/,
    );
    assert.equal(r.items("/system/scheduler")[0]["start-date"], "jun/26/2024");
    assert.match(r.run("/system health print").output, /voltage: /);
    assert.equal(
      r.run(":put [:serialize to=json [/ip address print as-value]]").output,
      "bad command name serialize (line 1 column 7)\r\n",
    );
  });
  await withRouter("7.12", (r) => {
    assert.match(r.run("/interface/wifiwave2/print").output, /wifi1/);
    assert.equal(
      r.run(":put [:serialize to=json [/ip address print as-value]]").output,
      "bad command name serialize (line 1 column 7)\r\n",
    );
    assert.match(r.run("/ip/address/print terse").output, /address=192\.168\.88\.1\/24/);
  });
});

Deno.test("sim menus: scripting built-ins", () =>
  withRouter("7.16", (r) => {
    assert.equal(
      r.run(':local a 5; :put ($a + 2); :put ($a . "x"); :put [:len "abcd"]').output,
      "7\r\n5x\r\n4\r\n",
    );
    assert.equal(
      r.run(":foreach i in=[/ip address find] do={ :put [/ip address get $i interface] }").output,
      "bridge\r\n",
    );
    assert.equal(
      r.run(":if ([/ip address print count-only] = 1) do={ :put yes } else={ :put no }").output,
      "yes\r\n",
    );
    assert.equal(r.run(":for i from=1 to=3 do={ :put $i }").output, "1\r\n2\r\n3\r\n");
    assert.equal(
      r.run(":do { /ip address add address=bad interface=ether1 } on-error={ :put caught }").output,
      "caught\r\n",
    );
    assert.equal(r.run(":global g 42").output, "");
    assert.equal(r.run(":put $g").output, "42\r\n");
    assert.equal(r.run(":put [:typeof [/ip address find]]").output, "array\r\n");
    assert.equal(r.run(':put [:pick "hello" 1 3]').output, "el\r\n");
    assert.equal(r.run("/ip address\nprint count-only").output, "1\r\n");
    assert.equal(r.run(":put [/ip address get [find] address]").output, "192.168.88.1/24\r\n");
    const m = r.run(":put [:serialize to=json [/ip address get [find]]]").output;
    assert.equal(JSON.parse(m).interface, "bridge");
  }));

Deno.test("sim: a router started with an uptime has been up that long", async () => {
  const r = await startSimulator({ version: "7.16", uptime: 3 * 3600 + 5 });
  try {
    assert.match(r.run(":put [/system resource get uptime]").output, /^03:00:0[56]\r\n$/);
  } finally {
    await r.close();
  }
});

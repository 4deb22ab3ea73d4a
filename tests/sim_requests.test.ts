/**
 * Simulator behaviours asked for by the product's tools: script arrays and
 * `->`, monitors and probes with `as-value`, blackhole routes, `print file=`,
 * `/user active request-logout`, `:execute` of a reboot, SSH keys, DNS TXT
 * records on 6.49 and `hide-ssid`.
 */
import assert from "node:assert/strict";
import { type SimRouter, type SimVersion, startSimulator } from "../lib/sim/mod.ts";
import { lines, SshConn, sshExec } from "./sim_helpers.ts";
import { makeKey } from "./helpers/keys.ts";

async function withRouter(version: SimVersion, f: (r: SimRouter) => void | Promise<void>) {
  const r = await startSimulator({ version });
  try {
    await f(r);
  } finally {
    await r.close();
  }
}

const out = (r: SimRouter, cmd: string) => r.run(cmd).output;
const ok = (r: SimRouter, cmd: string) => assert.equal(r.run(cmd).output, "", cmd);

for (const version of ["7.16", "7.12", "6.49"] as const) {
  Deno.test(`sim ${version}: array literals, -> and :foreach k,v`, () =>
    withRouter(version, (r) => {
      assert.equal(
        out(r, ':local r {"a"=1;"b"="x"}; :put ("a=" . ($r->"a")); :put ("c=" . ($r->"c"))'),
        "a=1\r\nc=\r\n",
      );
      assert.equal(
        out(r, ':foreach k,v in={"b"="x";"a"=1} do={:put "$k=$v"}'),
        "a=1\r\nb=x\r\n",
      );
      assert.equal(out(r, ':foreach i,v in={"p";"q"} do={:put "$i=$v"}'), "0=p\r\n1=q\r\n");
      assert.equal(out(r, ':local r {"a"={"b"=7}}; :put ($r->"a"->"b")'), "7\r\n");
      assert.equal(out(r, '{:local x 5; :put ("x=" . $x)}'), "x=5\r\n");
    }));

  Deno.test(`sim ${version}: /interface monitor-traffic once as-value`, () =>
    withRouter(version, (r) => {
      const path = version === "6.49" ? "/interface monitor-traffic" : "/interface/monitor-traffic";
      const o = out(
        r,
        `{:local r [${path} "ether1" once as-value]; :put ("name=" . ($r->"name")); ` +
          ':put ("rx=" . ($r->"rx-bits-per-second")); :put ("tx=" . ($r->"tx-packets-per-second"))}',
      );
      assert.match(o, /^name=ether1\r\nrx=\d+\r\ntx=\d+\r\n$/);
      assert.equal(out(r, `${path} nope once as-value`), "no such item\r\n");
      assert.match(
        out(r, "/interface monitor-traffic ether1,bridge once"),
        // keys four blanks past the longest, values right-aligned (MikroTik's manual)
        /^ {25}name: {5}ether1 {4}bridge\r\n/,
      );
      // a disabled interface has no traffic
      ok(r, "/interface disable ether2");
      assert.equal(
        out(r, `:put ([${path} ether2 once as-value]->"rx-bits-per-second")`),
        "0\r\n",
      );
    }));

  Deno.test(`sim ${version}: blackhole routes`, () =>
    withRouter(version, (r) => {
      if (version === "6.49") {
        ok(r, '/ip route add dst-address=203.0.113.0/24 type=blackhole comment="x"');
        // one column per flag group: ` 4 A SB dst-address=10.0.0.0/8 type=blackhole`
        // (real-output/terse-ip-route-v6-comment-recursive.txt)
        assert.match(out(r, "/ip route print terse"), /^ *\d+ A SB comment=x .*type=blackhole/m);
        assert.match(out(r, "/ip route print"), /B - blackhole, U - unreachable, P - prohibit/);
        assert.match(out(r, "/ip route print terse"), /^ *\d+ ADC {2}dst-address=192\.168\.88\.0/m);
        assert.equal(
          out(r, "/ip route add blackhole dst-address=10.0.0.0/8"),
          "expected end of command (line 1 column 15)\r\n",
        );
        return;
      }
      ok(r, '/ip route add blackhole dst-address=203.0.113.0/24 comment="x"');
      const it = r.items("/ip/route").find((i) => i.comment === "x")!;
      assert.equal(it.blackhole, "true");
      assert.equal(it.gateway, undefined);
      assert.match(out(r, "/ip route export"), /^add blackhole comment=x dst-address=203\.0\.113/m);
      // five flag columns (D; X, A; c, s; H; +, B), as print-ip-route-detail-v7-policy-routing-docs.txt
      assert.match(out(r, "/ip route print terse"), /^ *\d+ {2}As B comment=x/m);
      assert.equal(
        out(r, "/ip route add dst-address=10.9.0.0/16"),
        "failure: gateway not specified\r\n",
      );
    }));

  Deno.test(`sim ${version}: print file= writes NAME.txt, /file set contents=`, () =>
    withRouter(version, (r) => {
      ok(r, '/file print file=n where name=""');
      const f = r.items("/file").find((i) => i.name === "n.txt");
      assert.ok(f, "n.txt created");
      ok(r, '/file set [find where name="n.txt"] contents="hello\\nworld"');
      assert.equal(
        out(r, ':put [/file get [find where name="n.txt"] contents]'),
        "hello\nworld\r\n",
      );
      ok(r, "/ip address print file=addr.txt");
      assert.match(
        r.items("/file").find((i) => i.name === "addr.txt")!.contents,
        /192\.168\.88\.1/,
      );
    }));

  Deno.test(`sim ${version}: :execute of a reboot runs it (no prompt) and is counted`, () =>
    withRouter(version, (r) => {
      assert.equal(r.counters.reboots, 0);
      assert.match(out(r, "/system reboot"), /action cancelled/);
      assert.equal(r.counters.reboots, 0);
      assert.equal(r.run(':execute script="/system reboot"').output, "");
      assert.equal(r.counters.reboots, 1);
      assert.equal(r.items("/log").filter((l) => l.message === "router rebooted").length, 2);
    }));
}

Deno.test("sim: /ping as-value (v7) and the reply count (v6)", async () => {
  await withRouter("7.16", (r) => {
    const o = out(r, ":put [:serialize to=json [/ping address=127.0.0.1 count=2 as-value]]");
    const recs = JSON.parse(o);
    assert.equal(recs.length, 2);
    assert.deepEqual(Object.keys(recs[0]).sort(), ["host", "seq", "size", "time", "ttl"]);
    assert.match(recs[0].time, /^00:00:00\.\d{6}$/);
    const lost = JSON.parse(out(r, ":put [:serialize to=json [/ping 192.0.2.1 count=1 as-value]]"));
    assert.deepEqual(lost, [{ host: "192.0.2.1", seq: 0, status: "timeout" }]);
    assert.match(out(r, ':put ([/ping 127.0.0.1 count=1 as-value]->0->"time")'), /^00:00:00\./);
  });
  await withRouter("7.12", (r) => {
    const o = out(r, ':foreach x in=[/ping 127.0.0.1 count=2 as-value] do={:put ($x->"seq")}');
    assert.equal(o, "0\r\n1\r\n");
  });
  await withRouter("6.49", (r) => {
    // v6 has no as-value on ping; inside [] the table is still printed, then the count
    assert.equal(
      out(r, ":put [/ping address=127.0.0.1 count=2 as-value]"),
      "expected end of command (line 1 column 39)\r\n",
    );
    const l = lines(out(r, ":put [/ping address=127.0.0.1 count=2]"));
    assert.match(l[0], /^ +SEQ HOST/);
    assert.equal(l.at(-1), "2");
    assert.equal(lines(out(r, ":put [/ping address=192.0.2.1 count=2]")).at(-1), "0");
  });
});

Deno.test("sim: /tool traceroute as-value (v7), refused on v6", async () => {
  await withRouter("7.16", (r) => {
    const recs = JSON.parse(
      out(
        r,
        ":put [:serialize to=json [/tool traceroute address=8.8.8.8 count=2 max-hops=5 timeout=200ms as-value]]",
      ),
    );
    assert.equal(recs.length, 4);
    assert.deepEqual(recs.map((x: Record<string, unknown>) => x[".section"]), [0, 0, 1, 1]);
    assert.equal(recs[3].address, "8.8.8.8");
    const lost = JSON.parse(
      out(r, ":put [:serialize to=json [/tool traceroute 203.0.113.9 count=1 as-value]]"),
    );
    assert.equal(lost.at(-1).status, "timeout");
    const one = JSON.parse(
      out(r, ":put [:serialize to=json [/tool traceroute 8.8.8.8 max-hops=1 as-value]]"),
    );
    assert.equal(one.length, 1);
  });
  await withRouter("6.49", (r) => {
    assert.equal(
      out(r, "/tool traceroute 8.8.8.8 count=1 as-value"),
      "expected end of command (line 1 column 34)\r\n",
    );
  });
});

Deno.test("sim 7.12: /user active request-logout ends an SSH session", async () => {
  await withRouter("7.12", async (r) => {
    const c = await SshConn.open(r);
    const closed = new Promise<void>((res) => c.client.once("close", () => res()));
    try {
      const active = r.items("/user/active");
      assert.equal(active.length, 1);
      const id = active[0][".id"];
      assert.match(id, /^\*[0-9A-F]+$/);
      // another connection logs the first one out
      const o = await sshExec(r, `/user active request-logout numbers=${id}`);
      assert.equal(o.stdout, "");
      await closed;
      assert.equal(r.items("/user/active").some((s) => s[".id"] === id), false);
      assert.equal(out(r, `/user active request-logout numbers=${id}`), "no such item (4)\r\n");
    } finally {
      c.client.end();
    }
  });
  await withRouter("6.49", (r) => {
    assert.match(out(r, "/user active request-logout numbers=*1"), /^bad command name/);
  });
});

Deno.test("sim: /user ssh-keys add (7.12+) and import (all)", async () => {
  const ed = makeKey("ed25519", "openssh").publicKey;
  await withRouter("7.12", (r) => {
    ok(r, `/user ssh-keys add user=admin key="${ed}"`);
    assert.equal(r.items("/user/ssh-keys")[0]["key-type"], "ed25519");
  });
  await withRouter("6.49", (r) => {
    assert.match(out(r, `/user ssh-keys add user=admin key="${ed}"`), /^bad command name add/);
    assert.equal(
      out(r, "/user ssh-keys import public-key-file=x.txt user=admin"),
      "failure: no such file\r\n",
    );
  });
});

Deno.test("sim 6.49: DNS static TXT records and wireless hide-ssid", () =>
  withRouter("6.49", (r) => {
    ok(r, '/ip dns static add name=example.lan type=TXT text="v=spf1 -all" ttl=1h');
    const it = r.items("/ip/dns/static").at(-1)!;
    assert.equal(it.type, "TXT");
    assert.equal(it.text, "v=spf1 -all");
    ok(r, "/interface wireless set [find default-name=wlan1] hide-ssid=yes");
    assert.equal(out(r, ":put [/interface wireless get wlan1 hide-ssid]"), "true\r\n");
  }));

Deno.test("sim: print from= an unknown id says no such item", () =>
  withRouter("7.16", (r) => {
    assert.equal(out(r, "/ip address print terse show-ids from=*FF"), "no such item (4)\r\n");
    assert.equal(
      out(r, ":put [:serialize to=json [/ip address print detail as-value from=*FF]]"),
      "no such item (4)\r\n",
    );
  }));

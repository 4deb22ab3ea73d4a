import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";

const p2 = (n: number) => String(n).padStart(2, "0");

Deno.test("sim scheduler: a one-shot revert job runs at its deadline and removes itself", async () => {
  const r = await startSimulator();
  try {
    r.run("/ip address add address=10.5.5.1/24 interface=ether1 comment=tmp");
    const at = new Date(Date.now() + 1200);
    const date = `${at.getUTCFullYear()}-${p2(at.getUTCMonth() + 1)}-${p2(at.getUTCDate())}`;
    const time = `${p2(at.getUTCHours())}:${p2(at.getUTCMinutes())}:${p2(at.getUTCSeconds())}`;
    const out = r.run(
      `/system scheduler add name=revert start-date=${date} start-time=${time} interval=0s ` +
        `on-event="/ip address remove [find comment=tmp]; /system scheduler remove [find name=revert]"`,
    );
    assert.equal(out.output, "");
    assert.equal(r.items("/system/scheduler").length, 1);
    assert.match(r.run("/system scheduler print detail").output, /next-run=/);
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline && r.items("/system/scheduler").length) {
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.equal(r.items("/system/scheduler").length, 0);
    assert.equal(r.items("/ip/address").some((a) => a.comment === "tmp"), false);
  } finally {
    await r.close();
  }
});

Deno.test("sim scheduler: interval jobs repeat and count runs; scripts by name", async () => {
  const r = await startSimulator();
  try {
    r.run('/system script add name=tick source=":global ticks; :set ticks (\\$ticks + 1)"');
    r.run(":global ticks 0");
    r.run("/system scheduler add name=t interval=1s start-time=startup on-event=tick");
    r.run('/system scheduler add name=u interval=1s on-event=":log info tock"');
    await new Promise((res) => setTimeout(res, 4200));
    const u = r.items("/system/scheduler").find((i) => i.name === "u")!;
    assert.ok(Number(u["run-count"]) >= 2, u["run-count"]);
    assert.match(r.run("/log print where message=tock").output, /script,info tock/);
    const ticks = Number(r.run(":global ticks; :put $ticks").output.trim());
    assert.ok(ticks >= 1, String(ticks));
    r.run("/system scheduler disable [find]");
  } finally {
    await r.close();
  }
});

/**
 * Configuration snapshots, diffs and fleet drift, end to end through an MCP
 * client against simulated routers: snapshots land in --state-dir with
 * release, time and SHA-256 (mode 0600, secrets only with
 * --reveal-secrets), a diff names each item added, removed or changed,
 * pruning needs confirm, and drift compares a fleet menu by menu while
 * ignoring what differs by design.
 */
import assert from "node:assert/strict";
import { ProgressNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { connectInProcess } from "./helpers/in_process.ts";
import { callTool, startRouters } from "./helpers/mcp.ts";

type Out = Record<string, unknown> & {
  snapshot?: { id: string; sha256: string; version: string; bytes: number };
};

async function ok(session: Parameters<typeof callTool>[0], name: string, args = {}) {
  const r = await callTool(session, name, args);
  assert.equal(r.isError, undefined, `${name}: ${r.content[0]?.text}`);
  return r.structuredContent as Out;
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("snapshots: stored with release, time and hash; diff against live and between snapshots; prune with confirm", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const state = await Deno.makeTempDir();
  const session = await connectInProcess(sim, { "state-dir": state });
  try {
    const first = await ok(session, "router_snapshot_config", { note: "before" });
    const snap = first.snapshot!;
    assert.equal(first.unchanged, false);
    assert.equal(first.previous, undefined);
    assert.equal(snap.version, "7.16.2");
    const file = `${state}/snapshots/${snap.id}.json`;
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const stored = JSON.parse(await Deno.readTextFile(file));
    assert.match(stored.config, /^# .* by RouterOS 7\.16\.2\n/);
    assert.match(stored.config, /\/ip address\nadd address=192\.168\.88\.1\/24/);
    assert.equal(stored.note, "before");
    assert.equal(
      snap.sha256,
      await sha256(
        stored.config.split("\n").filter((l: string) => !/by RouterOS/.test(l)).join("\n"),
      ),
    );

    // Secrets need the operator's --reveal-secrets; nothing is stored without it.
    const secret = await callTool(session, "router_snapshot_config", { show_sensitive: true });
    assert.equal(secret.isError, true);
    assert.match(secret.content[0].text, /--reveal-secrets/);

    const second = await ok(session, "router_snapshot_config", {});
    assert.equal(second.unchanged, true, "same content, same hash");
    assert.equal(second.previous, snap.id);

    sim.run("/ip address add address=10.9.9.1/24 interface=ether2");
    sim.run("/system identity set name=changed");
    sim.run(
      '/ip firewall filter set [find comment="defconf: drop invalid" chain=input] disabled=yes',
    );
    const live = await ok(session, "router_diff_config", { from: "latest" });
    assert.equal(live.to, `live (${sim.host})`);
    assert.equal(live.identical, false);
    const menus = live.menus as {
      menu: string;
      added: { values: Record<string, string> }[];
      changed: { key: string; fields: { field: string; old?: string; new?: string }[] }[];
    }[];
    const menu = (p: string) => menus.find((m) => m.menu === p)!;
    assert.deepEqual(menu("/ip/address").added.map((i) => i.values.address), ["10.9.9.1/24"]);
    assert.deepEqual(menu("/system/identity").changed, [{
      key: "settings",
      fields: [{ field: "name", new: "changed" }],
    }]);
    assert.deepEqual(menu("/ip/firewall/filter").changed[0].fields, [{
      field: "disabled",
      new: "yes",
    }]);
    assert.deepEqual([live.added, live.removed, live.changed], [1, 0, 2]);

    const third = await ok(session, "router_snapshot_config", {});
    assert.equal(third.unchanged, false);
    const between = await ok(session, "router_diff_config", {
      from: snap.id,
      to: third.snapshot!.id,
      ignore: ["/system/identity"],
    });
    assert.deepEqual([between.added, between.removed, between.changed], [1, 0, 1]);
    const none = await ok(session, "router_diff_config", { from: "latest" });
    assert.equal(none.identical, true);

    const listed = await ok(session, "router_list_snapshots", {});
    assert.equal(listed.count, 3);

    const refused = await callTool(session, "router_prune_snapshots", { keep: 1 });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /destructive.*confirm: true/s);
    const dry = await ok(session, "router_prune_snapshots", { keep: 1, dry_run: true });
    assert.deepEqual(
      (dry.dry_run as { preview: { remove: string[] } }).preview.remove,
      [snap.id, second.snapshot!.id],
    );
    assert.equal((await ok(session, "router_list_snapshots", {})).count, 3, "dry run kept all");
    const pruned = await ok(session, "router_prune_snapshots", { keep: 1, confirm: true });
    assert.deepEqual(pruned.removed, [snap.id, second.snapshot!.id]);
    assert.equal((await ok(session, "router_list_snapshots", {})).count, 1);
    const gone = await callTool(session, "router_diff_config", { from: snap.id });
    assert.equal(gone.isError, true);
    assert.match(gone.content[0].text, /no snapshot .*router_list_snapshots/);
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("diff: firewall rules aligned in order (comments renamed, a rule inserted, a rule moved); a snapshot spelled otherwise is unchanged", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const state = await Deno.makeTempDir();
  const session = await connectInProcess(sim, { "state-dir": state });
  try {
    const first = await ok(session, "router_snapshot_config", {});
    const rename = (from: string, to: string) =>
      sim.run(`/ip firewall filter set [find comment="${from}"] comment="${to}"`);
    rename("defconf: accept ICMP", "ICMP in");
    rename("defconf: accept to local loopback (for CAPsMAN)", "loopback in");
    rename("defconf: drop all not coming from LAN", "drop the rest");
    sim.run(
      "/ip firewall filter add chain=input action=accept protocol=tcp dst-port=22 " +
        'in-interface-list=LAN comment="ssh from LAN" place-before=[find comment="ICMP in"]',
    );
    sim.run('/ip firewall filter move [find comment="defconf: fasttrack"]');
    const r = await callTool(session, "router_diff_config", { from: "latest" });
    const out = r.structuredContent as {
      added: number;
      removed: number;
      changed: number;
      moved: number;
      menus: {
        menu: string;
        added: { values: Record<string, string> }[];
        changed: { fields: { field: string; new?: string }[] }[];
        moved: { from: number; to: number; values?: Record<string, string> }[];
      }[];
    };
    assert.deepEqual([out.added, out.removed, out.changed, out.moved], [1, 0, 3, 1]);
    const filter = out.menus.find((m) => m.menu === "/ip/firewall/filter")!;
    assert.equal(filter.added[0].values["dst-port"], "22");
    assert.deepEqual(
      filter.changed.map((c) => c.fields.map((f) => [f.field, f.new])),
      [[["comment", "ICMP in"]], [["comment", "loopback in"]], [["comment", "drop the rest"]]],
    );
    assert.equal(filter.moved[0].values?.action, "fasttrack-connection");
    assert.deepEqual([filter.moved[0].from, filter.moved[0].to], [8, 12]);
    assert.match(r.content[0].text, /1 added, 0 removed, 3 changed, 1 moved/);
    assert.match(r.content[0].text, /> #12 moved from 8 to 12 action="fasttrack-connection"/);

    // The stored snapshot respelled (values quoted, selectors with where): the same config.
    const file = `${state}/snapshots/${first.snapshot!.id}.json`;
    const stored = JSON.parse(await Deno.readTextFile(file));
    await ok(session, "router_snapshot_config", {});
    const second = await ok(session, "router_snapshot_config", {});
    const respelled = JSON.parse(
      await Deno.readTextFile(`${state}/snapshots/${second.snapshot!.id}.json`),
    );
    respelled.config = respelled.config
      .replace(/\[ find ([a-z-]+)=([^\s\]"]+) \]/g, '[ find where $1="$2" ]')
      .replace(/(^|\s)(name|interface|bridge)=([A-Za-z0-9._-]+)(?=\s|$)/gm, '$1$2="$3"');
    assert.notEqual(respelled.config, stored.config);
    respelled.sha256 = "0".repeat(64);
    await Deno.writeTextFile(
      `${state}/snapshots/${second.snapshot!.id}.json`,
      JSON.stringify(respelled),
    );
    const third = await ok(session, "router_snapshot_config", {});
    assert.equal(third.previous, second.snapshot!.id);
    assert.equal(third.unchanged, true, "same configuration, other spelling");
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("snapshots: --reveal-secrets lets a snapshot keep secrets", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  sim.run(
    '/interface wireguard add name=wg9 private-key="U0VLUkVULWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY="',
  );
  const state = await Deno.makeTempDir();
  const session = await connectInProcess(sim, { "reveal-secrets": true, "state-dir": state });
  const plain = await connectInProcess(sim, { "state-dir": state });
  try {
    const masked = await ok(session, "router_snapshot_config", {});
    const shown = await ok(session, "router_snapshot_config", { show_sensitive: true });
    assert.equal(shown.snapshot!.bytes > masked.snapshot!.bytes, true);
    assert.equal((shown.snapshot as unknown as { show_sensitive: boolean }).show_sensitive, true);
    const diff = await ok(session, "router_diff_config", {
      from: masked.snapshot!.id,
      to: shown.snapshot!.id,
    });
    assert.match(JSON.stringify(diff.menus), /private-key/);

    // A server without --reveal-secrets never shows a snapshot's secrets, in a diff or a drift.
    for (
      const [tool, args] of [
        ["router_diff_config", { from: masked.snapshot!.id, to: shown.snapshot!.id }],
        ["router_diff_config", { from: shown.snapshot!.id }],
        ["router_fleet_drift", { baseline: shown.snapshot!.id }],
      ] as const
    ) {
      const r = await callTool(plain, tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(r.content[0].text, /--reveal-secrets/);
      assert.ok(!r.content[0].text.includes("U0VLUkVU"), "no secret in the refusal");
    }
  } finally {
    await session.close();
    await plain.close();
    await sim.close();
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("fleet drift: menu by menu against a device or a snapshot, identity and named values ignored, progress", async () => {
  const sims = await startRouters(3, { version: "7.16.2" });
  sims.forEach((s, i) => {
    s.run(`/ip address add address=10.0.${i}.1/24 interface=ether2`);
    s.run(`/system identity set name=R${i + 1}`);
  });
  sims[1].run("/ip firewall filter add chain=input action=accept protocol=tcp dst-port=8291");
  const inventory = sims.map((s, i) => ({ title: `R${i + 1}`, host: s.host, port: s.port }));
  const state = await Deno.makeTempDir();
  const session = await connectInProcess(sims[0], {
    inventory: JSON.stringify(inventory),
    host: undefined,
    "state-dir": state,
  });
  try {
    const progress: number[] = [];
    session.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { progress: number } }) => {
        progress.push(n.params.progress);
      },
    );
    const r = await session.client.callTool(
      { name: "router_fleet_drift", arguments: {} },
      undefined,
      { onprogress: () => {} },
    ) as { structuredContent: Record<string, unknown>; isError?: boolean };
    assert.equal(r.isError, undefined, JSON.stringify(r));
    const out = r.structuredContent as {
      baseline: string;
      drifted: number;
      in_sync: number;
      by_menu: { menu: string; devices: string[] }[];
      results: { device: string; menus: { menu: string }[] }[];
    };
    assert.equal(out.baseline, "R1");
    assert.deepEqual(out.results.map((x) => x.device), ["R2", "R3"]);
    assert.deepEqual(out.by_menu, [
      { menu: "/ip/address", devices: ["R2", "R3"] },
      { menu: "/ip/firewall/filter", devices: ["R2"] },
    ]);
    assert.equal(out.drifted, 2);
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(progress.sort(), [1, 2]);

    // The addresses differ by design: named in the call, they no longer count.
    const ignoring = await ok(session, "router_fleet_drift", {
      ignore_values: [
        "10.0.0.1/24",
        "10.0.1.1/24",
        "10.0.2.1/24",
        "10.0.0.0",
        "10.0.1.0",
        "10.0.2.0",
      ],
    });
    assert.deepEqual(ignoring.by_menu, [{ menu: "/ip/firewall/filter", devices: ["R2"] }]);
    assert.equal(ignoring.in_sync, 1);

    // Snapshots of the whole fleet through the fleet query.
    const all = await ok(session, "router_fleet_query", { tool: "router_snapshot_config" });
    assert.equal(all.succeeded, 3);
    assert.deepEqual(
      ((await ok(session, "router_list_snapshots", {})).items as { device: string }[])
        .map((i) => i.device).sort(),
      ["R1", "R2", "R3"],
    );

    // Against a snapshot of R3: R3 itself is in sync.
    const snap = await ok(session, "router_snapshot_config", { device: "R3" });
    const vsSnap = await ok(session, "router_fleet_drift", {
      baseline: snap.snapshot!.id,
      ignore: ["/ip/address address", "/ip/address network"],
    });
    const results = vsSnap.results as { device: string; identical: boolean }[];
    assert.deepEqual(results.map((x) => [x.device, x.identical]), [
      ["R1", true],
      ["R2", false],
      ["R3", true],
    ]);
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
    await Deno.remove(state, { recursive: true });
  }
});

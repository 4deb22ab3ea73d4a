/**
 * Hand-written DNS, routing, log and health tools through MCP against
 * simulated 7.16, 7.12 and 6.49 (JSON reads on 7.13+, terse before).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rec = Record<string, unknown>;

for (const version of ["7.16", "7.12", "6.49"] as const) {
  Deno.test(`network tools on ${version}`, async (t) => {
    const sim = await startSimulator({ version });
    const s = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
    try {
      await t.step("dns cache stats, then flush empties the cache", async () => {
        const stats = await callTool(s, "router_dns_cache_stats");
        assert.equal(stats.isError, undefined, stats.content[0]?.text);
        assert.equal(stats.structuredContent?.entries, sim.items("/ip/dns/cache").length);
        assert.equal(stats.structuredContent?.cache_size_kib, 2048);
        const dry = await callTool(s, "router_flush_dns_cache", { dry_run: true });
        assert.equal(dry.isError, undefined, dry.content[0]?.text);
        assert.ok(sim.items("/ip/dns/cache").length > 0, "a dry run flushes nothing");
        const flushed = await callTool(s, "router_flush_dns_cache");
        assert.equal(flushed.isError, undefined, flushed.content[0]?.text);
        assert.equal(flushed.structuredContent?.entries, 0);
        assert.equal(sim.items("/ip/dns/cache").length, 0);
      });

      await t.step(
        "resolve uses the router's static entries; unknown names are errors",
        async () => {
          sim.run('/ip dns static add name="printer.lan" address=192.168.88.50');
          const r = await callTool(s, "router_resolve_dns", { name: "printer.lan" });
          assert.equal(r.isError, undefined, r.content[0]?.text);
          assert.equal(r.structuredContent?.address, "192.168.88.50");
          const bad = await callTool(s, "router_resolve_dns", { name: "no-such.invalid" });
          assert.equal(bad.isError, true);
          const hostile = await callTool(s, "router_resolve_dns", { name: 'x"; /system reboot' });
          assert.equal(hostile.isError, true, "names outside the host-name pattern are refused");
        },
      );

      await t.step("default route and route check", async () => {
        const def = await callTool(s, "router_get_default_route");
        assert.equal(def.isError, undefined, def.content[0]?.text);
        assert.equal(def.structuredContent?.gateway, "192.168.88.254");
        const routes = def.structuredContent?.routes as Rec[];
        assert.deepEqual(
          routes.map((r) => r.id),
          sim.items("/ip/route").filter((r) => r["dst-address"] === "0.0.0.0/0").map((r) =>
            r[".id"]
          ),
        );
        assert.equal(routes[0].distance, 1);
        const lan = await callTool(s, "router_check_route", { destination: "192.168.88.10" });
        assert.equal(lan.isError, undefined, lan.content[0]?.text);
        assert.equal((lan.structuredContent?.route as Rec).dst_address, "192.168.88.0/24");
        assert.equal((lan.structuredContent?.candidates as Rec[]).length, 2);
        const wan = await callTool(s, "router_check_route", { destination: "8.8.8.8" });
        assert.equal((wan.structuredContent?.route as Rec).gateway, "192.168.88.254");
        const bad = await callTool(s, "router_check_route", { destination: "8.8.8.8/32" });
        assert.equal(bad.isError, true);
      });

      await t.step("health sensors", async () => {
        const r = await callTool(s, "router_get_system_health");
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const sensors = r.structuredContent?.sensors as Rec[];
        assert.ok(sensors.length > 0);
        assert.ok(sensors.every((x) => typeof x.name === "string" && typeof x.value === "string"));
        assert.ok(sensors.some((x) => x.unit === "C" && typeof x.number === "number"));
      });

      await t.step("logs: text search is literal, severity and topics filter", async () => {
        const needle = 'odd a.b*c [x] $y "q"';
        sim.run(String.raw`:log warning "odd a.b*c [x] \$y \"q\" here"`);
        sim.run(':log info "odd aXbc x decoy"');
        const r = await callTool(s, "router_get_logs", { text: needle });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const items = r.structuredContent?.items as Rec[];
        assert.deepEqual(items.map((i) => i.message), ['odd a.b*c [x] $y "q" here']);
        const part = await callTool(s, "router_get_logs", { text: "a.b*c" });
        assert.deepEqual(
          (part.structuredContent?.items as Rec[]).map((i) => i.message),
          ['odd a.b*c [x] $y "q" here'],
          "the decoy aXbc does not match: the text is not a pattern",
        );
        const dot = await callTool(s, "router_get_logs", { text: ".*" });
        assert.equal(dot.structuredContent?.count, 0, "a pattern is not a pattern");
        const warn = await callTool(s, "router_get_logs", { severity: "warning" });
        const warnings = warn.structuredContent?.items as Rec[];
        assert.ok(warnings.length >= 1);
        assert.ok(
          warnings.every((i) =>
            (i.topics as string[]).some((x) => ["warning", "error", "critical"].includes(x))
          ),
        );
        const scripts = await callTool(s, "router_get_logs", { topics: ["script"], limit: 1 });
        assert.equal(scripts.structuredContent?.count, 1);
        assert.equal(scripts.structuredContent?.truncated, true);
        const logs = sim.items("/log");
        assert.equal((scripts.structuredContent?.items as Rec[])[0].message, logs.at(-1)?.message);
        const future = await callTool(s, "router_get_logs", { since: "2999-01-01 00:00:00" });
        assert.equal(future.structuredContent?.count, 0);
        const past = await callTool(s, "router_get_logs", { since: "2000-01-01 00:00:00" });
        assert.equal(past.structuredContent?.count, logs.length);
      });

      await t.step(
        "blackhole route (needs the bare blackhole switch / v6 type= in the simulator)",
        async () => {
          const r = await callTool(s, "router_add_blackhole_route", {
            dst_address: "203.0.113.0/24",
            comment: 'drop "attack" $x',
          });
          assert.equal(r.isError, undefined, r.content[0]?.text);
          const stored = sim.items("/ip/route").find((x) => x["dst-address"] === "203.0.113.0/24");
          assert.equal(stored?.comment, 'drop "attack" $x');
          const item = r.structuredContent?.item as Rec;
          assert.ok(item.blackhole === true || item.type === "blackhole");
          assert.ok(stored?.blackhole === "true" || stored?.type === "blackhole");
        },
      );
    } finally {
      await s.close();
      await sim.close();
    }
  });
}

/**
 * router_audit_security end to end, through MCP and real SSH, on a fleet of
 * two simulated routers: "edge" (RouterOS 7.16.2) deliberately exposed —
 * WinBox accepted from the WAN list, DNS answering remote requests with
 * udp/53 accepted from the WAN, the default admin user enabled (this server
 * logs in as "ops") — and "core" (RouterOS 6.49.13) as configured by
 * default. The audit finds each exposure with its evidence, ranks edge
 * first, every fix call it suggests passes the guard chain (dry run), and
 * the fixes, run with confirm, clear the findings.
 */
import assert from "node:assert/strict";
import { ProgressNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { catalogue } from "../lib/tools/catalogue.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { callTool } from "./helpers/mcp.ts";

interface Finding {
  id: string;
  severity: string;
  title: string;
  evidence: { menu: string; id?: string; properties?: Record<string, string>; note?: string }[];
  fix: { tool: string; arguments: Record<string, unknown> }[];
}
interface DeviceAudit {
  device: string;
  ok: boolean;
  score: number;
  wan_interfaces: { name: string; why: string[] }[];
  findings: Finding[];
  not_checked: string[];
}

const DROP_REST = 'place-before=[find comment="defconf: drop all not coming from LAN"]';

Deno.test("router_audit_security: an exposed router's findings, evidence, fixes, and a clean audit after", async (t) => {
  const edge = await startSimulator({
    version: "7.16.2",
    identity: "edge",
    users: [
      { name: "admin", password: "", group: "full" },
      { name: "ops", password: "ops-pass", group: "full" },
    ],
  });
  const core = await startSimulator({ version: "6.49.13", identity: "core" });
  for (
    const c of [
      "/ip address add address=203.0.113.2/30 interface=ether1",
      "/ip firewall filter add chain=input action=accept protocol=tcp dst-port=8291 " +
      `in-interface-list=WAN comment="winbox from anywhere" ${DROP_REST}`,
      "/ip firewall filter add chain=input action=accept protocol=udp dst-port=53 " +
      `in-interface-list=WAN comment="dns for everyone" ${DROP_REST}`,
      "/ip dns set allow-remote-requests=yes",
    ]
  ) assert.equal(edge.run(c).exitCode, 0, c);
  const winboxRule = edge.items("/ip/firewall/filter").find((r) =>
    r.comment === "winbox from anywhere"
  )!;
  const dnsRule = edge.items("/ip/firewall/filter").find((r) => r.comment === "dns for everyone")!;
  // A port nothing listens on: a router that cannot be reached.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const offPort = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const inventory = [
    { title: "edge", host: edge.host, port: edge.port, username: "ops", password: "ops-pass" },
    { title: "core", host: core.host, port: core.port, username: "admin", password: "" },
    { title: "offline", host: "127.0.0.1", port: offPort, username: "admin", password: "" },
  ];
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
  const audit = async (args: Record<string, unknown> = {}) => {
    const r = await callTool(session, "router_audit_security", args);
    assert.ok(!r.isError, r.content[0].text);
    return (r.structuredContent as { devices: DeviceAudit[] }).devices;
  };
  try {
    let first: DeviceAudit[] = [];
    await t.step("the fleet audit ranks the exposed router first, with progress", async () => {
      const progress: number[] = [];
      session.client.setNotificationHandler(ProgressNotificationSchema, (n) => {
        progress.push(n.params.progress);
      });
      const r = await session.client.callTool({
        name: "router_audit_security",
        arguments: {},
        _meta: { progressToken: "audit" },
      });
      first = (r.structuredContent as { devices: DeviceAudit[] }).devices;
      assert.deepEqual(first.map((d) => d.device), ["edge", "core", "offline"]);
      assert.ok(first[0].score > first[1].score);
      assert.deepEqual(progress.sort(), [1, 2, 3]);
      const off = first[2] as DeviceAudit & { error?: string };
      assert.equal(off.ok, false);
      assert.match(off.error!, /^device "offline": router_audit_security failed: /);
      assert.deepEqual(first[0].wan_interfaces, [{ name: "ether1", why: ["interface list WAN"] }]);
      assert.ok(first[0].not_checked.some((n) => /passwords: RouterOS never shows one/.test(n)));
      assert.match((r.content as { text: string }[])[0].text, /^2 of 3 devices audited/);
    });

    const edgeFindings = () => new Map(first[0].findings.map((f) => [f.id, f]));
    await t.step("winbox open on the WAN list: the accepting rule is the evidence", () => {
      const f = edgeFindings().get("wan-exposed:winbox");
      assert.ok(f, [...edgeFindings().keys()].join(", "));
      assert.equal(f.severity, "high");
      assert.equal(f.title, "winbox (tcp/8291) is reachable from the WAN (ether1)");
      assert.deepEqual(f.evidence[0], {
        menu: "/ip/service",
        id: edge.items("/ip/service").find((s) => s.name === "winbox")![".id"],
        properties: { name: "winbox", port: "8291", address: "", disabled: "false" },
      });
      assert.equal(f.evidence[1].id, winboxRule[".id"]);
      assert.match(
        f.evidence[1].note!,
        /on ether1, this rule accepts it: chain=input action=accept protocol=tcp dst-port=8291 in-interface-list=WAN/,
      );
      assert.deepEqual(f.fix, [{
        tool: "router_update_ip_service",
        arguments: { name: "winbox", address: ["192.168.88.0/24"] },
      }]);
    });

    await t.step("the default admin user, and what cannot be seen of passwords", () => {
      const f = edgeFindings().get("admin-user");
      assert.equal(f?.severity, "high");
      assert.deepEqual(f?.fix, [{ tool: "router_disable_user", arguments: { name: "admin" } }]);
      assert.equal(f?.evidence[0].properties?.name, "admin");
    });

    await t.step("DNS open to the WAN: the setting and the rule that lets it in", () => {
      const f = edgeFindings().get("dns-open");
      assert.equal(f?.severity, "high");
      assert.equal(f?.evidence[0].properties?.["allow-remote-requests"], "true");
      assert.ok(
        f?.evidence.some((e) =>
          e.id === dnsRule[".id"] && /^udp\/53: on ether1, this rule accepts it/.test(e.note!)
        ),
      );
      assert.deepEqual(f?.fix, [{
        tool: "router_disable_firewall_filter_rule",
        arguments: { id: dnsRule[".id"] },
      }]);
    });

    await t.step("the default configuration: nothing open to the WAN", () => {
      const ids = first[1].findings.map((f) => f.id);
      assert.ok(!ids.some((i) => i.startsWith("wan-exposed") || i === "dns-open"), ids.join(", "));
      assert.ok(ids.includes("admin-user"));
      assert.ok(
        first[1].not_checked.some((n) =>
          /password policy: \/user settings is RouterOS 7's/.test(n)
        ),
      );
    });

    await t.step(
      "every fix call of every finding passes the guard chain (dry run, or the confirm guard)",
      async () => {
        const tools = new Map(catalogue().map((d) => [d.name, d]));
        let checked = 0;
        for (const d of first) {
          for (const f of d.findings) {
            for (const call of f.fix) {
              const def = tools.get(call.tool);
              assert.ok(def, `${f.id}: ${call.tool} is a tool of the catalogue`);
              const args = { ...call.arguments, device: d.device };
              const what = `${d.device} ${f.id}: ${call.tool}`;
              if (!def.annotations.readOnlyHint && !def.dryRun) {
                // No dry run (router_upgrade): the arguments pass, the confirmation guard stops it.
                const r = await callTool(session, call.tool, args);
                assert.equal(r.isError, true, what);
                assert.match(r.content[0].text, /needs confirm: true\. Nothing was done\./, what);
              } else {
                const r = await callTool(
                  session,
                  call.tool,
                  def.annotations.readOnlyHint ? args : { ...args, dry_run: true },
                );
                assert.ok(!r.isError, `${what}: ${r.content[0].text}`);
              }
              checked++;
            }
          }
        }
        assert.ok(checked > 15, `${checked} fix calls checked`);
      },
    );

    await t.step("the fixes, run with confirm, clear the exposures", async () => {
      for (const id of ["wan-exposed:winbox", "admin-user", "dns-open"]) {
        for (const call of edgeFindings().get(id)!.fix) {
          const r = await callTool(session, call.tool, {
            ...call.arguments,
            device: "edge",
            confirm: true,
          });
          assert.ok(!r.isError, `${id}: ${r.content[0].text}`);
        }
      }
      const [after] = await audit({ devices: ["edge"] });
      const ids = after.findings.map((f) => f.id);
      for (const id of ["wan-exposed:winbox", "admin-user", "dns-open"]) {
        assert.ok(!ids.includes(id), `${id} is gone: ${ids.join(", ")}`);
      }
      assert.ok(after.score < first[0].score);
      assert.equal(edge.items("/user").find((u) => u.name === "admin")?.disabled, "true");
    });

    await t.step("resources: the fleet's audit and one device's", async () => {
      const fleet = await session.client.readResource({ uri: "routeros://fleet/security" });
      const parsed = JSON.parse((fleet.contents[0] as { text: string }).text);
      const names = parsed.devices.map((d: DeviceAudit) => d.device);
      assert.deepEqual([...names].sort(), ["core", "edge", "offline"]);
      assert.equal(names.at(-1), "offline", "a router that could not be read comes last");
      const one = await session.client.readResource({ uri: "routeros://core/security" });
      assert.equal(JSON.parse((one.contents[0] as { text: string }).text).device, "core");
    });

    await t.step("tags choose the devices; an unknown device is an argument error", async () => {
      const none = await audit({ tags: ["nothing-has-this"] });
      assert.deepEqual(none, []);
      const r = await callTool(session, "router_audit_security", { devices: ["nope"] });
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        /unknown device\(s\) "nope"; valid devices: edge, core, offline/,
      );
    });
  } finally {
    await session.close();
    await Promise.all([edge.close(), core.close()]);
  }
});

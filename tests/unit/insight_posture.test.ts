/**
 * The security checklist (`lib/tools/insight/posture_checklist.ts`) on
 * typed rows, without SSH: every check fires on a router that breaks it,
 * none on one that keeps it; WAN exposure decided by the rule matcher
 * (open, maybe, closed; a service limited to inside prefixes); the fixes
 * (each a tool of the catalogue whose input schema takes its arguments),
 * and a firewall fix checked by walking the chain again.
 */
import assert from "node:assert/strict";
import type { Row } from "../../lib/routeros/route_lookup.ts";
import { evaluatePosture } from "../../lib/tools/insight/posture_checklist.ts";
import type { PostureFacts } from "../../lib/tools/insight/posture_types.ts";
import { catalogue } from "../../lib/tools/catalogue.ts";
import { isInsidePrefix } from "../../lib/routeros/wan_exposure.ts";

const SERVICES = [
  ["telnet", 23],
  ["ftp", 21],
  ["www", 80],
  ["ssh", 22],
  ["www-ssl", 443],
  ["api", 8728],
  ["winbox", 8291],
  ["api-ssl", 8729],
] as const;

/** A router with the default configuration's firewall and lists, RouterOS 7. */
function router(over: Record<string, Row[] | undefined> = {}, tags: string[] = []): PostureFacts {
  const menus = new Map<string, Row[] | undefined>(Object.entries({
    "/system/resource": [{ version: "7.23.5 (long-term)" }],
    "/system/package": [{ name: "routeros", version: "7.23.5" }],
    "/system/package/update": [{ channel: "long-term", "installed-version": "7.23.5" }],
    "/user": [{ ".id": "*1", name: "ops", group: "full" }],
    "/user/settings": [{ "minimum-password-length": "12" }],
    "/ip/service": SERVICES.map(([name, port], i) => ({
      ".id": `*${i + 1}`,
      name,
      port: String(port),
      address: "192.168.88.0/24",
      disabled: String(["telnet", "ftp", "www", "api", "api-ssl"].includes(name)),
    })),
    "/ip/ssh": [{ "strong-crypto": "true", "host-key-type": "ed25519" }],
    "/ip/dns": [{ "allow-remote-requests": "true" }],
    "/ip/proxy": [{ enabled: "false" }],
    "/ip/socks": [{ enabled: "false" }],
    "/ip/upnp": [{ enabled: "false" }],
    "/ip/cloud": [{ "ddns-enabled": "false" }],
    "/tool/mac-server": [{ "allowed-interface-list": "LAN" }],
    "/tool/mac-server/mac-winbox": [{ "allowed-interface-list": "LAN" }],
    "/tool/mac-server/ping": [{ enabled: "false" }],
    "/ip/neighbor/discovery-settings": [{ "discover-interface-list": "LAN" }],
    "/tool/bandwidth-server": [{ enabled: "false" }],
    "/interface": [
      { name: "ether1", type: "ether", running: "true" },
      { name: "ether2", type: "ether", running: "true", slave: "true" },
      { name: "bridge", type: "bridge", running: "true" },
    ],
    "/interface/list": [{ name: "WAN" }, { name: "LAN" }],
    "/interface/list/member": [
      { list: "WAN", interface: "ether1" },
      { list: "LAN", interface: "bridge" },
    ],
    "/ip/address": [
      { address: "192.168.88.1/24", interface: "bridge" },
      { address: "203.0.113.2/30", interface: "ether1" },
    ],
    "/ip/route": [{
      ".id": "*1",
      "dst-address": "0.0.0.0/0",
      gateway: "203.0.113.1",
      active: "true",
    }],
    "/ip/firewall/filter": [
      {
        ".id": "*1",
        chain: "input",
        action: "accept",
        "connection-state": "established,related,untracked",
      },
      { ".id": "*2", chain: "input", action: "drop", "connection-state": "invalid" },
      { ".id": "*3", chain: "input", action: "accept", protocol: "icmp" },
      { ".id": "*4", chain: "input", action: "drop", "in-interface-list": "!LAN" },
    ],
    ...over,
  }));
  return { device: "r", menus, tags, addressLists: new Map(), loginUser: "ops" };
}

const ids = (f: PostureFacts) => evaluatePosture(f).findings.map((x) => x.id);

Deno.test("posture: a hardened router has no finding", () => {
  const r = evaluatePosture(router());
  assert.deepEqual(r.findings, []);
  assert.equal(r.score, 0);
  assert.deepEqual(r.wan.map((w) => w.name), ["ether1"]);
  assert.deepEqual(r.lan, ["192.168.88.0/24"]);
  assert.equal(r.notChecked.length, 2, r.notChecked.join("\n"));
});

Deno.test("posture: each check fires on a router that breaks it, and every fix is a valid call", () => {
  const open = router({
    "/system/resource": [{ version: "7.12.1 (stable)" }],
    "/system/package": [
      { name: "routeros" },
      { name: "container" },
      { name: "wifi-qcom" },
    ],
    "/system/package/update": [],
    "/container": [],
    "/interface/wifi": [{ name: "wifi1" }],
    "/user": [{ ".id": "*1", name: "admin", group: "full", address: "" }],
    "/user/settings": [{ "minimum-password-length": "0" }],
    "/ip/service": SERVICES.map(([name, port], i) => ({
      ".id": `*${i + 1}`,
      name,
      port: String(port),
      address: "",
      disabled: "false",
    })),
    "/ip/ssh": [{
      "strong-crypto": "false",
      "allow-none-crypto": "true",
      "host-key-type": "rsa",
      "host-key-size": "1024",
    }],
    "/ip/proxy": [{ enabled: "true", port: "8080" }],
    "/ip/socks": [{ enabled: "true", port: "1080" }],
    "/ip/upnp": [{ enabled: "true" }],
    "/ip/cloud": [{ "ddns-enabled": "true" }],
    "/tool/mac-server": [{ "allowed-interface-list": "all" }],
    "/tool/mac-server/mac-winbox": [{ "allowed-interface-list": "WAN" }],
    "/tool/mac-server/ping": [{ enabled: "true" }],
    "/ip/neighbor/discovery-settings": [{ "discover-interface-list": "all" }],
    "/tool/bandwidth-server": [{ enabled: "true", authenticate: "false" }],
    "/interface": [
      { name: "ether1", type: "ether", running: "true" },
      { name: "ether5", type: "ether", running: "false" },
      { name: "bridge", type: "bridge", running: "true" },
    ],
    "/ip/firewall/filter": [
      { ".id": "*1", chain: "input", action: "accept", protocol: "icmp" },
    ],
  });
  const r = evaluatePosture(open);
  assert.deepEqual(r.findings.map((f) => `${f.severity} ${f.id}`), [
    "critical wan-exposed:telnet",
    "critical wan-exposed:ftp",
    "high admin-user",
    "high wan-exposed:www",
    "high wan-exposed:ssh",
    "high wan-exposed:api",
    "high wan-exposed:winbox",
    "high input-no-final-drop",
    "high dns-open",
    "high web-proxy",
    "high socks-proxy",
    "high ssh-crypto",
    "medium wan-exposed:www-ssl",
    "medium wan-exposed:api-ssl",
    "medium mac-server",
    "medium mac-winbox",
    "medium neighbor-discovery",
    "medium bandwidth-server",
    "medium upnp",
    "medium ssh-host-key",
    "medium routeros-outdated",
    "low password-policy",
    "low mac-ping",
    "low ip-cloud",
    "low package-unused:container",
    "low interfaces-unused",
  ]);
  const tools = new Map(catalogue().map((t) => [t.name, t]));
  for (const f of r.findings) {
    assert.ok(f.source.length > 10, `${f.id} names its source`);
    assert.ok(f.evidence.length > 0, `${f.id} has evidence`);
    for (const call of f.fix) {
      const tool = tools.get(call.tool);
      assert.ok(tool, `${f.id}: ${call.tool} exists`);
      const parsed = tool.input.safeParse(call.arguments);
      assert.ok(
        parsed.success,
        `${f.id}: ${call.tool} ${JSON.stringify(call.arguments)}: ${parsed.error}`,
      );
      if (tool.requireOneOf) {
        assert.ok(tool.requireOneOf.some((k) => call.arguments[k] !== undefined), f.id);
      }
    }
  }
  const ssh = r.findings.find((f) => f.id === "wan-exposed:ssh")!;
  assert.deepEqual(ssh.fix, [{
    tool: "router_update_ip_service",
    arguments: { name: "ssh", address: ["192.168.88.0/24"] },
  }]);
  const drop = r.findings.find((f) => f.id === "input-no-final-drop")!;
  assert.deepEqual(drop.fix.map((c) => c.arguments), [
    {
      chain: "input",
      action: "accept",
      connection_state: ["established", "related", "untracked"],
      comment: "accept established (router_audit_security)",
    },
    {
      chain: "input",
      action: "drop",
      in_interface_list: "WAN",
      comment: "drop the rest from the WAN (router_audit_security)",
    },
  ]);
  // With nothing that decides, DNS is closed by appended drops (udp and tcp).
  assert.deepEqual(
    r.findings.find((f) => f.id === "dns-open")!.fix.map((c) => c.arguments.protocol),
    [
      "udp",
      "tcp",
    ],
  );
  assert.match(
    r.findings.find((f) => f.id === "routeros-outdated")!.title,
    /older than 7\.23\.5, the last long-term release this audit knows/,
  );
});

Deno.test("posture: WAN exposure is open, maybe or closed as the input chain says", () => {
  const filter = (rules: Row[]) => router({ "/ip/firewall/filter": rules });
  // a source list that was not read: maybe, and only low
  const maybe = evaluatePosture(filter([
    {
      ".id": "*1",
      chain: "input",
      action: "accept",
      "src-address-list": "mgmt",
      "dst-port": "8291",
      protocol: "tcp",
    },
    { ".id": "*2", chain: "input", action: "drop", "in-interface-list": "WAN" },
  ].map((r) => r) as Row[]));
  assert.deepEqual(maybe.findings.map((f) => `${f.severity} ${f.id}`), []);
  const open = router({
    "/ip/firewall/filter": [
      {
        ".id": "*1",
        chain: "input",
        action: "accept",
        "src-address-list": "mgmt",
        "dst-port": "8291",
        protocol: "tcp",
      },
      { ".id": "*2", chain: "input", action: "drop", "in-interface-list": "WAN" },
    ],
    "/ip/service": [{ ".id": "*7", name: "winbox", port: "8291", address: "" }],
  });
  const m = evaluatePosture(open).findings.find((f) => f.id === "wan-exposed:winbox")!;
  assert.equal(m.severity, "low");
  assert.equal(m.title, "winbox (tcp/8291) is maybe reachable from the WAN (ether1)");
  assert.match(m.evidence[1].note!, /may take it/);
  // the same with the list's entries read: closed
  const closed = { ...open, addressLists: new Map([["mgmt", ["10.9.0.0/24"]]]) };
  assert.ok(!ids(closed).includes("wan-exposed:winbox"));
  // a service limited to inside prefixes is not reachable from the WAN, whatever the firewall
  const inside = router({
    "/ip/firewall/filter": [],
    "/ip/service": [{
      ".id": "*7",
      name: "winbox",
      port: "8291",
      address: "10.0.0.0/8,192.168.88.0/24",
    }],
  });
  assert.deepEqual(ids(inside), ["input-no-final-drop", "dns-open"]);
  assert.ok(isInsidePrefix("fd00::/8") && isInsidePrefix("100.64.1.0/24"));
  assert.ok(!isInsidePrefix("0.0.0.0/0") && !isInsidePrefix("203.0.113.0/24"));
});

Deno.test("posture: an accept broader than DNS cannot be fixed by appending; remote requests go off", () => {
  const r = evaluatePosture(router({
    "/ip/firewall/filter": [
      { ".id": "*1", chain: "input", action: "accept", "in-interface-list": "WAN" },
    ],
  }));
  const dns = r.findings.find((f) => f.id === "dns-open")!;
  assert.deepEqual(dns.fix, [{
    tool: "router_update_dns_settings",
    arguments: { allow_remote_requests: false },
  }]);
  assert.match(dns.fix_note!, /accepts more than DNS/);
});

Deno.test("posture: no WAN known, MAC and discovery on every interface; the router's own release check", () => {
  const r = evaluatePosture(router({
    "/interface/list/member": [],
    "/ip/route": [],
    "/tool/mac-server": [{ "allowed-interface-list": "all" }],
    "/system/resource": [{ version: "7.22.1 (stable)" }],
    "/system/package/update": [{
      channel: "stable",
      "installed-version": "7.22.1",
      "latest-version": "7.24.1",
    }],
  }));
  assert.deepEqual(r.wan, []);
  assert.ok(r.notChecked.some((n) => /exposure to the WAN: no WAN interface is known/.test(n)));
  assert.deepEqual(r.findings.map((f) => `${f.severity} ${f.id}`), [
    "low mac-server",
    "low routeros-outdated",
  ]);
  assert.match(r.findings[1].title, /older than 7\.24\.1, the newest of its stable channel/);
  // an inventory tag names the WAN
  const tagged = evaluatePosture(
    router({ "/interface/list/member": [], "/ip/route": [] }, ["wan:ether1"]),
  );
  assert.deepEqual(tagged.wan, [{ name: "ether1", why: ["inventory tag wan:ether1"] }]);
});

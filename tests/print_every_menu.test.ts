/**
 * Every menu the product offers an agent answers on the demo router, on
 * every simulated release: `router_print`'s allow-list (which holds the
 * schema menu of every tool, `lib/routeros/schema/registry.ts`, plus the
 * state menus of `PRINT_EXTRAS`), the menus the prompts name, and the
 * `routeros://{device}/print{+path}` resource of docs/resources.md. One
 * simulator and one in-process server per release, reached over real SSH.
 *
 * A menu the release lacks is refused, naming the releases that have it;
 * the refusals are held against the real command trees
 * (`../shared/fidelity`) and, for RouterOS 6, which has no public tree,
 * against the menus that real RouterOS 6 captures print
 * (`../shared/real-output`).
 */
import assert from "node:assert/strict";
import { release } from "../lib/routeros/release.ts";
import { menuOnRelease } from "../lib/routeros/schema/menu.ts";
import { MENU_SCHEMAS } from "../lib/routeros/schema/registry.ts";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { callTool, listAllTools, type McpSession } from "./helpers/mcp.ts";
import { PROFILES } from "./helpers/profiles.ts";
import { capture, captures, realOutputAvailable } from "./helpers/real_output.ts";
import { nearestTree, treesAvailable } from "./helpers/trees.ts";

/** The demo router as docs/resources.md names it (`--simulate` titles it `sim`). */
async function demo(sim: SimRouter): Promise<McpSession> {
  const inventory = [{
    title: "sim",
    host: sim.host,
    port: sim.port,
    username: "admin",
    password: "",
  }];
  return await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
}

/** The paths `router_print` offers, from its input schema as a client sees it. */
async function offeredPaths(session: McpSession): Promise<string[]> {
  const tools = await listAllTools(session.client);
  const print = tools.find((t) => t.name === "router_print");
  assert.ok(print, "router_print is listed");
  const path = (print.inputSchema.properties as Record<string, { enum?: string[] }>).path;
  assert.ok(path.enum && path.enum.length > 100, "router_print lists its allow-list");
  return path.enum;
}

/** What a refusal for a release that lacks the menu says. */
const NOT_ON_RELEASE = (v: string) =>
  new RegExp(
    `^router_print: \\S+ is not on RouterOS ${v.replaceAll(".", "\\.")}: it needs RouterOS \\d`,
  );
const OWN_FORM = (v: string) =>
  new RegExp(
    `^router_print: \\S+ is not read on RouterOS ${v.replaceAll(".", "\\.")}: router_print reads ` +
      "the form of RouterOS \\d",
  );

/**
 * What the demo router holds in the menus added for it, by path: a property
 * every answer has, and a value one of its items shows.
 */
const DEMO_ITEMS: Record<string, [string, string?]> = {
  "/ip/arp": ["mac-address", "3C:22:FB:11:22:33"],
  "/ip/firewall/connection": ["protocol", "tcp"],
  "/ip/cloud": ["ddns-enabled"],
  "/ip/ssh": ["strong-crypto"],
  "/snmp": ["trap-community", "public"],
  "/system/license": ["software-id", "7QKN-RZ2V"],
  "/system/history": ["action", "address added"],
  "/routing/route": ["dst-address", "192.168.88.0/24"],
  "/ipv6/neighbor": ["address", "fe80::3e22:fbff:fe11:2233"],
  "/interface/bridge/host": ["mac-address", "3C:22:FB:11:22:33"],
};

/** Menus that real RouterOS 6 captures print (`# version: 6...`, `# command: /ip arp print...`). */
function menusOfRealV6Captures(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of captures("")) {
    const o = capture(file);
    if (!/^\s*(6\.|unknown \(6\.x)/.test(o.version)) continue;
    for (const command of o.command.split(/\s*;\s*/)) {
      const m = /^(\/[a-z0-9 -]+?) print\b/.exec(command.trim());
      if (m) out.set("/" + m[1].trim().slice(1).split(/\s+/).join("/"), o.file);
    }
  }
  return out;
}

/** The declared menus of a path (a menu that changed shape has one per shape). */
function declared(path: string) {
  return MENU_SCHEMAS.filter((m) => m.path === path);
}

for (const version of PROFILES) {
  Deno.test(`router_print on RouterOS ${version}: every menu it offers answers, or the release lacks it`, async () => {
    // with the wireless package, which the legacy CAPsMAN needs from 7.13 (lib/sim/packages.ts)
    const sim = await startSimulator({ version, packages: ["wireless"] });
    const session = await demo(sim);
    try {
      const paths = await offeredPaths(session);
      const answered = new Map<string, Record<string, unknown>[]>();
      /** Refused as a menu the release lacks. */
      const absent: string[] = [];
      /** Refused as RouterOS 6's own form of a RouterOS 7 menu. */
      const ownForm: string[] = [];
      const broken: string[] = [];
      for (const path of paths) {
        const r = await callTool(session, "router_print", { path });
        const text = r.content[0].text;
        if (!r.isError) answered.set(path, (r.structuredContent?.items ?? []) as never);
        else if (NOT_ON_RELEASE(version).test(text)) absent.push(path);
        else if (OWN_FORM(version).test(text)) ownForm.push(path);
        else broken.push(`${path}: ${text}`);
      }
      const refused = [...absent, ...ownForm];
      console.log(
        `RouterOS ${version}: ${paths.length} menus offered, ${answered.size} answered, ` +
          `${refused.length} refused as not on the release`,
      );
      assert.deepEqual(broken, [], "every offered menu answers or says the release lacks it");

      // The menus added for the demo hold what a demo router has.
      for (const [path, [key, value]] of Object.entries(DEMO_ITEMS)) {
        const items = answered.get(path);
        if (!items) {
          assert.ok(refused.includes(path), `${path} answers on ${version}`);
          continue;
        }
        assert.ok(items.length > 0, `${path} has items on ${version}`);
        assert.ok(items.every((i) => key in i), `every ${path} item has ${key}`);
        if (value !== undefined) {
          assert.ok(items.some((i) => i[key] === value), `${path} shows ${key}=${value}`);
        }
      }

      // The refusals are true of the real release.
      const tree = treesAvailable() ? nearestTree(version) : undefined;
      if (tree) {
        const r = release(version);
        const lacked = refused.filter((p) => p in tree.menus);
        const extra = [...answered.keys()].filter((p) =>
          !(p in tree.menus) && !declared(p).some((m) => m.hardware) &&
          // a menu the schema dates after the tree's release (7.17 against the 7.16.2 tree)
          !declared(p).some((m) => menuOnRelease(m, r) && !menuOnRelease(m, tree.release))
        );
        assert.deepEqual(lacked, [], `refused on ${version}, but in the ${tree.version} tree`);
        assert.deepEqual(extra, [], `answered on ${version}, but not in the ${tree.version} tree`);
      } else if (version.startsWith("6.") && realOutputAvailable()) {
        const printed = menusOfRealV6Captures();
        const claimedAbsent = [...printed].filter(([p]) => absent.includes(p));
        const offered = [...printed.keys()].filter((p) => paths.includes(p));
        console.log(
          `RouterOS 6 captures print ${printed.size} menus, ${offered.length} of them offered: ` +
            offered.map((p) => `${p} ${answered.has(p) ? "answers" : "is RouterOS 6's own form"}`)
              .join(", "),
        );
        assert.ok(offered.length >= 10, "the RouterOS 6 captures were read");
        assert.deepEqual(
          claimedAbsent.map(([p, file]) => `${p} (${file})`),
          [],
          "router_print never says RouterOS 6 lacks a menu a RouterOS 6 capture prints",
        );
      }

      // docs/resources.md's example, as written.
      const res = await session.client.readResource({ uri: "routeros://sim/print/ip/arp" });
      const body = JSON.parse((res.contents[0] as { text: string }).text);
      assert.equal(body.path, "/ip/arp");
      assert.ok(body.items.length > 0, "the demo router has ARP entries");
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

Deno.test("prompts: every tool and menu they name answers on the demo router", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await demo(sim);
  try {
    const tools = await listAllTools(session.client);
    const listed = new Set(tools.map((t) => t.name));
    const paths = await offeredPaths(session);
    const ARGS: Record<string, Record<string, string>> = {
      troubleshoot_link: { interface: "ether2" },
      troubleshoot_route: { destination: "192.168.88.254" },
      prepare_change: { goal: "allow SSH from 10.0.0.0/24 only" },
      trace_reachability: { destination: "192.168.88.254", service: "tcp/443" },
    };
    const { prompts } = await session.client.listPrompts();
    assert.ok(prompts.some((p) => p.name === "troubleshoot_link"));
    for (const p of prompts) {
      const got = await session.client.getPrompt({ name: p.name, arguments: ARGS[p.name] ?? {} });
      const text = got.messages.map((m) => (m.content as { text: string }).text).join("\n");
      for (const name of text.match(/\brouter_[a-z0-9_]+/g) ?? []) {
        assert.ok(listed.has(name), `${p.name} names ${name}, which the server lists`);
      }
      for (const [, path] of text.matchAll(/router_print (\/[a-z0-9/-]+)/g)) {
        assert.ok(paths.includes(path), `${p.name} names router_print ${path}, which it offers`);
        const r = await callTool(session, "router_print", { path });
        assert.ok(!r.isError, `${p.name}: router_print ${path}: ${r.content[0].text}`);
      }
    }

    // troubleshoot_link, step by step, with the arguments it gives.
    const link = await session.client.getPrompt({
      name: "troubleshoot_link",
      arguments: ARGS.troubleshoot_link,
    });
    const steps = (link.messages[0].content as { text: string }).text;
    const calls: [string, Record<string, unknown>][] = [
      ["router_get_interface", { name: "ether2" }],
      ["router_get_ethernet_port", { name: "ether2" }],
      ["router_interface_traffic", { interfaces: ["ether2"] }],
      ["router_list_ip_addresses", {}],
      ["router_list_neighbors", { where: { interface: "ether2" } }],
      ["router_print", { path: "/ip/arp" }],
      ["router_get_logs", { text: "ether2" }],
      ["router_ping", { address: "192.168.88.254", interface: "ether2", count: 1 }],
    ];
    assert.deepEqual(
      [...new Set(steps.match(/\brouter_[a-z0-9_]+/g))].sort(),
      calls.map(([name]) => name).sort(),
      "the test calls every tool troubleshoot_link names",
    );
    for (const [name, args] of calls) {
      const r = await callTool(session, name, args);
      assert.ok(!r.isError, `${name} ${JSON.stringify(args)}: ${r.content[0].text}`);
    }
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("router_print: a path off the allow-list, or one this router lacks, says which", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await demo(sim);
  try {
    const before = sim.counters.commands;
    const typo = await callTool(session, "router_print", { path: "/ip/arpp" });
    assert.equal(typo.isError, true);
    assert.match(typo.content[0].text, /"\/ip\/arpp" is not on router_print's allow-list/);
    assert.match(typo.content[0].text, /did you mean \/ip\/arp\b/);
    const slash = await callTool(session, "router_print", { path: "ip/arp" });
    assert.match(slash.content[0].text, /did you mean \/ip\/arp\?/);
    assert.equal(sim.counters.commands, before, "nothing reached the router");

    // A RouterOS 7.13+ router without the wireless package (the simulated hAP ax²
    // has none) has no /caps-man: its own menu tree (`/console inspect`) lacks it.
    const lacked = await callTool(session, "router_print", { path: "/caps-man/manager" });
    assert.equal(lacked.isError, true);
    assert.match(
      lacked.content[0].text,
      /\/caps-man\/manager is a menu of RouterOS 7\.16\.2, but this router does not have it: a package/,
    );
    assert.doesNotMatch(lacked.content[0].text, /did you mean/);
  } finally {
    await session.close();
    await sim.close();
  }
});

/**
 * Injection: hostile values in every free-text field of several menus, sent
 * through the tools over MCP. The simulator afterwards holds exactly the
 * value given, in that item only, and nothing else changed.
 */
import assert from "node:assert/strict";
import { type SimVersion, startSimulator } from "../lib/sim/mod.ts";
import { MENU_TOOLS } from "../lib/tools/catalogue.ts";
import type { MenuTools } from "../lib/tools/menu_tools/spec.ts";
import { argsOn, type Item, ok, rosNameOn, startRig } from "./helpers/catalogue.ts";

/** Values that would run commands, end statements or break quoting if pasted raw. */
const HOSTILE = [
  '"',
  "\\",
  "$x",
  "$[/system reboot]",
  "$(/ip address remove 0)",
  "[/ip address remove 0]",
  "; /user remove admin",
  "?",
  "line1\nline2\r\n/ip address remove 0",
  "tab\there",
  "\x01\x02\x1b[31m\x7f",
  "emoji ✅ 🎉 ünïcödé",
  "\\E2\\9C\\85",
  'x" disabled=yes comment="y',
  "a b=c d=e",
  "{ :put 1 }",
  "",
];

/** Menus and their free-text fields (RouterOS names) exercised here. */
const CASES: [string, string[]][] = [
  ["/ip/address", ["comment"]],
  ["/ip/firewall/filter", ["comment", "log-prefix"]],
  ["/ip/firewall/address-list", ["list", "comment"]],
  ["/ip/dns/static", ["text", "comment"]],
  ["/system/scheduler", ["name", "comment"]],
  ["/queue/simple", ["name", "comment"]],
  ["/user", ["comment"]],
];

const menu = (path: string): MenuTools => MENU_TOOLS.find((m) => m.schema.path === path)!;
const toolArg = (name: string) => name.replace(/[-.]/g, "_");

for (const version of ["7.16", "6.49"] as SimVersion[]) {
  Deno.test(`injection on RouterOS ${version}: hostile values are stored verbatim and do nothing else`, async (t) => {
    const rig = await startRig(version, [], (v) => startSimulator({ version: v }));
    const { sim, session } = rig;
    try {
      const pristine = config(sim);
      for (const [path, fields] of CASES) {
        const m = menu(path);
        await t.step(`${path}: ${fields.join(", ")}`, async () => {
          for (const [i, value] of HOSTILE.entries()) {
            const base = argsOn(m, m.example!.add, version);
            const args: Record<string, unknown> = { ...base };
            for (const f of fields) args[toolArg(f)] = value;
            // Natural keys must stay unique per item; names get a suffix.
            if (m.schema.key && fields.includes(m.schema.key)) {
              args[toolArg(m.schema.key)] = `${value}#${i}`;
            }
            if (path === "/ip/dns/static") args.type = "TXT";
            if (path === "/ip/dns/static") delete args.address;
            const before = config(sim);
            const others = otherItems(sim, path);
            const added = (await ok(session, `router_add_${m.noun.stem}`, args)).item as Item;
            const raw = sim.items(path).find((x) => x[".id"] === added.id);
            assert.ok(raw, "the item is on the router");
            for (const f of fields) {
              const want = String(args[toolArg(f)]);
              assert.equal(raw[rosNameOn(m, f, version)], want, `${f} stored byte for byte`);
              // Before 7.13 items are read as terse lines, which end in CR LF:
              // a CR LF inside a value reads back as LF (a documented limit).
              const readable = version === "6.49" ? want.replaceAll("\r\n", "\n") : want;
              assert.equal(added[toolArg(f)], readable, `${f} read back byte for byte`);
            }
            assert.deepEqual(otherItems(sim, path), others, "no other menu changed");
            await ok(session, `router_remove_${m.noun.stem}`, { id: added.id, confirm: true });
            assert.equal(config(sim), before, "removing it leaves the router as before");
          }
        });
      }
      await t.step("/system/identity name", async () => {
        for (const value of HOSTILE.filter((v) => v !== "")) {
          const r = await ok(session, "router_update_identity", { name: value });
          assert.equal(sim.items("/system/identity")[0].name, value);
          const readable = version === "6.49" ? value.replaceAll("\r\n", "\n") : value;
          assert.equal((r.after as Item).name, readable);
        }
        await ok(session, "router_update_identity", { name: "MikroTik" });
      });
      assert.equal(config(sim), pristine, "the router ends as it started");
      assert.equal(sim.items("/ip/address").length, 1, "the default address is still there");
      assert.ok(sim.items("/user").some((u) => u.name === "admin"), "admin still exists");
    } finally {
      await rig.close();
    }
  });
}

/** Items of every touched menu except `path`, for "nothing else changed". */
function otherItems(sim: { items(p: string): Record<string, string>[] }, path: string) {
  const out: Record<string, unknown> = {};
  for (const [p] of CASES) if (p !== path) out[p] = sim.items(p);
  // Interfaces, without the link-up clock that moves by itself.
  out["/interface"] = sim.items("/interface").map(({ "last-link-up-time": _, ...rest }) => rest);
  out["/system/identity"] = sim.items("/system/identity");
  return out;
}

/** The router's configuration: `/export` without its timestamp line. */
function config(sim: { export(): string }): string {
  return sim.export().replace(/^# .* by RouterOS .*\n/, "");
}

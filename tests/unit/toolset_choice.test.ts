/**
 * What a configuration's settings alone tell about its toolsets, and the
 * server instructions built from that before the catalogue is loaded; held
 * against the catalogue itself.
 */
import assert from "node:assert/strict";
import { instructions } from "../../lib/server/mcp.ts";
import { selectTools } from "../../lib/server/tool_selection.ts";
import { chooseToolsets, type SelectionSettings } from "../../lib/server/toolset_choice.ts";
import { TOOLSETS } from "../../lib/tools/tool.ts";

const settings = (over: Partial<SelectionSettings>): SelectionSettings => ({
  toolsets: ["default"],
  "read-only": false,
  "allow-raw-commands": false,
  "dynamic-toolsets": false,
  ...over,
});

Deno.test("toolset choice: default, all, a list, dynamic", () => {
  assert.deepEqual(chooseToolsets(settings({})), {
    toolsets: TOOLSETS,
    coreFirst: true,
    dynamic: true,
  });
  assert.deepEqual(chooseToolsets(settings({ "dynamic-toolsets": true })), {
    toolsets: TOOLSETS,
    coreFirst: false,
    dynamic: true,
  });
  assert.deepEqual(chooseToolsets(settings({ toolsets: ["all"] })), {
    toolsets: TOOLSETS,
    coreFirst: false,
    dynamic: false,
  });
  // Catalogue order, whatever order the flag gives.
  assert.deepEqual(
    chooseToolsets(settings({ toolsets: ["dns", "ip"], "dynamic-toolsets": true })),
    { toolsets: ["ip", "dns"], coreFirst: false, dynamic: true },
  );
});

Deno.test("instructions: the toolsets a session can add, only when it can add them", () => {
  const byDefault = instructions(chooseToolsets(settings({})));
  assert.match(byDefault, /This session lists a core of the tools; router_enable_toolsets/);
  for (const t of TOOLSETS) assert.ok(byDefault.includes(` ${t} (`), t);
  const dynamic = instructions(
    chooseToolsets(settings({ toolsets: ["ip", "dns"], "dynamic-toolsets": true })),
  );
  assert.match(dynamic, /lists no router tools yet; .*: ip \(.*\); dns \(.*\)\.$/);
  assert.doesNotMatch(dynamic, /firewall/);
  assert.doesNotMatch(instructions(chooseToolsets(settings({ toolsets: ["all"] }))), /enable/);
});

Deno.test("instructions name only toolsets with tools: each has a read tool (kept by --read-only)", () => {
  for (const readOnly of [false, true]) {
    const s = settings({ "read-only": readOnly });
    const selection = selectTools({ settings: s });
    const withTools = new Set(
      selection.all.filter((t) => selection.offered.has(t.name) && !selection.discovery.has(t.name))
        .map((t) => t.toolset),
    );
    assert.deepEqual([...chooseToolsets(s).toolsets].filter((t) => !withTools.has(t)), []);
  }
});

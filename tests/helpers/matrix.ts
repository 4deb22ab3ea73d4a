/**
 * The catalogue matrix: for each simulated release, two tests over one
 * sweep of the catalogue (`sweep.ts`):
 *
 * 1. every listed tool succeeds once (output valid against its schema), or
 *    says that the release lacks what it needs and sends nothing: 0 broken;
 * 2. every command the tools sent names menus, commands, arguments and
 *    values that the real command tree of that release has (`script_check.ts`,
 *    `trees.ts`; the nearest older tree when there is none of the release).
 *
 * Test files call {@linkcode defineMatrixTests} with a share of the releases,
 * so `deno test --parallel` runs the shares side by side.
 *
 * @module
 */
import assert from "node:assert/strict";
import { inRange, release } from "../../lib/routeros/release.ts";
import { hasWrite, type MenuWrite } from "../../lib/routeros/schema/menu.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";
import { MENU_TOOLS } from "../../lib/tools/catalogue.ts";
import { menuOn } from "./catalogue.ts";
import { ScriptChecker } from "./script_check.ts";
import { isEngineTool, sweepCatalogue, type SweepResult, verbTool } from "./sweep.ts";
import { nearestTree, treesAvailable } from "./trees.ts";

/**
 * Menus whose commands a CHR's tree cannot judge: hardware a CHR lacks
 * (the schema's `hardware` menus), and `/system/health`, which a CHR without
 * sensors shows reduced (its print takes neither `detail` nor `proplist`).
 */
const UNCHECKED = new Map<string, string>([
  ...MENU_SCHEMAS.filter((m) => m.hardware).map((m) =>
    [m.path, `${m.path}: hardware a CHR lacks`] as [string, string]
  ),
  ["/system/health", "/system/health: a CHR has no sensors, its tree shows the menu reduced"],
]);

/**
 * What a release newer than its tree is documented to take, which the
 * older tree cannot show (a mismatch starting with `mismatch` passes from
 * release `from` on, and is printed).
 */
const OVPN_SERVERS = "RouterOS 7.17's changelog (ovpn-server: several servers, a list menu)";
const NEWER_THAN_TREE = [{
  from: "7.17",
  mismatch: "serialize options=json.no-string-conversion",
  source: "MikroTik's Scripting manual (:serialize options=json.no-string-conversion from 7.17)",
}, {
  from: "7.17",
  mismatch: "/interface/ovpn-server/server: no command",
  source: OVPN_SERVERS,
}, {
  from: "7.17",
  mismatch: "interface ovpn-server server ",
  source: OVPN_SERVERS,
}];

const sweeps = new Map<string, Promise<SweepResult>>();

/** One sweep per release per test file, shared by its two tests. */
function sweepOf(version: string): Promise<SweepResult> {
  let s = sweeps.get(version);
  if (!s) {
    s = sweepCatalogue(version);
    sweeps.set(version, s);
  }
  return s;
}

const WRITES: Partial<Record<string, MenuWrite>> = {
  add: "add",
  update: "set",
  remove: "remove",
  enable: "enable",
  disable: "disable",
  move: "move",
};

/**
 * Engine tools of menus the release lacks, and of writes its menu lacks
 * (`/container/envs enable` before 7.22): the only engine tools that may be
 * unsupported.
 */
function absentMenuTools(version: string): Set<string> {
  return new Set(
    MENU_TOOLS.flatMap((m) =>
      m.verbs.filter((v) => {
        const write = WRITES[v];
        return !menuOn(m, version) || (write && !hasWrite(m.schema, write, release(version)));
      }).map((v) => verbTool(m, v))
    ),
  );
}

/** Define the two tests of each release in `versions`. */
export function defineMatrixTests(versions: readonly string[]): void {
  for (const version of versions) {
    Deno.test(`catalogue on RouterOS ${version}: every tool works or says what the release lacks`, async () => {
      const r = await sweepOf(version);
      const absent = absentMenuTools(version);
      console.log(
        `RouterOS ${version}: ${r.listed} listed, ${r.called.length} called, ` +
          `${r.unsupported.length} unsupported, ${r.broken.length} broken`,
      );
      if (r.unsupported.length) console.log(`  unsupported: ${r.unsupported.join(", ")}`);
      assert.deepEqual(r.missed, [], "every listed tool was called");
      assert.ok(r.listed >= 250, `about 250 tools listed (got ${r.listed})`);
      assert.deepEqual(r.broken, [], `${r.broken.length} broken tools:\n${r.broken.join("\n")}`);
      const unexpected = r.unsupported.filter((n) => isEngineTool(n) && !absent.has(n));
      assert.deepEqual(unexpected, [], "engine tools of menus the release has are supported");
    });

    Deno.test({
      name: `catalogue on RouterOS ${version}: every command sent exists in the real command tree`,
      ignore: !treesAvailable(),
      async fn() {
        const tree = nearestTree(version);
        if (!tree) {
          console.log(`SKIP: no real command tree of RouterOS ${version} (none is public for 6.x)`);
          return;
        }
        const r = await sweepOf(version);
        const checker = new ScriptChecker(tree, UNCHECKED);
        const found = new Map<string, Set<string>>();
        const documented: string[] = [];
        for (const { tool, command } of r.sent) {
          for (const m of checker.check(command)) {
            const doc = NEWER_THAN_TREE.find((d) =>
              m.startsWith(d.mismatch) && inRange(release(version), { from: d.from }) &&
              !inRange(tree.release, { from: d.from })
            );
            if (doc) {
              if (!documented.includes(doc.source)) documented.push(doc.source);
              continue;
            }
            found.set(m, (found.get(m) ?? new Set()).add(tool));
          }
        }
        console.log(
          `RouterOS ${version} against the ${tree.version} tree: ${checker.counts.checked} ` +
            `commands checked in ${r.sent.length} scripts`,
        );
        for (const [why, n] of checker.counts.skipped) console.log(`  ${n} not checked: ${why}`);
        for (const d of documented) console.log(`  newer than the tree, by ${d}`);
        assert.ok(checker.counts.checked > r.sent.length, "the scripts were read");
        assert.deepEqual(
          [...found].map(([m, tools]) => `${m} (${[...tools].join(", ")})`),
          [],
          `what the tools sent that RouterOS ${tree.version} lacks`,
        );
      },
    });
  }
}

/**
 * Which devices a fleet-wide tool acts on (lib/tools/fleet/selection.ts):
 * the named titles in the given order, each once, any case; or the whole
 * inventory; narrowed by tags and region; an unknown title lists the valid ones.
 */
import assert from "node:assert/strict";
import { chooseDevices } from "../../lib/tools/fleet/selection.ts";
import { ArgumentError } from "../../lib/routeros/errors.ts";
import type { DeviceInfo } from "../../lib/tools/tool.ts";

const device = (title: string, tags: string[], region?: string): DeviceInfo => ({
  title,
  host: "192.0.2.1",
  port: 22,
  username: "admin",
  tags,
  connected: false,
  ...(region ? { region } : {}),
});
const ALL = [
  device("Edge A", ["edge"], "eu"),
  device("edge-b", ["edge", "lab"], "us"),
  device("core", ["core"], "eu"),
];
const titles = (ds: DeviceInfo[]) => ds.map((d) => d.title);

Deno.test("fleet selection: named devices in the order given, each once, any case", () => {
  assert.deepEqual(titles(chooseDevices(ALL, { devices: ["core", " edge a", "CORE"] })), [
    "core",
    "Edge A",
  ]);
});

Deno.test("fleet selection: the whole inventory, narrowed by tags and region", () => {
  assert.deepEqual(titles(chooseDevices(ALL, {})), ["Edge A", "edge-b", "core"]);
  assert.deepEqual(titles(chooseDevices(ALL, { tags: ["edge"] })), ["Edge A", "edge-b"]);
  assert.deepEqual(titles(chooseDevices(ALL, { tags: ["edge"], region: "us" })), ["edge-b"]);
  assert.deepEqual(titles(chooseDevices(ALL, { devices: ["core"], tags: ["edge"] })), []);
});

Deno.test("fleet selection: an unknown title is an argument error listing the valid ones", () => {
  assert.throws(
    () => chooseDevices(ALL, { devices: ["core", "nope"] }),
    (e: unknown) =>
      e instanceof ArgumentError &&
      /unknown device\(s\) "nope"; valid devices: Edge A, edge-b, core/.test(e.message),
  );
});

Deno.test("fleet selection: unknown titles come back cut, a few of them, then a count", () => {
  const long = "x".repeat(256);
  assert.throws(
    () => chooseDevices(ALL, { devices: Array.from({ length: 1000 }, (_, i) => `${long}${i}`) }),
    (e: unknown) =>
      e instanceof ArgumentError && e.message.length < 600 &&
      /unknown device\(s\) "x{79}…\(259 bytes\), .* and 997 more; valid devices: Edge A/
        .test(e.message),
  );
});

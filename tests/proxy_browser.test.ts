/**
 * Swagger UI in a real browser: headless Chromium (Debian's `chromium`)
 * loads the proxy's `/docs` and `/router/docs`, the rendered page shows an
 * operation for every tool, and a screenshot is taken.
 *
 * `CHROMIUM_BIN` names another browser binary. Without Chromium this test fails and says how to install it, unless
 * CI_NO_BROWSER=1 is set, in which case it is ignored with the reason printed.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { getJson, routerEntry, startProxy } from "./proxy_helpers.ts";

const INSTALL = "apt-get update && apt-get install -y chromium";

/** `CHROMIUM_BIN` when set, else Debian's and other usual paths. */
function findChromium(): string | undefined {
  const given = Deno.env.get("CHROMIUM_BIN");
  const candidates = given
    ? [given]
    : ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  for (const path of candidates) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

const chromium = findChromium();
const skip = !chromium && Deno.env.get("CI_NO_BROWSER") === "1";
if (skip) {
  console.log(`proxy_browser: ignored: no Chromium and CI_NO_BROWSER=1 (install: ${INSTALL})`);
}

/** Run headless Chromium with the flags this machine needs; returns stdout. */
async function headless(args: string[]): Promise<string> {
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  try {
    const out = await new Deno.Command(chromium!, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--virtual-time-budget=15000",
        ...args,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, `chromium failed: ${new TextDecoder().decode(out.stderr)}`);
    return stdout;
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name: "proxy: headless Chromium renders /docs with every tool, and a screenshot",
  ignore: skip,
  async fn() {
    assert.ok(
      chromium,
      `Chromium is not installed; install it with: ${INSTALL} (or set CI_NO_BROWSER=1 to skip)`,
    );
    const sim = await startSimulator();
    // One toolset keeps the page small: Swagger UI renders only the operations
    // near the viewport, so the window below is made tall enough for all.
    const router = routerEntry(sim);
    router.args.push("--toolsets", "ip");
    const proxy = await startProxy({ mcpServers: { router } });
    const dir = await Deno.makeTempDir({ prefix: "proxy-browser-" });
    try {
      const tools: string[] = (await getJson(proxy, "/router")).json.tools.map(
        (t: { name: string }) => t.name,
      );
      assert.ok(tools.length > 0);

      const height = Math.min(600 + 60 * tools.length, 16_000);
      const dom = await headless([
        `--window-size=1280,${height}`,
        "--dump-dom",
        `${proxy.url}/docs`,
      ]);
      const paths = [...dom.matchAll(/class="opblock-summary-path" data-path="([^"]+)"/g)]
        .map((m) => m[1]);
      assert.deepEqual(
        paths.sort(),
        tools.map((t) => `/router/${t}`).sort(),
        "one rendered operation per tool",
      );
      assert.match(dom, /OAS 3\.1/);
      assert.match(dom, /mcp-server-router proxy/);

      const shot = `${dir}/docs.png`;
      await headless([
        "--window-size=1280,1400",
        `--screenshot=${shot}`,
        `${proxy.url}/router/docs`,
      ]);
      const png = await Deno.readFile(shot);
      assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "a PNG file");
      assert.ok(png.length > 20_000, `a real rendering, not a blank page (${png.length} bytes)`);
      const keep = Deno.env.get("PROXY_SCREENSHOT");
      if (keep) await Deno.copyFile(shot, keep);
    } finally {
      await proxy.stop();
      await sim.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

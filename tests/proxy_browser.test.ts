/**
 * Swagger UI in a real browser: headless Chromium (Debian's `chromium`,
 * driven over the DevTools protocol) opens the proxy's `/docs` for every
 * tool of this repository's server (some 300 operations). The page shows
 * the operations grouped by toolset, folded; opening a group shows its
 * operations; "Try it out" on a list tool starts with an empty body (no
 * pre-filled filters) and executing it returns the simulator's addresses;
 * an add tool's body holds its required arguments only. The time until the
 * page is interactive is measured and printed (not asserted: the machine
 * is shared), and a screenshot taken.
 *
 * `CHROMIUM_BIN` names another browser binary. Without Chromium the test is
 * skipped, and the reason printed.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { findChromium, launchChromium } from "./proxy_chromium.ts";
import { getJson, routerEntry, startProxy } from "./proxy_helpers.ts";

const INSTALL = "apt-get update && apt-get install -y chromium";
const chromium = findChromium();
if (!chromium) {
  console.log(`proxy_browser: skipped: Chromium is not installed (install: ${INSTALL})`);
}

/** Records when the first group of operations is on the page. */
const MARK_SHOWN = `new MutationObserver(function (_, observer) {
  if (document.querySelector(".opblock-tag-section")) {
    window.__shown = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });`;

/** Once the groups are shown and the main thread has been idle 1 s: when it became idle. */
const INTERACTIVE = `(() => {
  if (window.__shown === undefined) return null;
  const tasks = window.__longTasks;
  const idleFrom = Math.max(window.__shown, tasks.length ? tasks[tasks.length - 1][1] : 0);
  if (performance.now() - idleFrom < 1000) return null;
  return { shown: window.__shown, interactive: idleFrom, longTasks: tasks.length };
})()`;

function operation(tag: string, operationId: string): string {
  return `document.getElementById(${JSON.stringify(`operations-${tag}-${operationId}`)})`;
}

Deno.test({
  name: "proxy: Swagger UI in headless Chromium: groups, Try it out, time to interactive",
  ignore: !chromium,
  async fn() {
    const sim = await startSimulator();
    const proxy = await startProxy({ mcpServers: { router: routerEntry(sim) } });
    const browser = await launchChromium(chromium!);
    try {
      const doc = (await getJson(proxy, "/openapi.json")).json;
      const ops = Object.entries(doc.paths as Record<string, { post: any }>);
      const tags: string[] = doc.tags.map((t: { name: string }) => t.name);
      assert.ok(ops.length > 200, `the whole catalogue: ${ops.length} operations`);
      assert.ok(tags.includes("ip") && tags.includes("firewall"), tags.join(", "));

      const tab = await browser.tab(1280, 1400, MARK_SHOWN);
      await tab.navigate(`${proxy.url}/docs`);
      const timing = await tab.waitFor<{ shown: number; interactive: number; longTasks: number }>(
        INTERACTIVE,
        "the page to be interactive",
      );
      const load = Deno.loadavg()[0].toFixed(2);
      console.log(
        `proxy_browser: /docs with ${ops.length} operations in ${tags.length} groups: ` +
          `groups shown after ${timing.shown.toFixed(0)} ms, interactive after ` +
          `${
            timing.interactive.toFixed(0)
          } ms (${timing.longTasks} long tasks; load average ${load})`,
      );

      const shownTags = await tab.evaluate<string[]>(
        `[...document.querySelectorAll("h3.opblock-tag")].map((h) => h.dataset.tag)`,
      );
      assert.deepEqual(shownTags, tags, "one folded group per toolset, in order");
      assert.equal(await tab.evaluate(`document.querySelectorAll(".opblock").length`), 0);
      assert.match(await tab.evaluate<string>(`document.body.innerText`), /OAS 3\.0/);
      const fetched = () =>
        tab.evaluate<string[]>(
          `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)`,
        );
      assert.ok((await fetched()).includes("/docs/openapi.json"));
      assert.ok(!(await fetched()).includes("/docs/schemas.json"), "schemas wait for a click");

      const ipOps = ops.filter(([, op]) => op.post.tags[0] === "ip").map(([path]) => path);
      await tab.evaluate(`document.getElementById("operations-tag-ip").click()`);
      const shownPaths = await tab.waitFor<string[]>(
        `(() => { const p = [...document.querySelectorAll(".opblock-summary-path")]
           .map((e) => e.dataset.path); return p.length ? p : null; })()`,
        "the ip group to open",
      );
      assert.deepEqual(shownPaths.sort(), ipOps.sort());
      assert.ok(shownPaths.includes("/router/router_list_ip_addresses"));

      const list = operation("ip", "router__router_list_ip_addresses");
      await tab.evaluate(`${list}.querySelector(".opblock-summary-control").click()`);
      const body = await tab.waitFor<string>(
        `${list}.querySelector("textarea.body-param__text")?.value`,
        "the list tool's request body",
      );
      assert.deepEqual(JSON.parse(body), {}, "no filter is pre-filled");
      await tab.evaluate(`${list}.querySelector('.tablinks[data-name="model"]').click()`);
      await tab.waitFor(
        `${list}.querySelector(".model-box")?.innerText.includes("where")`,
        "the request body's schema, from docs/schemas.json",
      );
      assert.ok((await fetched()).includes("/docs/schemas.json"));
      await tab.evaluate(`${list}.querySelector("button.execute").click()`);
      const status = await tab.waitFor<string>(
        `${list}.querySelector(".live-responses-table tr.response .response-col_status")?.innerText`,
        "the answer to Execute",
      );
      assert.equal(status.trim(), "200");
      const answer = await tab.evaluate<string>(
        `${list}.querySelector(".live-responses-table tr.response .response-col_description").innerText`,
      );
      assert.match(answer, /192\.168\.88\.1\/24/, "the simulator's address came back");

      const add = operation("ip", "router__router_add_ip_address");
      await tab.evaluate(`${add}.querySelector(".opblock-summary-control").click()`);
      const addBody = await tab.waitFor<string>(
        `${add}.querySelector("textarea.body-param__text")?.value`,
        "the add tool's request body",
      );
      assert.deepEqual(JSON.parse(addBody), { address: "", interface: "" }, "required only");

      const png = await tab.screenshot();
      assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "a PNG file");
      assert.ok(png.length > 20_000, `a real rendering, not a blank page (${png.length} bytes)`);
      const keep = Deno.env.get("PROXY_SCREENSHOT");
      if (keep) await Deno.writeFile(keep, png);
    } finally {
      await browser.close();
      await proxy.stop();
      await sim.close();
    }
  },
});

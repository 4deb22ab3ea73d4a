/**
 * `router_print` reads files too: `/file` is on its allow-list, RouterOS 7
 * prints each small file's `contents` (and any release returns it when
 * `proplist` names it). Its text is masked by the one masking of file text
 * that `router_read_file` uses (`lib/routeros/file_secrets.ts`), so an
 * `.rsc` written by `export show-sensitive file=`, which holds every secret
 * of the router, shows none of them, in the tool and in the print resource;
 * and a `where` on `contents`, which would answer whether a guess is right,
 * is refused (found by the second hostile re-test of issue 31: the
 * password came back in clear). A RouterOS 6 export kept in flash after an
 * upgrade to 7 has 6's names: OSPF's `authentication-key` (7: `auth-key`)
 * is masked too (third hostile re-test).
 *
 * In process against the simulator (RouterOS 7.16.2), no --reveal-secrets.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";

const PASSWORD = "Ppp-Secret-0815";

Deno.test("router_print /file does not show the secrets written in a file", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await serveInProcess([
    ...simArgs(sim),
  ]);
  try {
    assert.equal(sim.run(`/ppp secret add name=bob password=${PASSWORD}`).exitCode, 0);
    assert.equal(sim.run("/export show-sensitive file=everything").exitCode, 0);
    assert.ok(sim.items("/file").some((f) => String(f.contents ?? "").includes(PASSWORD)));

    await t.step("router_read_file masks it", async () => {
      const r = await callTool(session, "router_read_file", { name: "everything.rsc" });
      assert.equal(r.isError, undefined, r.content[0].text);
      assert.ok(!JSON.stringify(r).includes(PASSWORD));
      assert.match(r.content[0].text, /name=bob password=\*{8}/);
    });

    await t.step("a RouterOS 6 export: OSPF's authentication-key is masked", async () => {
      const v6 = [
        "# jan/02/2024 10:00:00 by RouterOS 6.49.13",
        "/routing ospf interface",
        "add authentication=md5 authentication-key=Ospf6-Md5-Key authentication-key-id=1 " +
        "interface=ether1",
        "/routing ospf virtual-link",
        "add authentication=md5 authentication-key=Vlink6-Md5-Key neighbor-id=10.0.0.2 " +
        "transit-area=a1",
        "",
      ].join("\\n");
      assert.equal(sim.run(`/file add name=v6-config.rsc contents="${v6}"`).exitCode, 0);
      const r = await callTool(session, "router_read_file", { name: "v6-config.rsc" });
      assert.equal(r.isError, undefined, r.content[0].text);
      assert.match(r.content[0].text, /authentication-key=\*{8} authentication-key-id=1/);
      for (const secret of ["Ospf6-Md5-Key", "Vlink6-Md5-Key"]) {
        assert.ok(!JSON.stringify(r).includes(secret), secret);
      }
    });

    for (
      const args of [
        { path: "/file" },
        { path: "/file", proplist: ["name", "contents"] },
        { path: "/file", where: { name: "everything.rsc" }, proplist: ["contents"] },
      ]
    ) {
      await t.step(`router_print ${JSON.stringify(args)}`, async () => {
        const r = await callTool(session, "router_print", args);
        assert.equal(r.isError, undefined, r.content[0].text);
        const text = JSON.stringify(r);
        assert.ok(!text.includes(PASSWORD), `the password in clear: ${text.slice(0, 200)}`);
        assert.match(text, /name=bob password=\*{8}/, "the rest of the file is shown");
      });
    }

    await t.step("a where on contents is refused", async () => {
      for (const key of ["contents", "cont"]) {
        const r = await callTool(session, "router_print", {
          path: "/file",
          where: { [key]: `add name=bob password=${PASSWORD}` },
        });
        assert.equal(r.isError, true);
        assert.match(
          r.content[0].text,
          /answers whether a guessed value is right.*--reveal-secrets/,
        );
      }
    });

    await t.step("the print resource", async () => {
      const r = await session.client.readResource({ uri: `routeros://${sim.host}/print/file` });
      assert.ok(!JSON.stringify(r).includes(PASSWORD), "the /file print resource shows it");
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

/**
 * A certificate's private key leaves the router only with the operator's
 * `--reveal-secrets` (found by the second hostile re-test of issue 31: an
 * operate key exported it with a passphrase of its own choosing, and a read
 * key read the `.key` file through `router_read_file`). Exporting the key
 * (`export_passphrase`, pkcs12) is refused by the secrets guard; a key file
 * (`.key`, `.p12`, `.pfx`) is not read, and a PEM private key block in any
 * file keeps its first and last lines only, in `router_read_file` and in
 * `router_print`'s `/file` contents alike.
 *
 * Over streamable-http with the test keys, no --reveal-secrets.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { quoteValue } from "../lib/routeros/quote.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

Deno.test("a certificate's private key does not leave the router without --reveal-secrets", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  try {
    for (
      const [name, args] of [
        ["router_add_certificate", { device: "r1", name: "vpn", common_name: "vpn.example.net" }],
        ["router_sign_certificate", { device: "r1", name: "vpn" }],
      ] as const
    ) {
      const r = await operator.callTool({ name, arguments: args });
      assert.equal(r.isError, undefined, textOf(r));
    }

    await t.step("exporting the key is refused; the certificate alone is not", async () => {
      for (
        const extra of [
          { export_passphrase: "chosen-by-the-caller" },
          { type: "pkcs12" },
          { export_passphrase: "chosen-by-the-caller", dry_run: true },
        ]
      ) {
        const r = await operator.callTool({
          name: "router_export_certificate",
          arguments: { device: "r1", name: "vpn", ...extra },
        });
        assert.equal(r.isError, true, JSON.stringify(extra));
        assert.match(
          textOf(r),
          /would take the certificate's private key out of the router .*--reveal-secrets/,
        );
        assert.ok(!textOf(r).includes("chosen-by-the-caller"));
      }
      assert.ok(!sim.items("/file").some((f) => /\.(key|p12)$/.test(String(f.name))));
      const crt = await operator.callTool({
        name: "router_export_certificate",
        arguments: { device: "r1", name: "vpn" },
      });
      assert.equal(crt.isError, undefined, textOf(crt));
      assert.deepEqual(crt.structuredContent, { files: ["cert_export_vpn.crt"] });
    });

    // A key the router's own admin exported (or any key file put there).
    assert.equal(
      sim.run("/certificate export-certificate vpn export-passphrase=by-hand-1234").exitCode,
      0,
    );
    const key = sim.run(":put [/file get cert_export_vpn.key contents]").output.trim();
    const body = key.split("\n").find((l) => l && !l.startsWith("-----"));
    assert.ok(body, `the simulator wrote no key file: ${key}`);
    // The same key inside a file of another name, after a certificate.
    const crt = sim.run(":put [/file get cert_export_vpn.crt contents]").output.trim();
    const bundle = `${crt}\n${key}\n`;
    assert.equal(
      sim.run(`/file add name=bundle.pem contents=${quoteValue(bundle)}`).exitCode,
      0,
    );

    await t.step("router_read_file refuses a key file", async () => {
      const r = await reader.callTool({
        name: "router_read_file",
        arguments: { device: "r1", name: "cert_export_vpn.key" },
      });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /would show a private key: cert_export_vpn\.key is a key file/);
      assert.ok(!JSON.stringify(r).includes(body!));
    });

    await t.step(
      "a PEM private key in another file keeps only its first and last lines",
      async () => {
        const r = await reader.callTool({
          name: "router_read_file",
          arguments: { device: "r1", name: "bundle.pem" },
        });
        assert.equal(r.isError, undefined, textOf(r));
        const contents = String((r.structuredContent as { contents: string }).contents);
        assert.ok(!contents.includes(body!));
        assert.ok(contents.includes(crt.split("\n")[1]), "the certificate itself is shown");
        assert.match(contents, /-----BEGIN [A-Z ]*PRIVATE KEY-----\n\*{8}\n-----END/);
      },
    );

    await t.step("router_print /file masks them the same way", async () => {
      const r = await reader.callTool({
        name: "router_print",
        arguments: { device: "r1", path: "/file", proplist: ["name", "contents"] },
      });
      assert.equal(r.isError, undefined, textOf(r));
      assert.ok(!JSON.stringify(r).includes(body!));
      const items = (r.structuredContent as { items: Record<string, string>[] }).items;
      assert.equal(items.find((f) => f.name === "cert_export_vpn.key")?.contents, "********");
      const where = await reader.callTool({
        name: "router_print",
        arguments: { device: "r1", path: "/file", where: { contents: key } },
      });
      assert.equal(where.isError, true);
      assert.match(textOf(where), /where on contents answers whether a guessed value is right/);
    });
  } finally {
    await operator.close();
    await reader.close();
    await srv.close();
    await sim.close();
  }
});

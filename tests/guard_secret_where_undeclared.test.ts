/**
 * `router_print` knows secrets by one list, the one raw console text is
 * masked by (`lib/routeros/secret_args.ts`, built from the real command
 * trees), besides the schema's declared secrets. So on
 * `/interface/wireless/security-profiles` the WEP keys `static-key-0` to
 * `static-key-3` and `management-protection-key`, which the schema does not
 * declare, are refused in `where` (an oracle: the item comes back when the
 * guess is right), abbreviated too; and on RouterOS 7.13 on, whose reads
 * return every property, such an undeclared secret is masked in what is
 * returned. In process against a simulated 6.49, started without
 * --reveal-secrets; the output masking as a unit.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { wirelessSecurityProfiles } from "../lib/routeros/schema/menus/wireless.ts";
import { dhcpServers } from "../lib/routeros/schema/menus/dhcp.ts";
import { maskedRecord } from "../lib/tools/diagnostics/print.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";

const PATH = "/interface/wireless/security-profiles";

Deno.test("guard: where on a WEP key or management protection key is refused", async () => {
  const sim = await startSimulator({ version: "6.49.13" });
  const session = await serveInProcess([
    ...simArgs(sim),
  ]);
  try {
    for (
      const key of [
        "wpa2-pre-shared-key",
        "static-key-0",
        "static-key-3",
        "static-k",
        "management-protection-key",
      ]
    ) {
      const r = await callTool(session, "router_print", {
        path: PATH,
        where: { [key]: "guess-0123456789" },
      });
      const text = r.content.map((c) => c.text).join("\n");
      assert.match(text, /would tell a secret/, `where on ${key} was sent: ${text.slice(0, 120)}`);
    }
    // A declared property that holds no secret stays a filter.
    const r = await callTool(session, "router_print", {
      path: PATH,
      where: { "management-protection": "disabled" },
    });
    assert.equal(r.isError, undefined, r.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("router_print: every secret is masked in what it returns, declared or not", () => {
  const raw = {
    ".id": "*1",
    name: "wep",
    mode: "static-keys-required",
    "static-key-0": "0123456789",
    "static-transmit-key": "key-0",
    "management-protection": "allowed",
    "management-protection-key": "mpk-0123456789",
    "wpa2-pre-shared-key": "psk-0123456789",
    "supplicant-identity": "MikroTik",
  };
  assert.deepEqual(maskedRecord(raw, PATH, [wirelessSecurityProfiles], [], "masked"), {
    ...raw,
    "static-key-0": "********",
    "management-protection-key": "********",
    "wpa2-pre-shared-key": "********",
  });
  // An unset secret shows as unset; a menu router_print does not declare is judged by name.
  assert.deepEqual(
    maskedRecord({ "static-key-1": "", secret: "s-0123456789" }, "/radius", [], [], "masked"),
    { "static-key-1": "", secret: "********" },
  );
  // A script: the passwords in it masked, withheld whole below admin, whole with --reveal-secrets.
  const dhcp = { name: "d", "lease-script": "/user set 0 password=Pw-0123456789" };
  assert.deepEqual(maskedRecord(dhcp, "/ip/dhcp-server", [dhcpServers], [], "masked"), {
    name: "d",
    "lease-script": "/user set 0 password=********",
  });
  assert.deepEqual(maskedRecord(dhcp, "/ip/dhcp-server", [dhcpServers], [], "withheld"), {
    name: "d",
    "lease-script": "********",
  });
  assert.deepEqual(maskedRecord(dhcp, "/ip/dhcp-server", [dhcpServers], [], "whole"), dhcp);
  // Undeclared script properties (a DHCP client's script) by the list of them.
  assert.deepEqual(
    maskedRecord(
      { script: ":global p; /user set 0 password=$p" },
      "/ip/dhcp-client",
      [],
      [],
      "masked",
    ),
    { script: ":global p; /user set 0 password=********" },
  );
});

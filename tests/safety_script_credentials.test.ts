/**
 * Credentials in a script's text (found by the second hostile re-test of
 * issue 31: the shapes below were shown in clear to read keys and written
 * to the audit log). Scripts that routers run (DDNS updaters, notifiers)
 * carry their credentials in shapes no RouterOS argument names:
 *
 * - a query parameter named as a secret: `url="https://.../update?...&password=..."`;
 * - URL userinfo built by concatenation: `url=("https://u:" . $pass . "@host/")`;
 * - a form body: `http-data="api_key=...&..."`;
 * - a function's argument: `$notify pw=...`.
 *
 * Masking by shape finds these (the process's owner and admin keys see the
 * script with them masked: reads, and the audit line of the call that set
 * it); since no shape finds every credential, a principal below admin gets
 * script text withheld whole, and `--reveal-secrets` shows it whole.
 *
 * Against the simulator (7.16.2): in process without keys, and over
 * streamable-http with the test keys.
 */
import assert from "node:assert/strict";
import { quoteValue } from "../lib/routeros/quote.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

const SECRETS = ["Ddns-Pass-4711", "Fetch-Pass-4712", "Api-Key-4713", "Fn-Pass-4714"];

const SOURCE = [
  `/tool fetch url="https://dyn.example.net/nic/update?hostname=gw&password=${
    SECRETS[0]
  }" keep-result=no`,
  `:local pass "${SECRETS[1]}"`,
  `/tool fetch url=("https://gw:" . $pass . "@backup.example.net/upload") keep-result=no`,
  `/tool fetch url="https://api.example.net/v1/notify" http-method=post http-data="api_key=${
    SECRETS[2]
  }&text=up" keep-result=no`,
  `:local notify do={/tool fetch url="https://n.example.net/" user=gw password=$pw keep-result=no}`,
  `$notify pw=${SECRETS[3]}`,
].join("\n");

const READS = [
  ["router_list_scripts", {}],
  ["router_print", { path: "/system/script" }],
  ["router_export_config", { section: "/system/script" }],
] as const;

const shown = (out: string) => SECRETS.filter((s) => out.includes(s));

Deno.test("credentials in a script's URLs, bodies and function arguments are masked", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const r = sim.run(`/system script add name=ddns source=${quoteValue(SOURCE)}`);
  assert.equal(r.exitCode, 0, r.output);
  assert.equal(sim.items("/system/script")[0]?.source, SOURCE);
  const serve = (...flags: string[]) =>
    serveInProcess([
      ...simArgs(sim),
      ...flags,
    ]);
  try {
    const session = await serve();
    try {
      for (const [tool, args] of READS) {
        await t.step(`${tool}: masked, the script's text still there`, async () => {
          const out = JSON.stringify(await callTool(session, tool, args));
          assert.deepEqual(shown(out), [], `${tool} shows credentials of the script in clear`);
          assert.match(out, /backup\.example\.net\/upload/);
        });
      }
    } finally {
      await session.close();
    }
    const revealing = await serve("--reveal-secrets");
    try {
      await t.step("--reveal-secrets shows the script whole", async () => {
        const out = JSON.stringify(await callTool(revealing, "router_list_scripts", {}));
        assert.deepEqual(shown(out), SECRETS);
      });
    } finally {
      await revealing.close();
    }
  } finally {
    await sim.close();
  }
});

Deno.test("script text: withheld below admin, masked for admin and in the audit log", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  try {
    await t.step("an admin sets it: the audit line masks the credentials", async () => {
      const added = await admin.callTool({
        name: "router_add_script",
        arguments: { device: "r1", name: "ddns", source: SOURCE },
      });
      assert.equal(added.isError, undefined, textOf(added));
      assert.equal(sim.items("/system/script")[0]?.source, SOURCE, "the router has it whole");
      const audit = JSON.stringify(await srv.audit());
      assert.match(audit, /router_add_script/);
      assert.deepEqual(shown(audit), [], "credentials in the audit log");
      assert.deepEqual(shown(JSON.stringify(added)), []);
    });

    await t.step("an admin reads it masked", async () => {
      for (const [name, args] of READS) {
        const out = JSON.stringify(
          await admin.callTool({ name, arguments: { device: "r1", ...args } }),
        );
        assert.deepEqual(shown(out), [], name);
        assert.match(out, /backup\.example\.net\/upload/, name);
      }
    });

    await t.step("a read key gets no script text at all", async () => {
      for (const [name, args] of READS) {
        const r = await reader.callTool({ name, arguments: { device: "r1", ...args } });
        assert.equal(r.isError, undefined, textOf(r));
        const out = JSON.stringify(r);
        assert.doesNotMatch(out, /example\.net/, `${name} shows script text to a read key`);
        assert.match(out, /ddns/, `${name} still lists the script`);
      }
    });

    // An item that holds a script is admin's to change (roles.ts authorizeHeld):
    // the operate key's write is refused, and its refusal shows no script text.
    await t.step("an operate key's write to it is refused, showing no script text", async () => {
      const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
      try {
        const script = `/tool fetch url="https://h.example.net/?token=${SECRETS[0]}"`;
        const set = await admin.callTool({
          name: "router_update_dhcp_server",
          arguments: { device: "r1", id: "*1", lease_script: script },
        });
        assert.equal(set.isError, undefined, textOf(set));
        const r = await operator.callTool({
          name: "router_update_dhcp_server",
          arguments: { device: "r1", id: "*1", comment: "lan" },
        });
        assert.equal(r.isError, true, textOf(r));
        assert.match(textOf(r), /changes an item that holds a script the router runs/);
        assert.ok(!textOf(r).includes(SECRETS[0]) && !textOf(r).includes("example.net"));
      } finally {
        await operator.close();
      }
    });
  } finally {
    await admin.close();
    await reader.close();
    await srv.close();
    await sim.close();
  }
});

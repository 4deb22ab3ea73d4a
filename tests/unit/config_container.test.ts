/**
 * Container entrypoint rules (`--container` / `ROUTER_CONTAINER=1`), in
 * process through loadConfig. tests/container_mode.test.ts keeps one real
 * run per rule that a person sees (over MCP, or an exit code and message).
 */
import assert from "node:assert/strict";
import { CONTAINER_DEFAULT_HOST, loadConfig } from "../../lib/config/load.ts";
import { loadYamlParser } from "../../lib/config/yaml_parser.ts";

// Inventories are YAML; the server loads the parser only when it needs it.
await loadYamlParser();

const SECRET = "s3cret-Pa55";
const INLINE = "[{title: edge, host: 198.51.100.20, port: 2202, username: noc}]";

function hosts(config: ReturnType<typeof loadConfig>): [string, number, string][] {
  return config.devices.map((d) => [d.host, d.port, d.username]);
}

Deno.test("container: --container and ROUTER_CONTAINER=1 both default to 192.168.88.1 as admin", () => {
  for (
    const config of [loadConfig({ container: true }, {}), loadConfig({}, { ROUTER_CONTAINER: "1" })]
  ) {
    assert.equal(config.fleet, false);
    assert.deepEqual(hosts(config), [[CONTAINER_DEFAULT_HOST, 22, "admin"]]);
    assert.equal(config.devices[0].password, "");
  }
  assert.throws(() => loadConfig({}, { ROUTER_CONTAINER: "0" }), /no router given/);
});

Deno.test("container: single-device variables replace the defaults, and a flag beats its variable", () => {
  const env = { ROUTER_CONTAINER: "1", ROUTER_HOST: "198.51.100.7", ROUTER_USERNAME: "ops" };
  assert.deepEqual(hosts(loadConfig({}, { ...env, ROUTER_PORT: "2222" })), [[
    "198.51.100.7",
    2222,
    "ops",
  ]]);
  assert.equal(loadConfig({ host: "198.51.100.8" }, env).devices[0].host, "198.51.100.8");
});

Deno.test("container: an inline inventory beats the file, even a broken one, and the default host", () => {
  const config = loadConfig({}, {
    ROUTER_CONTAINER: "1",
    ROUTER_INVENTORY: INLINE,
    ROUTER_INVENTORY_FILE: "/nonexistent/inventory.yaml",
    ROUTER_HOST: "198.51.100.7",
  });
  assert.equal(config.fleet, true);
  assert.deepEqual(hosts(config), [["198.51.100.20", 2202, "noc"]]);
  assert.ok(config.notices.includes("info: --inventory is set, so --inventory-file is ignored"));
  assert.deepEqual(hosts(loadConfig({ container: true, inventory: INLINE }, {})), hosts(config));
});

Deno.test("container: secrets in the environment draw one warning naming them, never their values", () => {
  const both = loadConfig({}, {
    ROUTER_CONTAINER: "1",
    ROUTER_PASSWORD: SECRET,
    ROUTER_KEY_PASSPHRASE: SECRET + "2",
  });
  const warnings = both.notices.filter((n) => n.startsWith("warning"));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /ROUTER_PASSWORD and ROUTER_KEY_PASSPHRASE are set in the environment/);
  assert.ok(!warnings[0].includes(SECRET));
  assert.deepEqual(loadConfig({ container: true, password: SECRET }, {}).notices, [], "a flag");
  assert.deepEqual(
    loadConfig({}, { ROUTER_HOST: "h", ROUTER_PASSWORD: SECRET }).notices,
    [],
    "outside the container",
  );
  assert.deepEqual(
    loadConfig({}, { ROUTER_CONTAINER: "1", ROUTER_INVENTORY: INLINE, ROUTER_PASSWORD: SECRET })
      .notices.filter((n) => n.startsWith("warning")),
    [],
    "an ignored password draws no warning",
  );
});

Deno.test("container: never an empty device list", () => {
  for (const inventory of ["[]", "inventory: []"]) {
    assert.throws(
      () => loadConfig({}, { ROUTER_CONTAINER: "1", ROUTER_INVENTORY: inventory }),
      /the device list is empty; add at least one device/,
    );
  }
});

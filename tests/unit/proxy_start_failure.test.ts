/**
 * A child that cannot be spawned is explained in terms of the proxy's
 * configuration file: the server entry, the field and the file.
 */
import assert from "node:assert/strict";
import { startFailure } from "../../lib/proxy/start_failure.ts";

const FILE = "/etc/mcp/proxy.json";

Deno.test("proxy start failure: a missing cwd names the entry, the field and the file", () => {
  const spec = {
    name: "router",
    kind: "stdio" as const,
    command: "deno",
    args: [],
    env: {},
    cwd: "/nonexistent/dir",
  };
  assert.equal(
    startFailure(spec, "spawn deno ENOENT", FILE),
    `server "router" in ${FILE}: field "cwd" names /nonexistent/dir, which is not a directory; ` +
      `create it or fix "cwd"`,
  );
});

Deno.test("proxy start failure: a missing or unusable command names the command field", () => {
  const spec = { name: "x", kind: "stdio" as const, command: "/opt/mcp", args: [], env: {} };
  assert.match(
    startFailure(spec, "spawn /opt/mcp ENOENT", FILE),
    /^server "x" in \/etc\/mcp\/proxy\.json: field "command" names \/opt\/mcp, which was not found/,
  );
  assert.match(
    startFailure({ ...spec, cwd: "/tmp" }, "spawn /opt/mcp EACCES", FILE),
    /not executable/,
  );
  assert.equal(startFailure(spec, "connection closed", FILE), "connection closed");
  const remote = { name: "r", kind: "sse" as const, url: "http://x/", headers: {} };
  assert.equal(startFailure(remote, "spawn x ENOENT", FILE), "spawn x ENOENT");
});

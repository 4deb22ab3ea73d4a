/**
 * The lock-out guard on `/ip ssh`. First the hostile re-test of issue 31 as
 * it was reported: a managed router that is the SSH bastion
 * (`jump`) of other devices loses that role to a plain write. Setting
 * `/ip ssh forwarding-enabled=no` on it (`router_update_ssh_server`, an
 * `operate` tool, not destructive) needs no confirm and names nothing,
 * and from the next connection on every device behind it is unreachable:
 * the change cannot even be undone through this server for them. The
 * `/ip ssh` menu has no lock-out rule at all (its `host-key-type` change,
 * which gives the router a new host key that `accept-new` then refuses,
 * passes the same way).
 *
 * Against simulated routers (the bastion enforces forwarding-enabled), in
 * process. It failed on the code it was written against: the change was
 * applied without confirm, and a new connection to the device behind was
 * refused.
 *
 * Then: the refusal names the devices behind (a chain of bastions too),
 * host key changes need confirm on any device and say why, a device that is
 * no bastion turns forwarding off freely, and confirm: true goes through.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("hostile: turning off forwarding on a bastion router needs confirm", async () => {
  const bastion = await startSimulator();
  bastion.run("/ip ssh set forwarding-enabled=local");
  const behind = await startSimulator();
  const inventory = JSON.stringify([
    { title: "edge", host: bastion.host, port: bastion.port },
    { title: "R1", host: behind.host, port: behind.port, jump: "edge" },
  ]);
  const serve = () => serveInProcess(["--host-key-policy", "off"], { ROUTER_INVENTORY: inventory });
  let session = await serve();
  try {
    const reached = await callTool(session, "router_get_identity", { device: "R1" });
    assert.equal(reached.isError, undefined, reached.content[0].text);

    const off = await callTool(session, "router_update_ssh_server", {
      device: "edge",
      forwarding_enabled: "no",
    });
    const text = off.content.map((c) => c.text).join("\n");
    await session.close();
    // What the operator finds at the next connection: R1 is gone.
    session = await serve();
    const again = await callTool(session, "router_get_identity", { device: "R1" });
    assert.equal(
      bastion.items("/ip/ssh")[0]?.["forwarding-enabled"],
      "local",
      `forwarding was turned off on the bastion of R1 without confirm (${
        text.replace(/\s+/g, " ").slice(0, 160)
      }); a new connection to R1 now says: ${again.content[0].text.slice(0, 200)}`,
    );
    assert.equal(off.isError, true);
    assert.match(text, /would cut this server's own access/);
    assert.match(
      text,
      /this server reaches "R1" through device "edge" \(their SSH bastion, jump in the inventory\); forwarding_enabled=no ends the TCP forwarding that needs \(local or both\)/,
    );
  } finally {
    await session.close();
    await bastion.close();
    await behind.close();
  }
});

Deno.test("lock-out guard on /ip ssh: bastions of a chain, host keys, confirm", async () => {
  const outer = await startSimulator();
  outer.run("/ip ssh set forwarding-enabled=both");
  const inner = await startSimulator();
  inner.run("/ip ssh set forwarding-enabled=local host-key-type=rsa");
  const leaf = await startSimulator();
  const inventory = JSON.stringify([
    { title: "outer", host: outer.host, port: outer.port },
    { title: "inner", host: inner.host, port: inner.port, jump: "outer" },
    { title: "leaf", host: leaf.host, port: leaf.port, jump: "inner" },
  ]);
  const session = await serveInProcess(["--host-key-policy", "off"], {
    ROUTER_INVENTORY: inventory,
  });
  const call = async (device: string, args: Record<string, unknown>) => {
    const r = await callTool(session, "router_update_ssh_server", { device, ...args });
    return { error: r.isError === true, text: r.content.map((c) => c.text).join("\n") };
  };
  try {
    // The outer bastion carries both devices behind it (the inner one, and the leaf through it).
    const off = await call("outer", { forwarding_enabled: "remote" });
    assert.equal(off.error, true, off.text);
    assert.match(off.text, /this server reaches "inner", "leaf" through device "outer"/);
    assert.equal(outer.items("/ip/ssh")[0]["forwarding-enabled"], "both");
    // both → local keeps the TCP forwarding this server's jump uses.
    assert.equal((await call("outer", { forwarding_enabled: "local" })).error, false);
    // A device that is nobody's bastion.
    assert.equal((await call("leaf", { forwarding_enabled: "no" })).error, false);
    assert.equal(leaf.items("/ip/ssh")[0]["forwarding-enabled"], "no");
    // A new host key, on any device: clients that check host keys refuse it.
    const key = await call("leaf", { host_key_type: "rsa" });
    assert.equal(key.error, true, key.text);
    assert.match(
      key.text,
      /host_key_type=rsa gives the router a new SSH host key: SSH clients that check host keys refuse it \(this server with --host-key-policy accept-new or strict, or a pinned host_key\)/,
    );
    const size = await call("inner", { host_key_size: "4096" });
    assert.equal(size.error, true, size.text);
    assert.match(size.text, /makes the router generate a new RSA host key/);
    assert.match(size.text, /"leaf" are reached through this router too/);
    // An RSA key size on a router whose key is ed25519 changes no key.
    assert.equal((await call("outer", { host_key_size: "4096" })).error, false);
    // A setting that keeps the key and the forwarding needs nothing.
    assert.equal((await call("inner", { strong_crypto: true })).error, false);
    // The operator's word goes through.
    const confirmed = await call("inner", { forwarding_enabled: "no", confirm: true });
    assert.equal(confirmed.error, false, confirmed.text);
    assert.equal(inner.items("/ip/ssh")[0]["forwarding-enabled"], "no");
  } finally {
    await session.close();
    await outer.close();
    await inner.close();
    await leaf.close();
  }
});

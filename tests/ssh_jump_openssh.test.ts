/**
 * Jump hosts through a real OpenSSH `sshd` as the bastion (Debian's
 * openssh-server, started by the test on loopback with its own
 * configuration; `.ci/run` installs it), forwarding to simulated routers:
 * devices behind it answer tools through the MCP client, share one bastion
 * connection (counted from sshd's own log), a chain of two sshd bastions
 * works even with one dialing slot, and each of the bastion's failures
 * (forwarding off, wrong pinned host key, unknown host key under strict, the
 * bastion killed and back) is a tool error that names the bastion.
 * Skipped, with the reason printed, only when sshd is not installed.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, startRouters } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { sshdAvailable, type SshdBastion, startBastion } from "./helpers/sshd.ts";

const HAVE_SSHD = sshdAvailable("ssh_jump_openssh");
const LIST = "router_list_ip_addresses";
const WRONG_PIN = "SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M";

/** An inventory entry for `b`, used only as a bastion. */
function bastionEntry(b: SshdBastion, title = "jump-1", extra: Record<string, unknown> = {}) {
  return {
    title,
    host: b.host,
    port: b.port,
    username: b.user,
    key_filename: b.keyFile,
    host_key: b.hostKey,
    bastion_only: true,
    ...extra,
  };
}

/** `text` as a regular expression that matches it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function addresses(r: Awaited<ReturnType<typeof callTool>>): string[] {
  assert.equal(r.isError, undefined, r.content[0]?.text);
  return (r.structuredContent?.items as { address: string }[]).map((x) => x.address);
}

Deno.test({
  name: "jump openssh: devices behind an sshd bastion answer tools over one bastion connection",
  ignore: !HAVE_SSHD,
  async fn() {
    const bastion = await startBastion();
    const sims = await startRouters(2);
    sims.forEach((s, i) => s.run(`/ip address add address=10.${i}.0.1/24 interface=ether1`));
    const session = await serveInProcess([], {
      ROUTER_INVENTORY: JSON.stringify([
        bastionEntry(bastion),
        ...sims.map((s, i) => ({ title: `R${i + 1}`, host: s.host, port: s.port, jump: "jump-1" })),
      ]),
    });
    try {
      const listed = await callTool(session, "router_list_devices");
      const items = listed.structuredContent?.items as { title: string; via?: string[] }[];
      assert.deepEqual(items.map((d) => [d.title, d.via]), [["R1", ["jump-1"]], ["R2", [
        "jump-1",
      ]]]);
      assert.match(listed.content[0].text, /VIA/);
      // Both devices at once, then each again: one login on the bastion in all.
      const [a, b] = await Promise.all([
        callTool(session, LIST, { device: "R1" }),
        callTool(session, LIST, { device: "R2" }),
      ]);
      assert.ok(addresses(a).includes("10.0.0.1/24"));
      assert.ok(addresses(b).includes("10.1.0.1/24"));
      assert.ok(!addresses(a).includes("10.1.0.1/24"), "each device's own data");
      for (const device of ["R1", "R2", "R1"]) addresses(await callTool(session, LIST, { device }));
      assert.equal(await bastion.accepted(), 1, "one bastion connection serves both devices");
      assert.deepEqual(sims.map((s) => s.counters.connections), [1, 1]);
    } finally {
      await session.close();
      await Promise.all(sims.map((s) => s.close()));
      await bastion.close();
    }
  },
});

Deno.test({
  name: "jump openssh: a chain of two sshd bastions, with one dialing slot",
  ignore: !HAVE_SSHD,
  async fn() {
    const outer = await startBastion();
    const inner = await startBastion();
    const sim = await startSimulator();
    const session = await serveInProcess(["--max-dialing", "1"], {
      ROUTER_INVENTORY: JSON.stringify([
        bastionEntry(outer, "outer"),
        bastionEntry(inner, "inner", { jump: "outer" }),
        { title: "R1", host: sim.host, port: sim.port, jump: "inner" },
      ]),
    });
    try {
      const listed = await callTool(session, "router_list_devices");
      assert.deepEqual(
        (listed.structuredContent?.items as { via?: string[] }[])[0].via,
        ["outer", "inner"],
      );
      // A dialer that made a hop wait for a slot while holding one would never answer.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the chain deadlocked the dialer")), 20_000);
      });
      const r = await Promise.race([callTool(session, LIST, { device: "R1" }), stuck])
        .finally(() => clearTimeout(timer));
      assert.ok(addresses(r).length > 0);
      assert.deepEqual([await outer.accepted(), await inner.accepted()], [1, 1]);
      assert.equal(sim.counters.connections, 1);
    } finally {
      // A deadlocked dialer never lets the pool close: give up on it after 5 s.
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        session.close(),
        new Promise((resolve) => wait = setTimeout(resolve, 5000)),
      ]);
      clearTimeout(wait);
      await sim.close();
      await inner.close();
      await outer.close();
    }
  },
});

Deno.test({
  name: "jump openssh: forwarding refused (AllowTcpForwarding no) is an error naming the bastion",
  ignore: !HAVE_SSHD,
  async fn() {
    const bastion = await startBastion({ forwarding: false });
    const sim = await startSimulator();
    const session = await serveInProcess([], {
      ROUTER_INVENTORY: JSON.stringify([
        bastionEntry(bastion),
        { title: "R1", host: sim.host, port: sim.port, jump: "jump-1" },
      ]),
    });
    try {
      const r = await callTool(session, LIST, { device: "R1" });
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        new RegExp(
          `^device "R1": ${LIST} failed: bastion "jump-1" \\(127\\.0\\.0\\.1:${bastion.port}\\): ` +
            `forwarding refused by the bastion \\(administratively prohibited.*\\) for device "R1" ` +
            `\\(127\\.0\\.0\\.1:${sim.port}\\); allow TCP \\(local\\) port forwarding`,
        ),
      );
      assert.equal(await bastion.refusedForwards(), 1, "sshd itself refused it");
      assert.equal(sim.counters.connections, 0, "the device was never reached");
    } finally {
      await session.close();
      await sim.close();
      await bastion.close();
    }
  },
});

Deno.test({
  name:
    "jump openssh: the bastion's host key is checked: a wrong pin, and an unknown key under strict",
  ignore: !HAVE_SSHD,
  async fn() {
    const bastion = await startBastion();
    const sim = await startSimulator();
    const inventory = (pin?: string) =>
      JSON.stringify([
        { ...bastionEntry(bastion), host_key: pin },
        { title: "R1", host: sim.host, port: sim.port, jump: "jump-1" },
      ]);
    const pinned = await serveInProcess([], { ROUTER_INVENTORY: inventory(WRONG_PIN) });
    try {
      const r = await callTool(pinned, LIST, { device: "R1" });
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        new RegExp(
          `failed: bastion "jump-1" \\(127\\.0\\.0\\.1:${bastion.port}\\): host key mismatch: .*` +
            `${literal(bastion.hostKey)}.*pins host_key ${literal(WRONG_PIN)}`,
        ),
      );
    } finally {
      await pinned.close();
    }
    const strict = await serveInProcess(["--host-key-policy", "strict"], {
      ROUTER_INVENTORY: inventory(),
    });
    try {
      const r = await callTool(strict, LIST, { device: "R1" });
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        new RegExp(
          `failed: bastion "jump-1" \\(127\\.0\\.0\\.1:${bastion.port}\\): host key unknown: .*` +
            `--host-key-policy is strict`,
        ),
      );
      assert.equal(sim.counters.connections, 0, "nothing reached the device");
      assert.equal(await bastion.accepted(), 0, "no login on an unchecked bastion");
    } finally {
      await strict.close();
      await sim.close();
      await bastion.close();
    }
  },
});

Deno.test({
  name:
    "jump openssh: the bastion killed mid-session: the next call names it, and once back, calls recover",
  ignore: !HAVE_SSHD,
  async fn() {
    const bastion = await startBastion();
    const sim = await startSimulator();
    const session = await serveInProcess([], {
      ROUTER_INVENTORY: JSON.stringify([
        bastionEntry(bastion),
        { title: "R1", host: sim.host, port: sim.port, jump: "jump-1" },
      ]),
    });
    try {
      addresses(await callTool(session, LIST, { device: "R1" }));
      await bastion.kill();
      const down = await callTool(session, LIST, { device: "R1" });
      assert.equal(down.isError, true);
      assert.match(
        down.content[0].text,
        new RegExp(
          `failed: bastion "jump-1" \\(127\\.0\\.0\\.1:${bastion.port}\\): connection refused`,
        ),
      );
      await bastion.start();
      addresses(await callTool(session, LIST, { device: "R1" }));
      assert.equal(await bastion.accepted(), 2, "a new bastion connection after it came back");
      assert.equal(sim.counters.connections, 2);
    } finally {
      await session.close();
      await sim.close();
      await bastion.close();
    }
  },
});

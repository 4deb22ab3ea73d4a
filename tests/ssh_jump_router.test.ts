/**
 * Jump hosts through a simulated router as the bastion: it forwards
 * `direct-tcpip` channels only while `/ip ssh forwarding-enabled` is
 * `local` or `both` (refused as administratively prohibited otherwise, as
 * `no` is the default), on 6.49 and 7.x alike; devices behind it answer
 * tools through the MCP client over one bastion connection; a device the
 * bastion cannot reach is an error naming the bastion; a chain sshd →
 * router → router; and the single-device `--jump`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, startRouters } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { sshdAvailable, startBastion } from "./helpers/sshd.ts";

const LIST = "router_list_ip_addresses";

function addresses(r: Awaited<ReturnType<typeof callTool>>): string[] {
  assert.equal(r.isError, undefined, r.content[0]?.text);
  return (r.structuredContent?.items as { address: string }[]).map((x) => x.address);
}

for (const version of ["6.49.13", "7.16.2"] as const) {
  Deno.test(`jump router ${version}: forwarding-enabled decides, and one connection serves two devices`, async () => {
    const bastion = await startSimulator({ version });
    const sims = await startRouters(2);
    sims.forEach((s, i) => s.run(`/ip address add address=10.${i}.0.1/24 interface=ether1`));
    const session = await serveInProcess([], {
      ROUTER_INVENTORY: JSON.stringify([
        { title: "edge", host: bastion.host, port: bastion.port },
        ...sims.map((s, i) => ({ title: `R${i + 1}`, host: s.host, port: s.port, jump: "edge" })),
      ]),
    });
    try {
      const off = await callTool(session, LIST, { device: "R1" });
      assert.equal(off.isError, true);
      assert.match(
        off.content[0].text,
        new RegExp(
          `failed: bastion "edge" \\(127\\.0\\.0\\.1:${bastion.port}\\): forwarding refused by ` +
            `the bastion \\(administratively prohibited\\) for device "R1" \\(127\\.0\\.0\\.1:` +
            `${sims[0].port}\\)`,
        ),
      );
      assert.equal(sims[0].counters.connections, 0);

      bastion.run("/ip ssh set forwarding-enabled=remote");
      assert.equal(
        (await callTool(session, LIST, { device: "R1" })).isError,
        true,
        "remote is not local",
      );
      bastion.run("/ip ssh set forwarding-enabled=local");
      assert.ok(addresses(await callTool(session, LIST, { device: "R1" })).includes("10.0.0.1/24"));
      assert.ok(addresses(await callTool(session, LIST, { device: "R2" })).includes("10.1.0.1/24"));
      // The bastion is a device of the fleet too, on a connection of its own.
      assert.ok(addresses(await callTool(session, LIST, { device: "edge" })).length > 0);
      const connections = bastion.counters.connections;
      bastion.run("/ip ssh set forwarding-enabled=both");
      for (const device of ["R1", "R2", "R1"]) addresses(await callTool(session, LIST, { device }));
      assert.equal(bastion.counters.connections, connections, "warm calls open nothing new");
      assert.deepEqual(sims.map((s) => s.counters.connections), [1, 1]);
    } finally {
      await session.close();
      await Promise.all([bastion, ...sims].map((s) => s.close()));
    }
  });
}

Deno.test("jump router: a device the bastion cannot reach is an error naming the bastion", async () => {
  const bastion = await startSimulator();
  bastion.run("/ip ssh set forwarding-enabled=local");
  const gone = await startSimulator();
  const port = gone.port;
  await gone.close();
  const session = await serveInProcess([], {
    ROUTER_INVENTORY: JSON.stringify([
      { title: "edge", host: bastion.host, port: bastion.port, bastion_only: true },
      { title: "R1", host: "127.0.0.1", port, jump: "edge" },
    ]),
  });
  try {
    const r = await callTool(session, LIST, { device: "R1" });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      new RegExp(
        `^device "R1": ${LIST} failed: bastion "edge" \\(127\\.0\\.0\\.1:${bastion.port}\\): ` +
          `cannot reach device "R1" \\(127\\.0\\.0\\.1:${port}\\) from the bastion`,
      ),
    );
  } finally {
    await session.close();
    await bastion.close();
  }
});

Deno.test({
  name: "jump router: a chain sshd → router → router",
  ignore: !sshdAvailable("jump router chain"),
  async fn() {
    const outer = await startBastion();
    const edge = await startSimulator();
    edge.run("/ip ssh set forwarding-enabled=local");
    const sim = await startSimulator();
    const session = await serveInProcess([], {
      ROUTER_INVENTORY: JSON.stringify([
        {
          title: "outer",
          host: outer.host,
          port: outer.port,
          username: outer.user,
          key_filename: outer.keyFile,
          bastion_only: true,
        },
        { title: "edge", host: edge.host, port: edge.port, jump: "outer", bastion_only: true },
        { title: "R1", host: sim.host, port: sim.port, jump: "edge" },
      ]),
    });
    try {
      assert.ok(addresses(await callTool(session, LIST, { device: "R1" })).length > 0);
      assert.equal(await outer.accepted(), 1);
      assert.deepEqual([edge.counters.connections, sim.counters.connections], [1, 1]);
    } finally {
      await session.close();
      await Promise.all([edge.close(), sim.close(), outer.close()]);
    }
  },
});

Deno.test("jump router: single-device --jump reaches the router through the bastion", async () => {
  const bastion = await startSimulator();
  bastion.run("/ip ssh set forwarding-enabled=local");
  const sim = await startSimulator();
  sim.run("/ip address add address=10.9.0.1/24 interface=ether1");
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--jump",
    `admin@${bastion.host}:${bastion.port}`,
  ]);
  try {
    assert.ok(addresses(await callTool(session, LIST)).includes("10.9.0.1/24"));
    assert.deepEqual([bastion.counters.connections, sim.counters.connections], [1, 1]);
  } finally {
    await session.close();
    await Promise.all([bastion.close(), sim.close()]);
  }
});

Deno.test("jump router: the device's own host key is checked end to end, and each key is recorded under its own host:port", async () => {
  const bastion = await startSimulator();
  bastion.run("/ip ssh set forwarding-enabled=local");
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "jump-known-hosts-" });
  const knownHosts = `${dir}/known_hosts`;
  const inventory = (pin?: string) =>
    JSON.stringify([
      { title: "edge", host: bastion.host, port: bastion.port, bastion_only: true },
      { title: "R1", host: sim.host, port: sim.port, jump: "edge", host_key: pin },
    ]);
  const wrong = await serveInProcess(["--known-hosts", knownHosts], {
    ROUTER_INVENTORY: inventory("SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M"),
  });
  try {
    const r = await callTool(wrong, LIST, { device: "R1" });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      new RegExp(
        `failed: device "R1" \\(127\\.0\\.0\\.1:${sim.port} via bastion "edge"\\): host key mismatch`,
      ),
    );
  } finally {
    await wrong.close();
  }
  const session = await serveInProcess(["--known-hosts", knownHosts], {
    ROUTER_INVENTORY: inventory(),
  });
  try {
    addresses(await callTool(session, LIST, { device: "R1" }));
    const hosts = (await Deno.readTextFile(knownHosts)).trim().split("\n").map((l) =>
      l.split(" ")[0]
    );
    assert.deepEqual(
      hosts.sort(),
      [`[127.0.0.1]:${bastion.port}`, `[127.0.0.1]:${sim.port}`].sort(),
    );
  } finally {
    await session.close();
    await Promise.all([bastion.close(), sim.close()]);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jump router: a device slow behind its bastion times out on its own connect_timeout, naming it", async () => {
  const bastion = await startSimulator();
  bastion.run("/ip ssh set forwarding-enabled=local");
  const sim = await startSimulator({ faults: { slowHandshakeMs: 3000 } });
  const session = await serveInProcess([], {
    ROUTER_INVENTORY: JSON.stringify([
      { title: "edge", host: bastion.host, port: bastion.port, bastion_only: true },
      { title: "R1", host: sim.host, port: sim.port, jump: "edge", connect_timeout: 0.3 },
    ]),
  });
  try {
    const started = performance.now();
    const r = await callTool(session, LIST, { device: "R1" });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      new RegExp(
        `failed: device "R1" \\(127\\.0\\.0\\.1:${sim.port} via bastion "edge"\\): connection ` +
          `timed out after 0\\.3 s`,
      ),
    );
    assert.ok(performance.now() - started < 2500, "not the slow handshake's 3 s");
  } finally {
    await session.close();
    await Promise.all([bastion.close(), sim.close()]);
  }
});

/**
 * TCP_NODELAY is on for every SSH socket: the product's (pooled connections
 * and login probes; lib/ssh connects directly only, it has no jump host or
 * proxy command) and the simulator's. Without it every exec waits on
 * Nagle's algorithm (~40-85 ms on loopback). Read from the kernel with
 * getsockopt(2) on the process's own sockets, through FFI; skipped (with the
 * reason printed) where that is not possible.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

const IPPROTO_TCP = 6;
const TCP_NODELAY = 1;

interface TcpSocketInfo {
  fd: number;
  localPort: number;
  peerPort: number;
  noDelay: boolean;
}

/** Why the check cannot run here, or null. */
function unavailable(): string | null {
  if (Deno.build.os !== "linux") return "getsockopt through /proc/self/fd needs Linux";
  try {
    Deno.dlopen("libc.so.6", {}).close();
  } catch (err) {
    return `libc.so.6 cannot be loaded (${(err as Error).message})`;
  }
  return null;
}

/** Every connected TCP socket of this process (IPv4 or IPv6), with TCP_NODELAY as set. */
function tcpSockets(): TcpSocketInfo[] {
  const libc = Deno.dlopen("libc.so.6", {
    getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
    getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
    getpeername: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  });
  const port = (fn: "getsockname" | "getpeername", fd: number): number | null => {
    const addr = new Uint8Array(128);
    const len = new Uint32Array([addr.length]);
    if (libc.symbols[fn](fd, addr, new Uint8Array(len.buffer)) !== 0) return null;
    const family = addr[0] | (addr[1] << 8);
    // AF_INET = 2, AF_INET6 = 10: the port is at bytes 2-3, big-endian, in both.
    if (family !== 2 && family !== 10) return null;
    return (addr[2] << 8) | addr[3];
  };
  const out: TcpSocketInfo[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc/self/fd")) {
      const fd = Number(entry.name);
      let link: string;
      try {
        link = Deno.readLinkSync(`/proc/self/fd/${fd}`);
      } catch {
        continue;
      }
      if (!link.startsWith("socket:")) continue;
      const localPort = port("getsockname", fd);
      const peerPort = port("getpeername", fd);
      if (localPort === null || peerPort === null) continue;
      const value = new Int32Array(1);
      const len = new Uint32Array([4]);
      const rc = libc.symbols.getsockopt(
        fd,
        IPPROTO_TCP,
        TCP_NODELAY,
        new Uint8Array(value.buffer),
        new Uint8Array(len.buffer),
      );
      if (rc !== 0) continue;
      out.push({ fd, localPort, peerPort, noDelay: value[0] !== 0 });
    }
  } finally {
    libc.close();
  }
  return out;
}

function target(port: number): SshTarget {
  return {
    title: "R1",
    host: "127.0.0.1",
    port,
    username: "admin",
    password: "",
    connectTimeoutMs: 10_000,
    commandTimeoutMs: 10_000,
  };
}

const why = unavailable();
if (why) console.log(`ssh_nodelay: skipped: ${why}`);

Deno.test({
  name: "nodelay: pooled connections and the simulator's sockets have TCP_NODELAY on",
  ignore: why !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sim = await startSimulator();
    const pool = new SshPool({ hostKeyPolicy: "off" });
    try {
      await pool.exec(target(sim.port), ":put ok", { idempotent: true, what: "test" });
      const sockets = tcpSockets();
      const client = sockets.filter((s) => s.peerPort === sim.port);
      const server = sockets.filter((s) => s.localPort === sim.port);
      assert.equal(
        client.length,
        1,
        `one client socket to the simulator: ${JSON.stringify(sockets)}`,
      );
      assert.equal(server.length, 1, `one simulator socket: ${JSON.stringify(sockets)}`);
      assert.equal(client[0].noDelay, true, "the product's SSH socket has TCP_NODELAY off");
      assert.equal(server[0].noDelay, true, "the simulator's SSH socket has TCP_NODELAY off");
    } finally {
      await pool.close();
      await sim.close();
    }
  },
});

Deno.test({
  name: "nodelay: a login probe's socket has TCP_NODELAY on during the handshake",
  ignore: why !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // The simulator holds the SSH identification back for 400 ms: the probe's
    // socket is connected, and still in its handshake, when it is read.
    const sim = await startSimulator({ faults: { slowHandshakeMs: 400 } });
    const pool = new SshPool({ hostKeyPolicy: "off" });
    try {
      const probing = pool.probe(target(sim.port));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const client = tcpSockets().filter((s) => s.peerPort === sim.port);
      await probing;
      assert.equal(client.length, 1, "the probe's socket was not found");
      assert.equal(client[0].noDelay, true, "the probe's SSH socket has TCP_NODELAY off");
    } finally {
      await pool.close();
      await sim.close();
    }
  },
});

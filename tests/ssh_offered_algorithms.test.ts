/**
 * What lib/ssh/algorithms.ts says this server's SSH client offers is what
 * its handshake negotiates: a server with none of those ciphers (the CBC
 * ones RouterOS 7.20's `ciphers` can leave) is refused, a server with one of
 * them is not. The lock-out guard compares `/ip ssh` settings with these
 * lists (lib/tools/guard/lockout_ssh_login.ts). The handshake also says how
 * it logged in, which the guard's password and key rules read.
 */
import assert from "node:assert/strict";
import { Server } from "../lib/sim/ssh2.ts";
import { sharedHostKey } from "../lib/sim/hostkey.ts";
import { offeredAlgorithms } from "../lib/ssh/algorithms.ts";
import { HostKeyVerifier } from "../lib/ssh/host_key_policy.ts";
import { handshake } from "../lib/ssh/handshake.ts";
import { SshError } from "../lib/ssh/errors.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** A bare ssh2 server with these ciphers that takes any password. */
async function serverWith(cipher: string[]): Promise<{ port: number; close(): void }> {
  const server = new Server(
    // deno-lint-ignore no-explicit-any
    { hostKeys: [sharedHostKey()], algorithms: { cipher: cipher as any } },
    (client) => {
      client.on("error", () => {});
      client.on("authentication", (ctx) => ctx.method === "password" ? ctx.accept() : ctx.reject());
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => server.close(),
  };
}

function target(port: number): SshTarget {
  return {
    title: "R1",
    host: "127.0.0.1",
    port,
    username: "admin",
    password: "x",
    connectTimeoutMs: 5_000,
    commandTimeoutMs: 5_000,
  };
}

async function connect(port: number) {
  const t = target(port);
  return await handshake(t, 0, await new HostKeyVerifier("off").prepare(t), undefined);
}

Deno.test({
  name: "ssh offered algorithms: GCM and CTR, no CBC; a CBC-only server is refused",
  ...opts,
  fn: async () => {
    const offered = await offeredAlgorithms();
    assert.ok(offered.cipher.includes("aes128-gcm@openssh.com"), offered.cipher.join());
    assert.ok(offered.cipher.includes("aes256-ctr"), offered.cipher.join());
    assert.ok(!offered.cipher.some((c) => /cbc|^none$/.test(c)), offered.cipher.join());
    assert.ok(offered.serverHostKey.includes("ssh-ed25519"));
    assert.ok(offered.kex.length > 0 && offered.mac.length > 0);

    const cbc = await serverWith(["aes128-cbc", "aes256-cbc", "3des-cbc"]);
    try {
      const err = await connect(cbc.port).then(() => undefined, (e) => e);
      assert.ok(err instanceof SshError, String(err));
      assert.match(err.message, /no algorithm in common with this client/);
    } finally {
      cbc.close();
    }
    for (const cipher of ["aes256-ctr", "aes256-gcm@openssh.com"]) {
      assert.ok(offered.cipher.includes(cipher));
      const server = await serverWith([cipher]);
      try {
        const { client, socket, login } = await connect(server.port);
        assert.equal(login, "password");
        client.end();
        socket.destroy();
      } finally {
        server.close();
      }
    }
  },
});

/**
 * The private fields of ssh2 that the product (lib/ssh/ssh2_internals.ts)
 * and the simulator (lib/sim/ssh2.ts) rely on are still there and still
 * behave as expected. When an ssh2 upgrade changes them, this fails with a
 * message naming the field and the ssh2 version, instead of the product
 * quietly falling back to two round trips per command.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { Server } from "../lib/sim/ssh2.ts";
import { closeIdleSession, missingSessionInternals } from "../lib/sim/ssh2.ts";
import { sharedHostKey } from "../lib/sim/hostkey.ts";
import { HostKeyVerifier } from "../lib/ssh/host_key_policy.ts";
import { handshake } from "../lib/ssh/handshake.ts";
import type { ClientChannel } from "../lib/ssh/ssh2.ts";
import {
  channelCloseSource,
  channelDestroySource,
  channelIsOpen,
  deferCloseReply,
  keepaliveResetByPingsOnly,
  missingChannelInternals,
  missingClientInternals,
  openSessionChannel,
  requestExec,
  SSH2_CHANNEL_CLOSE_SOURCE,
  SSH2_CHANNEL_DESTROY_SOURCE,
  ssh2Version,
} from "../lib/ssh/ssh2_internals.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

function changed(fields: string[], file: string, what: string): string {
  return `ssh2 ${ssh2Version()} no longer has ${fields.join(", ")}, which ${file} uses ${what}; ` +
    `update ${file} for this ssh2 version`;
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

Deno.test({
  name: "ssh2 internals: the fields lib/ssh/ssh2_internals.ts uses are there",
  ...opts,
  fn: async () => {
    const sim = await startSimulator();
    const t = target(sim.port);
    const check = await new HostKeyVerifier("off").prepare(t);
    const { client, socket } = await handshake(t, 0, check, undefined);
    try {
      const file = "lib/ssh/ssh2_internals.ts";
      assert.deepEqual(
        missingClientInternals(client),
        [],
        changed(missingClientInternals(client), file, "to pre-open session channels"),
      );
      const ch: ClientChannel = await openSessionChannel(client);
      assert.deepEqual(
        missingChannelInternals(ch),
        [],
        changed(missingChannelInternals(ch), file, "to send exec requests on pre-opened channels"),
      );
      assert.equal(channelIsOpen(ch), true, changed(["Channel.*.state"], file, "to tell open"));
      assert.equal(
        keepaliveResetByPingsOnly(client),
        true,
        changed(["Client._resetKA"], file, "to keep two timers off every exec"),
      );
      assert.equal(
        channelDestroySource(ch),
        SSH2_CHANNEL_DESTROY_SOURCE,
        `ssh2 ${ssh2Version()} changed Channel.prototype.destroy (now ` +
          `${channelDestroySource(ch)}); ${file} replaces it on exec channels to skip a ` +
          `redundant end(): check that skipRedundantEnd still does what the new one does, ` +
          `then update SSH2_CHANNEL_DESTROY_SOURCE`,
      );
      assert.equal(
        channelCloseSource(ch),
        SSH2_CHANNEL_CLOSE_SOURCE,
        `ssh2 ${ssh2Version()} changed Channel.prototype.close (now ${channelCloseSource(ch)}); ` +
          `${file} stands in front of it on exec channels to send the answer to the router's ` +
          "close later: check that deferCloseReply still does what the new one does, then " +
          "update SSH2_CHANNEL_CLOSE_SOURCE",
      );
      // The request path works end to end on the pre-opened channel, and the
      // answer to the router's close is handed over, not sent.
      const replies: (() => void)[] = [];
      assert.equal(deferCloseReply(ch, (send) => replies.push(send)), true);
      const out: Uint8Array[] = [];
      ch.on("data", (d: Uint8Array) => out.push(d));
      const closed = new Promise((resolve) => ch.once("close", resolve));
      const accepted = await new Promise<string>((resolve) =>
        requestExec(ch, ":put ok", (err) => resolve(err ? err.message : "accepted"))
      );
      assert.equal(accepted, "accepted", `ssh2 ${ssh2Version()}: the exec request failed`);
      await closed;
      assert.equal(new TextDecoder().decode(out[0]), "ok\r\n");
      assert.equal(replies.length, 1, "the close answer was handed to the connection");
      assert.equal(channelIsOpen(ch), false);
      // Sent later, it is a valid close: the connection keeps working.
      replies[0]();
      const next: ClientChannel = await openSessionChannel(client);
      const again = await new Promise<string>((resolve) =>
        requestExec(next, ":put again", (err) => resolve(err ? err.message : "accepted"))
      );
      assert.equal(again, "accepted");
    } finally {
      client.end();
      socket.destroy();
      await sim.close();
    }
  },
});

Deno.test({
  name: "ssh2 internals: the fields lib/sim/ssh2.ts uses to close idle sessions are there",
  ...opts,
  fn: async () => {
    // A bare ssh2 server whose session handler checks the fields, then
    // closes the session the way the simulator's closeIdleChannels fault does.
    let missing: string[] | null = null;
    const server = new Server({ hostKeys: [sharedHostKey()] }, (client) => {
      client.on("authentication", (ctx) => ctx.accept());
      client.on("session", (accept) => {
        const s = accept();
        missing = missingSessionInternals(client, s);
        if (missing.length === 0) closeIdleSession(client, s);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const t = target(port);
    const check = await new HostKeyVerifier("off").prepare(t);
    const { client, socket } = await handshake(t, 0, check, undefined);
    try {
      const ch = await openSessionChannel(client);
      ch.resume();
      await new Promise((resolve) => ch.once("close", resolve));
      assert.deepEqual(
        missing,
        [],
        changed(missing ?? [], "lib/sim/ssh2.ts", "to close idle session channels"),
      );
      assert.equal(channelIsOpen(ch), false);
    } finally {
      client.end();
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  },
});

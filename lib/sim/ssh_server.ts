/**
 * The SSH side of a simulated router: a `node:net` listener (TCP_NODELAY on
 * every socket, without which every exec waits on Nagle's algorithm; writes
 * gathered per tick, so packets leave whole and not in ssh2's three pieces
 * each) whose sockets are handed to an ssh2 `Server`. Only exec channels run commands
 * (the `sftp` subsystem serves `/file`, see `sftp.ts`);
 * sessions may be opened and left idle until their exec request arrives.
 * Faults (latency, hangs, drops, refused auth, slow handshake, idle-channel
 * closing) are read live from the router on every event. A peer that
 * `/ip service ssh address=` leaves out is accepted and closed at once,
 * before the banner, as RouterOS does.
 *
 * Port forwarding: a client's `direct-tcpip` channel (what `ssh -L` and
 * `ssh -J` open) is connected to the host and port it names when
 * `/ip ssh forwarding-enabled` is `local` or `both` (`no` by default,
 * `remote` being for the other direction: the values of the 7.12.2 to 7.24
 * trees and of MikroTik's SSH page; 6.49, without a tree, is simulated
 * alike), and refused as administratively prohibited otherwise, as OpenSSH
 * refuses it under `AllowTcpForwarding no` (the reason code a real router
 * sends was not checked against one).
 *
 * @module
 */
import net from "node:net";
import type { RouterCore } from "./router.ts";
import type { RouterState } from "./state.ts";
import { network4, parseIp4, parsePrefix4 } from "./ipaddr.ts";
import { keyCheck, passwordOk } from "./auth.ts";
import { serveSftp } from "./sftp.ts";
import { batchWrites } from "../ssh/write_batching.ts";
import {
  type AuthContext,
  type ClientInfo,
  closeIdleSession,
  type Connection,
  Server,
  type ServerChannel,
} from "./ssh2.ts";

/**
 * Whether `/ip service` lets `address` reach the ssh service: its `address`
 * list (IPv4 prefixes, comma-separated) is empty or holds it. Addresses of
 * other families are let through.
 */
function sshAllowed(st: RouterState, address: string | undefined): boolean {
  const ssh = st.items("/ip/service").find((s) => s.name === "ssh");
  const list = String(ssh?.address ?? "").split(",").filter(Boolean);
  const peer = parseIp4((address ?? "").replace(/^::ffff:/, ""));
  if (!list.length || peer === null) return true;
  return list.some((entry) => {
    const p = parsePrefix4(entry);
    return p !== null && network4(peer, p.len) === network4(p.ip, p.len);
  });
}

/** Whether `/ip ssh forwarding-enabled` lets clients open connections from the router. */
function localForwarding(st: RouterState): boolean {
  const value = st.items("/ip/ssh")[0]?.["forwarding-enabled"];
  return value === "local" || value === "both";
}

/**
 * Make ssh2 refuse `direct-tcpip` channels as administratively prohibited
 * while `allowed()` is false. ssh2 emits `tcpip` only when the connection
 * has listeners for it, and refuses with that reason otherwise; the
 * `reject` it hands a listener can only say "connect failed".
 */
function tcpipOnlyWhen(client: Connection, allowed: () => boolean): void {
  const count = client.listenerCount.bind(client);
  client.listenerCount =
    ((name: string | symbol) =>
      name === "tcpip" && !allowed() ? 0 : count(name)) as typeof client.listenerCount;
}

/** Key of a socket by its peer, as ssh2 reports it in ClientInfo. */
function peerKey(address: string | undefined, port: number | undefined): string {
  return `${address}|${port}`;
}

/** A listening SSH endpoint for one router. */
export class SshListener {
  private tcp: net.Server;
  private ssh: Server | null = null;
  private sockets = new Set<net.Socket>();
  /** Outgoing connections of forwarded channels. */
  private forwards = new Set<net.Socket>();
  /** Accepted sockets by peer address and port, until ssh2 reports the client. */
  private byPeer = new Map<string, net.Socket>();
  private timers = new Set<ReturnType<typeof setTimeout>>();
  port = 0;

  constructor(private core: RouterCore, private hostKey: () => string) {
    this.tcp = net.createServer((sock) => this.accept(sock));
    core.dropConnections = () => {
      for (const s of this.sockets) s.destroy();
    };
  }

  /** Starts listening; resolves with the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onErr = (e: Error) => reject(e);
      this.tcp.once("error", onErr);
      this.tcp.listen(port, host, () => {
        this.tcp.off("error", onErr);
        const a = this.tcp.address();
        this.port = typeof a === "object" && a ? a.port : port;
        resolve(this.port);
      });
    });
  }

  /** Uses a new host key for later connections. */
  resetHostKey(): void {
    this.ssh = null;
  }

  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    this.timers.add(t);
  }

  private server(): Server {
    if (!this.ssh) {
      this.ssh = new Server(
        { hostKeys: [this.hostKey()], ident: "ROSSSH" },
        (client, info) => this.onClient(client, info),
      );
    }
    return this.ssh;
  }

  private accept(sock: net.Socket): void {
    sock.setNoDelay(true);
    batchWrites(sock);
    this.core.counters.connections++;
    if (!sshAllowed(this.core.state(), sock.remoteAddress)) {
      // As RouterOS does: the connection is accepted and closed before any banner.
      sock.on("error", () => {});
      sock.destroy();
      return;
    }
    this.sockets.add(sock);
    const peer = peerKey(sock.remoteAddress, sock.remotePort);
    this.byPeer.set(peer, sock);
    sock.on("close", () => {
      this.sockets.delete(sock);
      if (this.byPeer.get(peer) === sock) this.byPeer.delete(peer);
    });
    sock.on("error", () => {});
    const ms = this.core.faults.slowHandshakeMs;
    const srv = this.server();
    if (ms > 0) this.later(ms, () => !sock.destroyed && srv.injectSocket(sock));
    else srv.injectSocket(sock);
  }

  private onClient(client: Connection, info: ClientInfo): void {
    const core = this.core;
    const peer = peerKey(info.ip, info.port);
    const sock = this.byPeer.get(peer);
    if (!sock) {
      client.end();
      return;
    }
    this.byPeer.delete(peer);
    let user = "";
    let commandsHere = 0;
    const session = {
      id: "",
      name: "",
      address: info?.ip ?? "127.0.0.1",
      via: "ssh",
      when: "",
      end: () => sock.destroy(),
    };
    client.on("error", () => {});
    client.on("authentication", (ctx: AuthContext) => {
      const st = core.state();
      const refuse = () => {
        core.counters.authFailures++;
        ctx.reject(["publickey", "password"]);
      };
      if (core.faults.refuseAuth) return refuse();
      if (ctx.method === "password") {
        if (passwordOk(st, ctx.username, ctx.password)) {
          user = ctx.username;
          return ctx.accept();
        }
        return refuse();
      }
      if (ctx.method === "publickey") {
        const r = keyCheck(st, ctx.username, {
          algo: ctx.key.algo,
          data: ctx.key.data,
          signature: ctx.signature,
          blob: ctx.blob,
          hashAlgo: ctx.hashAlgo,
        });
        if (r === "query") return ctx.accept();
        if (r === "ok") {
          user = ctx.username;
          return ctx.accept();
        }
        return refuse();
      }
      if (ctx.method === "keyboard-interactive") {
        return ctx.prompt([{ prompt: "Password: ", echo: false }], (answers) => {
          if (passwordOk(st, ctx.username, answers[0] ?? "")) {
            user = ctx.username;
            ctx.accept();
          } else refuse();
        });
      }
      ctx.reject(["publickey", "password", "keyboard-interactive"]);
    });
    client.on("ready", () => {
      const st = core.state();
      session.name = user.split("+")[0];
      session.when = st.nowText();
      session.id = core.newSessionId();
      core.active.add(session);
      st.log(
        "system,info,account",
        `user ${session.name} logged in from ${session.address} via ssh`,
      );
    });
    client.on("close", () => {
      if (core.active.delete(session)) {
        core.state().log(
          "system,info,account",
          `user ${session.name} logged out from ${session.address} via ssh`,
        );
      }
    });
    tcpipOnlyWhen(client, () => localForwarding(core.state()));
    client.on("tcpip", (accept, reject, info) => {
      const out = net.connect({ host: info.destIP, port: info.destPort });
      this.forwards.add(out);
      out.setNoDelay(true);
      let channel: ServerChannel | undefined;
      out.once("connect", () => {
        try {
          channel = accept();
        } catch {
          // The client went away while the connection was being made.
          out.destroy();
          return;
        }
        channel.on("error", () => {});
        channel.pipe(out);
        out.pipe(channel);
        channel.on("close", () => out.destroy());
      });
      out.on("error", () => {
        if (!channel) reject();
      });
      out.on("close", () => {
        this.forwards.delete(out);
        channel?.end();
      });
    });
    client.on("session", (accept) => {
      const s = accept();
      core.counters.sessionChannels++;
      let requested = false;
      if (core.faults.closeIdleSessionChannels) {
        this.later(core.faults.idleSessionCloseMs, () => {
          if (requested || sock.destroyed) return;
          try {
            closeIdleSession(client, s);
          } catch { /* connection gone */ }
        });
      }
      // ssh2 passes no accept/reject when the client wants no reply.
      s.on("pty", (acc?: () => void) => {
        requested = true;
        acc?.();
      });
      s.on("env", (acc?: () => void) => {
        requested = true;
        acc?.();
      });
      s.on("shell", (_acc: unknown, reject?: () => void) => {
        requested = true;
        reject?.();
      });
      s.on("sftp", (acc) => {
        requested = true;
        serveSftp(acc(), () => core.state(), { faults: () => core.faults });
      });
      s.on("subsystem", (_acc: unknown, reject?: () => void) => {
        requested = true;
        reject?.();
      });
      s.on("exec", (acc, _rej, req) => {
        requested = true;
        core.counters.execChannels++;
        commandsHere++;
        const ch: ServerChannel = acc();
        const f = core.faults;
        core.counters.commands++;
        core.opts.onCommand?.(req.command);
        if (f.dropAfterCommands > 0 && commandsHere >= f.dropAfterCommands) {
          sock.destroy();
          return;
        }
        const hang = f.hang === true || (f.hang instanceof RegExp && f.hang.test(req.command));
        if (hang) return;
        const answer = () => {
          if (sock.destroyed) return;
          let res;
          try {
            res = core.exec(req.command, user);
          } catch (e) {
            res = { output: `failure: ${e instanceof Error ? e.message : e}\r\n`, exitCode: 1 };
          }
          if (f.garble) res = { ...res, output: f.garble(req.command, res.output) };
          const { output, exitCode } = res;
          const reply = () => {
            try {
              if (output) ch.write(output);
              ch.exit(exitCode);
              ch.end();
            } catch { /* channel closed by the client */ }
          };
          // A command that runs for a while (a torch, a bandwidth test)
          // answers when it ends, unless the client stops it first by
          // closing its channel.
          const runMs = (res.runMs ?? 0) * (core.opts.timeScale ?? 1);
          if (runMs <= 0) return reply();
          let stopped = false;
          // The client's close ends the channel's input: read it so that `close` follows.
          ch.resume();
          ch.once("close", () => {
            if (stopped) return;
            stopped = true;
            core.counters.interrupted++;
          });
          if (runMs === Infinity) return;
          this.later(runMs, () => {
            if (stopped) return;
            stopped = true;
            reply();
          });
        };
        if (f.latencyMs > 0) this.later(f.latencyMs, answer);
        else answer();
      });
    });
  }

  /** Closes the listener and every connection. */
  close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    for (const s of this.forwards) s.destroy();
    this.forwards.clear();
    return new Promise((resolve) => this.tcp.close(() => resolve()));
  }
}

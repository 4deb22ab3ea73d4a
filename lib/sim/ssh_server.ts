/**
 * The SSH side of a simulated router: a `node:net` listener (TCP_NODELAY on
 * every socket, which makes an exec cost ~1 ms instead of ~88 ms) whose
 * sockets are handed to an ssh2 `Server`. Only exec channels run commands;
 * sessions may be opened and left idle until their exec request arrives.
 * Faults (latency, hangs, drops, refused auth, slow handshake, idle-channel
 * closing) are read live from the router on every event.
 */
import net from "node:net";
import ssh2 from "ssh2";
import type { RouterCore } from "./router.ts";
import { keyCheck, passwordOk } from "./auth.ts";
const { Server } = ssh2;

/** A listening SSH endpoint for one router. */
export class SshListener {
  private tcp: net.Server;
  private ssh: InstanceType<typeof Server> | null = null;
  private sockets = new Set<net.Socket>();
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

  private server(): InstanceType<typeof Server> {
    if (!this.ssh) {
      this.ssh = new Server(
        { hostKeys: [this.hostKey()], ident: "ROSSSH" },
        (client: unknown, info: unknown) => {
          this.onClient(client, info);
        },
      );
    }
    return this.ssh;
  }

  private accept(sock: net.Socket): void {
    sock.setNoDelay(true);
    this.core.counters.connections++;
    this.sockets.add(sock);
    sock.on("close", () => this.sockets.delete(sock));
    sock.on("error", () => {});
    const ms = this.core.faults.slowHandshakeMs;
    const srv = this.server();
    if (ms > 0) this.later(ms, () => !sock.destroyed && srv.injectSocket(sock));
    else srv.injectSocket(sock);
  }

  private onClient(client: any, info: any): void {
    const core = this.core;
    const sock: net.Socket = client._sock;
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
    client.on("authentication", (ctx: any) => {
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
        return ctx.prompt([{ prompt: "Password: ", echo: false }], (answers: string[]) => {
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
    client.on("session", (accept: () => any) => {
      const s = accept();
      core.counters.sessionChannels++;
      let requested = false;
      if (core.faults.closeIdleSessionChannels) {
        this.later(100, () => {
          if (requested || sock.destroyed) return;
          try {
            s._chanInfo.outgoing.state = "closed";
            client._protocol.channelClose(s._chanInfo.outgoing.id);
          } catch { /* connection gone */ }
        });
      }
      s.on("pty", (acc: (() => void) | undefined) => {
        requested = true;
        acc?.();
      });
      s.on("env", (acc: (() => void) | undefined) => {
        requested = true;
        acc?.();
      });
      s.on("shell", (_acc: unknown, reject: (() => void) | undefined) => {
        requested = true;
        reject?.();
      });
      s.on("subsystem", (_acc: unknown, reject: (() => void) | undefined) => {
        requested = true;
        reject?.();
      });
      s.on("exec", (acc: () => any, _rej: unknown, req: { command: string }) => {
        requested = true;
        core.counters.execChannels++;
        commandsHere++;
        const ch = acc();
        const f = core.faults;
        core.counters.commands++;
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
          try {
            if (res.output) ch.write(res.output);
            ch.exit(res.exitCode);
            ch.end();
          } catch { /* channel closed by the client */ }
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
    return new Promise((resolve) => this.tcp.close(() => resolve()));
  }
}

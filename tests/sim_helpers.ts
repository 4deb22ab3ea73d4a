/**
 * Test helpers for the RouterOS simulator: a small ssh2 client that runs exec
 * commands against a simulated router and collects stdout, stderr and the
 * exit status.
 */
import ssh2 from "ssh2";
import type { SimRouter } from "../lib/sim/mod.ts";
const { Client } = ssh2;

/** Result of one exec over SSH. */
export interface ExecOut {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** How to log in. */
export interface Login {
  username?: string;
  password?: string;
  privateKey?: string;
}

/** An open SSH connection to a simulated router. */
export class SshConn {
  private constructor(readonly client: InstanceType<typeof Client>) {}

  /** Connects and authenticates. */
  static open(r: { host: string; port: number }, login: Login = {}): Promise<SshConn> {
    return new Promise((resolve, reject) => {
      const c = new Client();
      c.on("ready", () => resolve(new SshConn(c)));
      c.on("error", reject);
      c.connect({
        host: r.host,
        port: r.port,
        username: login.username ?? "admin",
        password: login.privateKey ? undefined : (login.password ?? ""),
        privateKey: login.privateKey,
        readyTimeout: 5000,
        tryKeyboard: false,
      });
    });
  }

  /** Runs one exec command. */
  exec(command: string): Promise<ExecOut> {
    return new Promise((resolve, reject) => {
      this.client.exec(command, (err: Error | undefined, ch: any) => {
        if (err) return reject(err);
        let stdout = "";
        let stderr = "";
        let code: number | null = null;
        ch.on("data", (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
        ch.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
        ch.on("exit", (c: number | null) => (code = c));
        ch.on("close", () => resolve({ stdout, stderr, code }));
      });
    });
  }

  /** Closes the connection and waits until the socket is gone. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.client.once("close", () => resolve());
      this.client.end();
    });
  }
}

/** Connects, runs one command, disconnects. */
export async function sshExec(r: SimRouter, command: string, login: Login = {}): Promise<ExecOut> {
  const c = await SshConn.open(r, login);
  try {
    return await c.exec(command);
  } finally {
    await c.close();
  }
}

/** Lines of CRLF output, without the trailing empty line. */
export function lines(out: string): string[] {
  const l = out.split("\r\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

/** Fixed clock for deterministic dates. */
export const FIXED_NOW = () => new Date(Date.UTC(2024, 5, 26, 11, 42, 37));

/**
 * The floor: a bare `ssh2` client on a warm connection (its own socket with
 * TCP_NODELAY, no pool, no MCP), running a command with `Client.exec`.
 *
 * @module
 */
import net from "node:net";
import { Client, type ClientChannel } from "../lib/ssh/ssh2.ts";

/** A warm raw ssh2 connection. */
export interface RawSsh {
  /** Run a command on a new channel (ssh2's public exec) and return its output. */
  exec(command: string): Promise<string>;
  close(): Promise<void>;
}

/** Connect as `admin` with an empty password (the simulator's default user). */
export function openRawSsh(host: string, port: number): Promise<RawSsh> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    const client = new Client();
    const timer = setTimeout(() => {
      client.end();
      socket.destroy();
      reject(new Error(`raw ssh2: no connection to ${host}:${port} within 30 s`));
    }, 30_000);
    client.once("error", (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
    client.once("ready", () => {
      clearTimeout(timer);
      client.on("error", () => {});
      resolve({
        exec: (command) =>
          new Promise((res, rej) => {
            client.exec(command, (err: Error | undefined, ch: ClientChannel) => {
              if (err) return rej(err);
              const chunks: Uint8Array[] = [];
              ch.on("data", (d: Uint8Array) => chunks.push(d));
              ch.stderr.on("data", (d: Uint8Array) => chunks.push(d));
              ch.on("close", () => res(new TextDecoder().decode(concat(chunks))));
            });
          }),
        close: () =>
          new Promise((res) => {
            const t = setTimeout(() => {
              socket.destroy();
              res();
            }, 1000);
            socket.once("close", () => {
              clearTimeout(t);
              res();
            });
            client.end();
          }),
      });
    });
    client.connect({
      sock: socket,
      username: "admin",
      password: "",
      readyTimeout: 30_000,
      hostVerifier: () => true,
    });
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

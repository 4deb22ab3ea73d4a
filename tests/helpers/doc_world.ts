/**
 * What the documented examples run against: a HOME of their own, the
 * `mcp-server-router` command (this checkout's main.ts with the install
 * line's permissions), simulated routers that take the credentials an
 * example names (their host keys in known_hosts, as `--host-key-policy
 * strict` needs), a fleet of simulated routers titled as the docs title
 * theirs (core-1, edge-1, edge-2) with its inventory file, a keys file,
 * and the demo on streamable HTTP for a proxy entry that names a remote
 * server. Each example runs in a directory of its own that holds links to
 * the checkout's files, so `deno task demo` and `docs/examples/...` work.
 *
 * @module
 */
import { stringify } from "yaml";
import { hashKey } from "../../lib/auth/api_keys.ts";
import { type SimRouter, startSimulator } from "../../lib/sim/mod.ts";
import { generateHostKey } from "../../lib/sim/hostkey.ts";
import { parseKey } from "../../lib/sim/ssh2.ts";
import { knownHostsLine } from "../../lib/ssh/known_hosts.ts";
import { DENO, denoDir } from "./env.ts";

/** The checkout's files an example may name from its working directory. */
const LINKED = ["main.ts", "deno.json", "deno.lock", "lib", "docs", "scripts"];

/** A process the world started, stopped at the end. */
interface Stoppable {
  stop(): Promise<void>;
}

/** The fleet the docs name (`core-1`, tags `edge`). */
export const FLEET = [
  { title: "core-1", tags: ["core", "lab"] },
  { title: "edge-1", tags: ["edge"] },
  { title: "edge-2", tags: ["edge"] },
];

export class DocWorld {
  /** The admin key of `keysFile`. */
  readonly adminKey = crypto.randomUUID().replaceAll("-", "");
  readonly #hostKey = generateHostKey();
  readonly #routers = new Map<string, Promise<SimRouter>>();
  readonly #started: Stoppable[] = [];
  readonly #knownLines: string[] = [];
  #knownHosts: Promise<void> = Promise.resolve();
  #demo?: Promise<string>;
  #dirs = 0;

  private constructor(
    /** The checkout. */
    readonly root: string,
    /** Scratch space, removed at the end. */
    readonly tmp: string,
    /** The permissions of the documented install line. */
    readonly permissions: string[],
    /** The fleet's simulated routers. */
    readonly fleet: SimRouter[],
  ) {}

  /** A world for the checkout at `root`; `install` is the documented `deno install` line. */
  static async open(root: string, install: string): Promise<DocWorld> {
    const words = install.split(/\s+/);
    const permissions = words.filter((w) => /^--allow-/.test(w));
    const tmp = await Deno.makeTempDir({ prefix: "docs-examples-" });
    const fleet = await Promise.all(FLEET.map(() => startSimulator({ port: 0, uptime: 3600 })));
    const world = new DocWorld(root, tmp, permissions, fleet);
    await Deno.mkdir(`${tmp}/home/.config/mcp-server-router`, { recursive: true });
    await Deno.mkdir(`${tmp}/bin`);
    await Deno.writeTextFile(
      `${tmp}/bin/mcp-server-router`,
      `#!/bin/sh\nexec "${DENO}" run --quiet --config "${root}deno.json" ${
        permissions.join(" ")
      } "${root}main.ts" "$@"\n`,
      { mode: 0o755 },
    );
    await Deno.writeTextFile(world.inventoryFile, stringify(world.fleetInventory()));
    await Deno.writeTextFile(
      world.keysFile,
      stringify({ keys: [{ name: "docs-admin", hash: hashKey(world.adminKey), role: "admin" }] }),
    );
    return world;
  }

  /** The environment every example gets (plus what it sets itself). */
  get env(): Record<string, string> {
    const denoBin = DENO.slice(0, DENO.lastIndexOf("/"));
    return {
      PATH: `${this.tmp}/bin:${denoBin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: `${this.tmp}/home`,
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
    };
  }

  /** The fleet's inventory (`inventory.yaml` of the examples). */
  get inventoryFile(): string {
    return `${this.tmp}/inventory.yaml`;
  }

  /** A keys file with one admin key (`/etc/mcp-server-router/keys.yaml` of the examples). */
  get keysFile(): string {
    return `${this.tmp}/keys.yaml`;
  }

  /** The fleet as inventory entries, pinned host keys included. */
  fleetInventory() {
    return this.fleet.map((r, i) => ({
      title: FLEET[i].title,
      host: r.host,
      port: r.port,
      username: "admin",
      tags: FLEET[i].tags,
      host_key: r.hostKeyFingerprint(),
    }));
  }

  /** A simulated router on which `user` logs in with `password` (one per pair, kept). */
  routerFor(user: string, password: string): Promise<SimRouter> {
    const key = JSON.stringify([user, password]);
    let router = this.#routers.get(key);
    if (!router) {
      router = (async () => {
        const started = await startSimulator({
          port: 0,
          hostKey: this.#hostKey,
          users: [{ name: user, password, group: "full" }],
        });
        // One writer at a time: the file is replaced whole, never seen half written.
        await (this.#knownHosts = this.#knownHosts.then(() => this.#addKnownHost(started)));
        return started;
      })();
      this.#routers.set(key, router);
    }
    return router;
  }

  /** Add a router's key to known_hosts in HOME, as an operator who pinned it has it. */
  async #addKnownHost(router: SimRouter): Promise<void> {
    const key = parseKey(this.#hostKey);
    if (key instanceof Error) throw key;
    this.#knownLines.push(
      knownHostsLine(router.host, router.port, new Uint8Array(key.getPublicSSH())),
    );
    const path = `${this.tmp}/home/.config/mcp-server-router/known_hosts`;
    await Deno.writeTextFile(`${path}.new`, this.#knownLines.join("\n") + "\n");
    await Deno.rename(`${path}.new`, path);
  }

  /** The URL of the demo on streamable HTTP (started once). */
  httpDemo(): Promise<string> {
    return this.#demo ??= (async () => {
      const child = new Deno.Command(`${this.tmp}/bin/mcp-server-router`, {
        args: [
          "--simulate",
          "--mcp.transport",
          "streamable-http",
          "--mcp.host",
          "127.0.0.1",
          "--mcp.port",
          "0",
        ],
        env: this.env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      this.#started.push({
        stop: async () => {
          child.kill("SIGTERM");
          await child.status;
        },
      });
      const url = await lineOf(child.stderr, /listening on (http:\/\/\S+\/mcp)/);
      return url.replace("0.0.0.0", "127.0.0.1");
    })();
  }

  /** A fresh working directory holding links to the checkout's files. */
  async workDir(): Promise<string> {
    const dir = `${this.tmp}/work-${++this.#dirs}`;
    await Deno.mkdir(dir);
    for (const name of LINKED) await Deno.symlink(`${this.root}${name}`, `${dir}/${name}`);
    await Deno.copyFile(this.inventoryFile, `${dir}/inventory.yaml`);
    return dir;
  }

  /** Stop what was started and remove the scratch space. */
  async close(): Promise<void> {
    await Promise.all(this.#started.map((s) => s.stop()));
    const routers = await Promise.allSettled(this.#routers.values());
    await Promise.all([
      ...routers.flatMap((r) => r.status === "fulfilled" ? [r.value.close()] : []),
      ...this.fleet.map((r) => r.close()),
    ]);
    await Deno.remove(this.tmp, { recursive: true }).catch(() => {});
  }
}

/**
 * The first group of `pattern` in a stream of text, read as it comes; the
 * rest of the stream is drained in the background. Rejects when the stream
 * ends first, with what it said.
 */
export async function lineOf(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
  seen: (text: string) => void = () => {},
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ended before ${pattern}: ${text}`);
    text += decoder.decode(value, { stream: true });
    seen(text);
    const m = pattern.exec(text);
    if (m) {
      (async () => {
        for (;;) {
          const next = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (next.done) return;
          text += decoder.decode(next.value, { stream: true });
          seen(text);
        }
      })();
      return m[1];
    }
  }
}

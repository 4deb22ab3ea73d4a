/**
 * `mcp-server-router sim`: starts N simulated routers on consecutive loopback
 * ports, prints a ready-to-use inventory (YAML, with the `host_key` pin) on
 * stdout and how to connect on stderr, and runs until SIGINT/SIGTERM. The
 * host key is kept in a file (`--host-key-file`, by default next to the
 * `--state-file`), so a restarted simulator keeps its identity. With
 * `--stdio-cli` it instead runs one command line (from
 * `SSH_ORIGINAL_COMMAND` or stdin) against a state file and exits, so a real
 * OpenSSH `sshd` can serve it through `ForceCommand`.
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { stringify } from "yaml";
import { HostKeyFileError, type SimRouter, startFleet } from "./mod.ts";
import { RouterCore } from "./router.ts";
import { compareReleases, parseRelease, release } from "../routeros/release.ts";
import { DEFAULT_SIM_VERSION, defaultFaults, type SimFaults, type SimVersion } from "./types.ts";

/** The oldest release the simulator imitates. */
const OLDEST = release("6.49");

const VERSIONS = ["6.49.13", "7.12.2", "7.15.3", "7.16.2", "7.17", "7.20.8", "7.24"];

const MAX_PORT = 65535;

function intArg(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError("expected a whole number (0 or more)");
  }
  return n;
}

function devicesArg(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || n < 1 || n > MAX_PORT) {
    throw new InvalidArgumentError(`--devices must be a whole number from 1 to ${MAX_PORT}`);
  }
  return n;
}

function portArg(flag: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || n > MAX_PORT) {
      throw new InvalidArgumentError(
        `${flag} must be a whole number from 0 to ${MAX_PORT} (0 picks a free port)`,
      );
    }
    return n;
  };
}

/** Default host key file for a state file. */
export function hostKeyFileFor(stateFile: string): string {
  return `${stateFile}.host_key`;
}

/** One "error: ..." line on stderr. */
function usageError(message: string): void {
  console.error(`error: ${message}`);
}

/** Why the routers could not listen, as one sentence naming the setting to change. */
function listenError(err: unknown, host: string, basePort: number): string {
  const e = err as { code?: string; port?: number; message?: string };
  const port = e.port ?? basePort;
  switch (e.code) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is already in use; choose another --port, ` +
        `or --port 0 for free ones`;
    case "EACCES":
    case "EPERM":
      return `no permission to listen on port ${port} (ports below 1024 need root); ` +
        `choose a --port of 1024 or more`;
    case "EADDRNOTAVAIL":
    case "EINVAL":
    case "ENOTFOUND":
    case "EAI_NONAME":
      return `cannot listen on ${host}: no such address on this machine; check --host`;
    default:
      return `cannot listen on ${host}:${port}: ${e.message ?? String(err)}`;
  }
}

interface CliOpts {
  devices: number;
  port?: number;
  basePort?: number;
  host: string;
  version: string;
  stateFile?: string;
  hostKeyFile?: string;
  stdioCli?: boolean;
  user: string;
  password: string;
  identity: string;
  latencyMs: number;
  dropAfter: number;
  hang?: string | boolean;
  refuseAuth?: boolean;
  randomExitStatus?: boolean;
  slowHandshakeMs: number;
  closeIdleChannels?: boolean;
}

function faultsFrom(o: CliOpts): SimFaults {
  return {
    ...defaultFaults(),
    latencyMs: o.latencyMs,
    dropAfterCommands: o.dropAfter,
    hang: o.hang === undefined || o.hang === false
      ? false
      : o.hang === true
      ? true
      : new RegExp(o.hang),
    refuseAuth: !!o.refuseAuth,
    randomExitStatus: !!o.randomExitStatus,
    slowHandshakeMs: o.slowHandshakeMs,
    closeIdleSessionChannels: !!o.closeIdleChannels,
  };
}

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of Deno.stdin.readable) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new TextDecoder().decode(all);
}

async function stdioCli(o: CliOpts): Promise<number> {
  let cmd = Deno.env.get("SSH_ORIGINAL_COMMAND");
  if (cmd === undefined) cmd = (await readStdin()).replace(/\r?\n$/, "");
  const core = new RouterCore({
    version: o.version as SimVersion,
    identity: o.identity,
    users: [{ name: o.user, password: o.password, group: "full" }],
    stateFile: o.stateFile,
    faults: faultsFrom(o),
    runScheduler: false,
  });
  const login = Deno.env.get("SIM_LOGIN") ?? o.user;
  const res = core.exec(cmd, login);
  core.close();
  await Deno.stdout.write(new TextEncoder().encode(res.output));
  return res.exitCode;
}

/** Runs the `sim` subcommand with its arguments (without the `sim` word). Returns the exit code. */
export async function runSimCli(args: string[]): Promise<number> {
  const program = new Command("mcp-server-router sim")
    .description("Run simulated MikroTik RouterOS routers over SSH")
    .option("--devices <n>", "number of routers", devicesArg, 1)
    .option("--port <p>", "port of the first router (0 = free ports)", portArg("--port"))
    .option("--base-port <p>", "same as --port", portArg("--base-port"))
    .option("--host <addr>", "listen address", "127.0.0.1")
    .option(
      "--version <v>",
      `RouterOS release to imitate, e.g. ${VERSIONS.join(", ")}`,
      DEFAULT_SIM_VERSION,
    )
    .option("--state-file <f>", "load/save state (per router: <f>.N)")
    .option(
      "--host-key-file <f>",
      "host private key kept across restarts: read if it exists, else made and saved " +
        "(default: <state-file>.host_key with --state-file, else a new key each start)",
    )
    .option("--stdio-cli", "run one command from SSH_ORIGINAL_COMMAND or stdin and exit")
    .option("--user <name>", "login user", "admin")
    .option("--password <pw>", "login password", "")
    .option("--identity <name>", "identity prefix", "MikroTik")
    .option("--latency-ms <ms>", "delay before each answer", intArg, 0)
    .option("--drop-after <n>", "drop the connection at the Nth command", intArg, 0)
    .option("--hang [regexp]", "never answer (all commands, or those matching)")
    .option("--refuse-auth", "reject every login")
    .option("--random-exit-status", "failures exit 0 or 1 at random")
    .option("--slow-handshake-ms <ms>", "delay before the SSH identification", intArg, 0)
    .option("--close-idle-channels", "close session channels idle for 100 ms")
    .helpOption("-h, --help", "show this help")
    .exitOverride()
    .configureOutput({
      // Help goes to stdout (exit 0); errors to stderr (exit 2).
      writeOut: (s) => Deno.stdout.writeSync(new TextEncoder().encode(s)),
      writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)),
    });
  try {
    program.parse(args, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.code === "commander.helpDisplayed" || e.code === "commander.help" ? 0 : 2;
    }
    throw e;
  }
  const o = program.opts<CliOpts>();
  const release = parseRelease(o.version);
  if (!release || compareReleases(release, OLDEST) < 0) {
    usageError(
      `invalid value "${o.version}" for --version: expected a RouterOS release from 6.49 on, such as ${
        VERSIONS.join(", ")
      }`,
    );
    return 2;
  }
  if (o.stdioCli) return await stdioCli(o);
  const basePort = o.port ?? o.basePort ?? 0;
  if (basePort > 0 && basePort + o.devices - 1 > MAX_PORT) {
    usageError(
      `--port ${basePort} with --devices ${o.devices} needs ports up to ` +
        `${basePort + o.devices - 1}, past ${MAX_PORT}; lower --port or --devices`,
    );
    return 2;
  }
  const hostKeyFile = o.hostKeyFile ?? (o.stateFile ? hostKeyFileFor(o.stateFile) : undefined);
  let routers: SimRouter[];
  try {
    routers = await startFleet(o.devices, {
      host: o.host,
      basePort,
      version: o.version as SimVersion,
      identity: o.identity,
      users: [{ name: o.user, password: o.password, group: "full" }],
      stateFile: o.stateFile,
      hostKeyFile,
      faults: faultsFrom(o),
    });
  } catch (err) {
    if (err instanceof HostKeyFileError) {
      usageError(err.message);
      return 2;
    }
    usageError(listenError(err, o.host, basePort));
    return 1;
  }
  const inventory = routers.map((r, i) => ({
    title: `${o.identity}-${i + 1}`,
    host: r.host,
    port: r.port,
    username: o.user,
    password: o.password,
    host_key: r.hostKeyFingerprint(),
  }));
  // Listen for the stop signals before printing: a caller that reads the
  // inventory and stops the simulator at once still gets a clean stop.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      Deno.removeSignalListener("SIGINT", stop);
      Deno.removeSignalListener("SIGTERM", stop);
      resolve();
    };
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
  console.log(stringify(inventory).trimEnd());
  const first = routers[0];
  console.error(
    `simulating ${routers.length} RouterOS ${o.version} router(s) on ${first.host}:${first.port}` +
      (routers.length > 1 ? `-${routers[routers.length - 1].port}` : "") +
      ` \u2014 connect with: ssh -p ${first.port} ${o.user}@${first.host} '/ip address print' (Ctrl-C to stop)`,
  );
  await stopped;
  await Promise.all(routers.map((r) => r.close()));
  return 0;
}

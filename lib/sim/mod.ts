/**
 * RouterOS simulator: fake MikroTik routers reachable over real SSH, with a
 * RouterOS console (tokenizer, parser, interpreter, menus) faithful to
 * `shared/routeros-cli.md`. Every test of the product runs against it.
 *
 * @example
 * const r = await startSimulator({ version: "7.16" });
 * r.run("/ip address add address=10.0.0.1/24 interface=ether1");
 * await r.close();
 *
 * @module
 */
import { RouterCore } from "./router.ts";
import { SshListener } from "./ssh_server.ts";
import { fingerprint, generateHostKey, loadOrCreateHostKey, sharedHostKey } from "./hostkey.ts";
import {
  DEFAULT_SIM_VERSION,
  defaultFaults,
  type SimCounters,
  type SimFaults,
  type SimUser,
  type SimVersion,
} from "./types.ts";
import { exportConfig } from "./export.ts";
import type { Menus } from "./menu_types.ts";
import type { SimNetwork } from "./network.ts";

export type { SimCounters, SimFaults, SimUser, SimVersion } from "./types.ts";
export { defaultFaults } from "./types.ts";
export { HostKeyFileError } from "./hostkey.ts";
export { SimNetwork } from "./network.ts";

/** Options of one simulated router. */
export interface SimOptions {
  /** Listen address; default "127.0.0.1". */
  host?: string;
  /** Port; default 0 = ephemeral. */
  port?: number;
  /** RouterOS version to imitate; default "7.16". */
  version?: SimVersion;
  /** `/system identity` name; default "MikroTik". */
  identity?: string;
  /** Users; default `[{ name: "admin", password: "", group: "full" }]`. */
  users?: SimUser[];
  /** Host private key (OpenSSH or PEM); default: one generated ed25519 key shared by the process. */
  hostKey?: string;
  /**
   * File that keeps the host key across restarts: read when it exists, else
   * a new key is generated and written there (mode 600). Ignored when
   * `hostKey` is given. A bad file fails the start with a `HostKeyFileError`.
   */
  hostKeyFile?: string;
  /** Load state from / save state to this JSON file. */
  stateFile?: string;
  /** Faults to inject (mutable later through `router.faults`). */
  faults?: Partial<SimFaults>;
  /** Router clock (for deterministic dates in tests); default: the real clock. */
  now?: () => Date;
  /**
   * Seconds the router has been up when the simulator starts, as a router
   * under management has (`/system resource uptime`); default 0: it boots
   * as the simulator starts.
   */
  uptime?: number;
  /**
   * Packages installed beyond the simulated hardware's own: `["wireless"]`
   * gives a 7.13+ router the legacy `/caps-man` (see `packages.ts`).
   */
  packages?: string[];
  /**
   * Called with every command an SSH client execs, before it runs (tests
   * hold what a client sends against the real command trees).
   */
  onCommand?: (command: string) => void;
  /**
   * The router's menus: default every family's (`SIM_MENUS`); a test adds
   * a family of its own with `new MenuIndex([...ALL_MENUS, ...its], LOOSE_COMMANDS)`.
   */
  menus?: Menus;
  /**
   * Routers this one reaches by address (`network.ts`): a bandwidth test to
   * another member's address meets that member's bandwidth server.
   */
  network?: SimNetwork;
  /**
   * How much of a command's run time passes before it answers: 1 (the
   * default) as a real router, less in tests that need no waiting (a 5 s
   * torch answers after 5 s x timeScale).
   */
  timeScale?: number;
}

/** A running simulated router. */
export interface SimRouter {
  readonly host: string;
  readonly port: number;
  readonly version: SimVersion;
  /** Live, mutable counters. */
  readonly counters: SimCounters;
  /** Live, mutable faults: tests flip them at run time. */
  faults: SimFaults;
  /** `SHA256:<base64 without padding>` as OpenSSH prints it. */
  hostKeyFingerprint(): string;
  /** New host key for later connections. */
  rotateHostKey(): void;
  /** Runs a CLI command in-process, exactly as an exec would. */
  run(command: string, user?: string): { output: string; exitCode: number };
  /** Raw stored items of a menu (`/ip/address`): `.id` and all properties as strings. */
  items(menu: string): Record<string, string>[];
  /**
   * Edit a menu's stored items in place, as no command can (the lab of
   * `lab.ts` seeds `/ip/neighbor` and interface link state this way);
   * `newId` gives a fresh `.id` for an added item.
   */
  seed(menu: string, edit: (items: Record<string, string>[], newId: () => string) => void): void;
  /**
   * Like `/export` (secrets as `/export` shows them), except that the header
   * date is the router's start time, so two exports of the same
   * configuration compare equal.
   */
  export(): string;
  /** Adds (or replaces) a user. */
  addUser(u: SimUser): void;
  /**
   * Make `/system package update` find `version`; `install` then reboots into
   * it (its configuration kept), or, with `fails`, back into the old release.
   */
  offerUpgrade(version: SimVersion, fails?: boolean): void;
  /**
   * Move the router's clock `seconds` ahead, as if that time had passed: a
   * scheduler job whose time comes within it runs now (a revert deadline
   * reached without waiting for it).
   */
  advanceClock(seconds: number): void;
  /** Closes the listener and all connections. */
  close(): Promise<void>;
}

const DEFAULT_USERS: SimUser[] = [{ name: "admin", password: "", group: "full" }];

class Router implements SimRouter {
  readonly host: string;
  port = 0;
  readonly core: RouterCore;
  readonly listener: SshListener;
  private key: string;
  private readonly started: Date;

  constructor(opts: SimOptions) {
    this.host = opts.host ?? "127.0.0.1";
    this.key = opts.hostKey ?? sharedHostKey();
    this.started = opts.now ? opts.now() : new Date();
    this.core = new RouterCore({
      version: opts.version ?? DEFAULT_SIM_VERSION,
      identity: opts.identity ?? "MikroTik",
      users: structuredClone(opts.users ?? DEFAULT_USERS),
      stateFile: opts.stateFile,
      faults: { ...defaultFaults(), ...opts.faults },
      now: opts.now,
      runScheduler: true,
      onCommand: opts.onCommand,
      uptime: opts.uptime,
      packages: opts.packages,
      menus: opts.menus,
      network: opts.network,
      timeScale: opts.timeScale,
    });
    this.listener = new SshListener(this.core, () => this.key);
  }

  /** The release it runs now (an upgrade changes it). */
  get version(): SimVersion {
    return this.core.opts.version;
  }
  offerUpgrade(version: SimVersion, fails = false): void {
    this.core.offerUpgrade(version, fails);
  }
  advanceClock(seconds: number): void {
    const st = this.core.state();
    st.clockOffsetMs += seconds * 1000;
    st.touch();
  }
  get counters(): SimCounters {
    return this.core.counters;
  }
  get faults(): SimFaults {
    return this.core.faults;
  }
  set faults(f: SimFaults) {
    this.core.faults = f;
  }
  hostKeyFingerprint(): string {
    return fingerprint(this.key);
  }
  rotateHostKey(): void {
    this.key = generateHostKey();
    this.listener.resetHostKey();
  }
  run(command: string, user = "admin"): { output: string; exitCode: number } {
    return this.core.exec(command, user);
  }
  items(menu: string): Record<string, string>[] {
    return this.core.items(menu);
  }
  seed(menu: string, edit: (items: Record<string, string>[], newId: () => string) => void): void {
    this.core.seed(menu, edit);
  }
  export(): string {
    return exportConfig(this.core.state(), {
      prefix: "",
      terse: false,
      verbose: false,
      sensitive: true,
    });
  }
  addUser(u: SimUser): void {
    this.core.addUser(u);
  }
  async close(): Promise<void> {
    this.core.close();
    await this.listener.close();
  }
}

/** The options with `hostKey` read from (or made in) `hostKeyFile`, when that is set. */
async function withHostKey<T extends SimOptions>(opts: T): Promise<T> {
  if (opts.hostKey !== undefined || opts.hostKeyFile === undefined) return opts;
  return { ...opts, hostKey: await loadOrCreateHostKey(opts.hostKeyFile) };
}

/** Starts one simulated router listening for SSH. */
export async function startSimulator(opts: SimOptions = {}): Promise<SimRouter> {
  const r = new Router(await withHostKey(opts));
  r.port = await r.listener.listen(r.host, opts.port ?? 0);
  return r;
}

/**
 * Starts `count` routers on consecutive ports from `basePort` (when 0 or
 * absent, from a free port found by the system). Identities are
 * `<identity>-N` (N from 1); a state file gets `.N` appended per router.
 * One host key is shared.
 */
export async function startFleet(
  count: number,
  opts: SimOptions & { basePort?: number } = {},
): Promise<SimRouter[]> {
  opts = await withHostKey(opts);
  const fixed = opts.basePort ?? opts.port ?? 0;
  for (let attempt = 0;; attempt++) {
    const out: SimRouter[] = [];
    try {
      let base = fixed;
      for (let i = 0; i < count; i++) {
        const r = await startSimulator({
          ...opts,
          port: base ? base + i : 0,
          identity: `${opts.identity ?? "MikroTik"}-${i + 1}`,
          stateFile: opts.stateFile ? `${opts.stateFile}.${i + 1}` : undefined,
        });
        out.push(r);
        if (!base) base = r.port;
      }
      return out;
    } catch (e) {
      await Promise.all(out.map((r) => r.close()));
      if (fixed || attempt >= 8) throw e;
    }
  }
}

/**
 * One simulated router: its (lazily created) state, counters, faults and the
 * `exec` entry point shared by SSH, `run()` and the stdio CLI.
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Interpreter } from "./interpreter.ts";
import { RouterState, type StateData, type StateInit } from "./state.ts";
import type { SimCounters, SimFaults, SimUser, SimVersion } from "./types.ts";
import { loginName, policiesOf } from "./auth.ts";
import { Scheduler } from "./scheduler.ts";
import { describeKey } from "./auth.ts";
import type { Menus } from "./menu_types.ts";
import type { SimNetwork } from "./network.ts";
import { SIM_MENUS } from "./menus/registry.ts";

/** Settings of one router. */
export interface CoreOptions {
  version: SimVersion;
  identity: string;
  users: SimUser[];
  stateFile?: string;
  faults: SimFaults;
  now?: () => Date;
  /** Run `/system/scheduler` jobs on timers (off for the one-shot stdio CLI). */
  runScheduler: boolean;
  /** Called with every command an SSH client execs. */
  onCommand?: (command: string) => void;
  /** Seconds up at start (default 0). */
  uptime?: number;
  /** Packages installed beyond the hardware's own. */
  packages?: string[];
  /** The router's menus (default: every family's, `SIM_MENUS`). */
  menus?: Menus;
  /** Routers this one reaches by address (a bandwidth test's server). */
  network?: SimNetwork;
  /** How much of a command's run time passes before it answers (1: all of it). */
  timeScale?: number;
}

/** Result of one exec. */
export interface ExecResult {
  output: string;
  exitCode: number;
  /**
   * How long the command runs on a real router before it answers (a torch
   * or a bandwidth test for its `duration`), in ms; Infinity: until it is
   * stopped.
   */
  runMs?: number;
}

/** A logged-in session (for `/user/active`). */
export interface ActiveSession {
  /** `/user/active` id (`*1`, `*2`...), stable for the session's life. */
  id: string;
  name: string;
  address: string;
  via: string;
  when: string;
  /** Ends the session (closes its connection). */
  end: () => void;
}

/** The router behind an SSH listener. */
export class RouterCore {
  readonly counters: SimCounters = {
    connections: 0,
    sessionChannels: 0,
    execChannels: 0,
    commands: 0,
    authFailures: 0,
    reboots: 0,
    interrupted: 0,
  };
  faults: SimFaults;
  private st: RouterState | null = null;
  /** When the router booted: when it was started (or last rebooted), not when its state was first read. */
  private bootMs: number;
  private scheduler: Scheduler | null = null;
  readonly active = new Set<ActiveSession>();
  private sessionSeq = 0;
  /** `/system/package/update` across reboots (see `offerUpgrade`). */
  readonly updates: RouterState["updates"] = {};
  /** The next upgrade reboots into the old release (a failed upgrade). */
  upgradeFails = false;
  /** The configuration carried into the next release's state at an upgrade. */
  private carried: StateData | undefined;
  /** Drops every SSH connection (set by the listener; used by reboot). */
  dropConnections: () => void = () => {};

  constructor(readonly opts: CoreOptions) {
    this.faults = opts.faults;
    this.bootMs = Date.now() - (opts.uptime ?? 0) * 1000;
    opts.network?.join(this);
  }

  /** The state, created (or loaded from the state file) on first use. */
  state(): RouterState {
    if (this.st) return this.st;
    const init: StateInit = {
      version: this.opts.version,
      identity: this.opts.identity,
      users: this.opts.users,
      now: this.opts.now,
      packages: this.opts.packages,
      menus: this.opts.menus ?? SIM_MENUS,
    };
    let data: StateData | undefined = this.carried;
    this.carried = undefined;
    const f = this.opts.stateFile;
    if (!data && f && existsSync(f)) {
      const text = readFileSync(f, "utf8");
      if (text.trim()) data = JSON.parse(text) as StateData;
    }
    const st = new RouterState(init, data);
    st.bootMs = this.bootMs;
    st.activeSessions = () => [...this.active];
    st.endSession = (id) => {
      const s = [...this.active].find((x) => x.id === id);
      if (!s) return false;
      this.active.delete(s);
      st.log("system,info,account", `user ${s.name} logged out from ${s.address} via ${s.via}`);
      setTimeout(() => s.end(), 0);
      return true;
    };
    this.st = st;
    if (!data) this.seedUserKeys(st);
    st.updates = this.updates;
    st.peerAt = (ip) => this.opts.network?.routerAt(ip, this)?.state();
    st.onReboot = () => {
      this.counters.reboots++;
      this.bootMs = st.bootMs;
      this.scheduler?.reset();
      this.upgradeAtReboot(st);
      setTimeout(() => this.dropConnections(), 0);
    };
    if (this.opts.runScheduler) {
      const sch = new Scheduler(this);
      this.scheduler = sch;
      st.onChange = () => sch.rearm();
      st.nextRunOf = (id) => sch.planned(id);
      sch.rearm();
    }
    return st;
  }

  /**
   * A reboot after `/system backup load` brings the saved configuration back.
   * A reboot with an upgrade pending: the router comes back as the new
   * release with its configuration (the next `state()` builds it), or, when
   * the upgrade fails, as the old release.
   */
  private upgradeAtReboot(st: RouterState): void {
    if (st.restoring) {
      // Storage is not part of a backup: the files stay as they are now.
      const files = st.toData().tables["/file"];
      const tables = { ...st.restoring.tables };
      delete tables["/file"];
      if (files) tables["/file"] = files;
      this.carried = { ...st.restoring, tables, version: st.version };
      this.scheduler?.stop();
      this.scheduler = null;
      this.st = null;
      return;
    }
    const to = this.updates.pending;
    this.updates.pending = undefined;
    this.updates.latest = undefined;
    this.updates.status = undefined;
    if (!to) return;
    if (this.upgradeFails) {
      st.log("system,error,critical", `upgrade to ${to} failed, still running ${st.version}`);
      return;
    }
    const data = st.toData();
    delete data.tables["/system/package"];
    this.carried = { ...data, version: to };
    this.opts.version = to;
    this.scheduler?.stop();
    this.scheduler = null;
    this.st = null;
    this.updates.offered = undefined;
  }

  /** Offer `version` as the update server's latest release (`fails`: the upgrade fails). */
  offerUpgrade(version: SimVersion, fails = false): void {
    this.updates.offered = version;
    this.upgradeFails = fails;
  }

  private seedUserKeys(st: RouterState): void {
    for (const u of this.opts.users) for (const k of u.publicKeys ?? []) this.addKey(st, u.name, k);
    st.dirty = false;
  }

  /** Registers an OpenSSH public key for a user. */
  addKey(st: RouterState, user: string, line: string): void {
    const d = describeKey(line);
    if (typeof d === "string") throw new Error(`bad public key for ${user}: ${d}`);
    const t = st.table("/user/ssh-keys");
    t.items.push({
      ".id": st.newId(t),
      user,
      key: line.trim(),
      "key-type": d.type,
      bits: d.bits,
      "key-owner": d.owner,
      info: d.owner,
    });
  }

  /** A new `/user/active` id. */
  newSessionId(): string {
    return "*" + (++this.sessionSeq).toString(16).toUpperCase();
  }

  /** Adds a user (and its keys) to a running router. */
  addUser(u: SimUser): void {
    const st = this.state();
    const t = st.table("/user");
    const existing = t.items.find((i) => i.name === u.name);
    const item = {
      name: u.name,
      group: u.group ?? "full",
      password: u.password ?? "",
      address: "",
      disabled: "false",
    };
    if (existing) Object.assign(existing, item);
    else t.items.push({ ".id": st.newId(t), ...item });
    for (const k of u.publicKeys ?? []) this.addKey(st, u.name, k);
    st.touch();
    this.save();
  }

  /** Runs console input as a user; returns the text and an exit status. */
  exec(command: string, login = "admin"): ExecResult {
    const st = this.state();
    const user = loginName(login);
    const ip = new Interpreter(st, { user, policies: policiesOf(st, user) });
    ip.runInput(command);
    this.save();
    const output = ip.out.map((l) => l + "\r\n").join("");
    let exitCode = 0;
    if (ip.failed) exitCode = this.faults.randomExitStatus ? (Math.random() < 0.5 ? 0 : 1) : 1;
    return ip.runMs > 0 ? { output, exitCode, runMs: ip.runMs } : { output, exitCode };
  }

  /** Runs a stored script as `user` (scheduler); output goes nowhere. */
  runScript(src: string, user: string): void {
    const st = this.state();
    const ip = new Interpreter(st, { user, policies: policiesOf(st, user) });
    ip.runScriptText(src);
    this.save();
  }

  /** Writes the state file when something changed. */
  save(): void {
    const st = this.st;
    if (!st || !st.dirty || !this.opts.stateFile) return;
    writeFileSync(this.opts.stateFile, JSON.stringify(st.toData()));
    st.dirty = false;
  }

  /** Stops timers. */
  close(): void {
    this.opts.network?.leave(this);
    this.scheduler?.stop();
    this.scheduler = null;
    this.save();
  }

  /**
   * Edit the stored items of a menu's table directly (a lab seeds what no
   * command can set: neighbours, link state). `newId` gives a fresh `.id`.
   */
  seed(path: string, edit: (items: Record<string, string>[], newId: () => string) => void): void {
    const st = this.state();
    const m = st.menus.byPath(path, st.release);
    if (!m) throw new Error(`unknown menu ${path}`);
    const t = st.tableOf(m);
    edit(t.items, () => st.newId(t));
    st.touch();
    this.save();
  }

  /** Raw items of a menu. */
  items(path: string): Record<string, string>[] {
    const st = this.state();
    const m = st.menus.byPath(path, st.release);
    if (!m) throw new Error(`unknown menu ${path}`);
    return st.list(m);
  }
}

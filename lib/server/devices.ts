/**
 * The devices the server manages: configuration, one RouterOS client each,
 * and the shared SSH pool. Nothing connects until a device is used.
 *
 * @module
 */
import type { DeviceConfig } from "../config/inventory.ts";
import { bastionsOf, jumpChain, type JumpConfig } from "../config/jump.ts";
import type { Config } from "../config/load.ts";
import { RouterOsClient } from "../routeros/client.ts";
import { log } from "../log.ts";
import type { HostKeyPolicy } from "../ssh/host_key_policy.ts";
import { SshPool } from "../ssh/pool.ts";
import type { PoolObserver } from "../ssh/pool_observer.ts";
import type { SshTarget } from "../ssh/target.ts";
import { UnknownDeviceError } from "./unknown_device.ts";
import type { DeviceRef, DeviceSet } from "../tools/guard/runner.ts";

/** Global SSH settings a device may override. */
export interface SshDefaults {
  connectTimeout: number;
  commandTimeout: number;
}

/** What `router_list_devices` shows of a device (never secrets). */
export interface DeviceSummary {
  title: string;
  host: string;
  port: number;
  username: string;
  region?: string;
  tags: string[];
  /** The bastions it is reached through, from this server outward (titles or user@host:port). */
  via?: string[];
  connected: boolean;
}

/** The fleet: devices by title, each with a lazily used client. */
export class Devices implements DeviceSet {
  readonly pool: SshPool;
  readonly fleet: boolean;
  #configs: DeviceConfig[];
  /** Titles in inventory order, and each device by its exact and by its lower-case title. */
  #titles: readonly string[];
  #byTitle: Map<string, DeviceConfig>;
  #byLowerTitle: Map<string, DeviceConfig>;
  #clients = new Map<string, RouterOsClient>();
  #defaults: SshDefaults;
  /** The devices reached through each inventory entry (as a bastion of their chain), by title. */
  #forwardsFor: Map<string, string[]>;

  constructor(configs: DeviceConfig[], fleet: boolean, pool: SshPool, defaults: SshDefaults) {
    this.#configs = configs;
    this.#titles = Object.freeze(configs.map((d) => d.title));
    // Looked up on every call (a fleet query resolves each of its devices).
    this.#byTitle = new Map(configs.map((d) => [d.title, d]));
    this.#byLowerTitle = new Map();
    for (const d of configs) {
      const lower = d.title.toLowerCase();
      if (!this.#byLowerTitle.has(lower)) this.#byLowerTitle.set(lower, d);
    }
    this.fleet = fleet;
    this.pool = pool;
    this.#defaults = defaults;
    this.#forwardsFor = forwarders(configs);
  }

  /** Device titles, in inventory order. */
  get titles(): readonly string[] {
    return this.#titles;
  }

  /** The device's configuration, by title (case-insensitive), or undefined. */
  config(title: string): DeviceConfig | undefined {
    return this.#byLowerTitle.get(title.trim().toLowerCase());
  }

  /**
   * The device a call names, or the only one when it names none; an
   * {@linkcode UnknownDeviceError} that lists the valid titles otherwise.
   */
  resolve(title: string | undefined): DeviceRef {
    const titles = this.titles;
    let config: DeviceConfig | undefined;
    if (title === undefined) {
      if (titles.length !== 1) throw new UnknownDeviceError(undefined, titles);
      config = this.#configs[0];
    } else {
      // Exact, as the tool schema's enum is (case-insensitive lookups are for people).
      config = this.#byTitle.get(title);
      if (!config) throw new UnknownDeviceError(title, titles);
    }
    const forwardsFor = this.#forwardsFor.get(config.title);
    return {
      title: config.title,
      readOnly: config.readOnly,
      client: this.client(config),
      ...(forwardsFor ? { forwardsFor } : {}),
    };
  }

  /** The client for a device, created on first use. */
  client(config: DeviceConfig): RouterOsClient {
    let client = this.#clients.get(config.title);
    if (!client) {
      client = new RouterOsClient(this.pool, this.#target(config));
      this.#clients.set(config.title, client);
    }
    return client;
  }

  #target(d: DeviceConfig): SshTarget {
    return {
      title: d.title,
      host: d.host,
      port: d.port,
      username: d.username,
      password: d.password,
      keyFilename: d.keyFilename,
      keyPassphrase: d.keyPassphrase,
      hostKey: d.hostKey,
      connectTimeoutMs: (d.connectTimeout ?? this.#defaults.connectTimeout) * 1000,
      commandTimeoutMs: (d.commandTimeout ?? this.#defaults.commandTimeout) * 1000,
      ...(d.jump ? { via: this.#bastion(d.jump) } : {}),
    };
  }

  /** A bastion as the SSH layer reaches it (`via`), with its own chain. */
  #bastion(j: JumpConfig): SshTarget {
    return {
      title: j.title,
      role: "bastion",
      host: j.host,
      port: j.port,
      username: j.username,
      password: j.password,
      keyFilename: j.keyFilename,
      keyPassphrase: j.keyPassphrase,
      hostKey: j.hostKey,
      connectTimeoutMs: (j.connectTimeout ?? this.#defaults.connectTimeout) * 1000,
      commandTimeoutMs: this.#defaults.commandTimeout * 1000,
      ...(j.jump ? { via: this.#bastion(j.jump) } : {}),
    };
  }

  /** Every device, without secrets, with its connection state. */
  summaries(): DeviceSummary[] {
    return this.#configs.map((d) => ({
      title: d.title,
      host: d.host,
      port: d.port,
      username: d.username,
      ...(d.region !== undefined ? { region: d.region } : {}),
      tags: d.tags,
      ...(d.jump ? { via: jumpChain(d.jump) } : {}),
      connected: this.pool.isConnected(d.title),
    }));
  }

  /** Close every connection. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * For each inventory entry that is a bastion of another's chain (named by
 * its title, or given inline with the entry's host and port), the titles of
 * the devices reached through it.
 */
function forwarders(configs: readonly DeviceConfig[]): Map<string, string[]> {
  const byTitle = new Map(configs.map((c) => [c.title, c]));
  const out = new Map<string, string[]>();
  for (const d of configs) {
    for (const j of bastionsOf(d.jump)) {
      const entry = byTitle.get(j.title) ??
        configs.find((c) => c.host === j.host && c.port === j.port);
      if (!entry || entry.title === d.title) continue;
      const behind = out.get(entry.title) ?? [];
      if (!behind.includes(d.title)) behind.push(d.title);
      out.set(entry.title, behind);
    }
  }
  return out;
}

/** Build the device registry and SSH pool from the configuration (`observer`: the metrics'). */
export function createDevices(config: Config, observer?: PoolObserver): Devices {
  const s = config.settings;
  const policy: HostKeyPolicy = s["host-key-policy"];
  const pool = new SshPool({
    maxOutputBytes: s["max-output"],
    keepaliveMs: s.keepalive * 1000,
    maxChannels: s["max-channels"],
    idleTimeoutMs: s["idle-timeout"] * 1000,
    maxDialing: s["max-dialing"],
    knownHostsFile: s["known-hosts"],
    hostKeyPolicy: policy,
    observer,
  });
  if (policy === "off") {
    const pinned = config.devices.filter((d) => d.hostKey).length;
    const bastions = config.devices.some((d) => d.jump);
    log(
      "warning",
      "--host-key-policy off: host keys are not checked, so anyone on the path to a router " +
        "can impersonate it and read its credentials" +
        (pinned > 0 ? ` (the ${pinned} device(s) with a pinned host_key are still checked)` : "") +
        (bastions ? "; bastions without a pinned host_key are not checked either" : "") +
        "; use accept-new or strict in production",
    );
  }
  return new Devices(config.devices, config.fleet, pool, {
    connectTimeout: s["connect-timeout"],
    commandTimeout: s["command-timeout"],
  });
}

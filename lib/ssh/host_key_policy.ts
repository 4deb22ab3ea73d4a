/**
 * Host key checking, fail closed: a pinned `host_key` fingerprint from the
 * inventory, else the known_hosts file under the policy `strict`,
 * `accept-new` (record the key on first contact, as OpenSSH's
 * `StrictHostKeyChecking=accept-new`) or `off`.
 *
 * @module
 */
import { log } from "../log.ts";
import { SshError } from "./errors.ts";
import {
  appendKnownHost,
  entriesFor,
  fingerprintOf,
  keyTypeOf,
  type KnownHostEntry,
  knownHostName,
  readKnownHosts,
  sameKey,
} from "./known_hosts.ts";
import { describeTarget, type SshTarget } from "./target.ts";

/** The host key policies. */
export const HOST_KEY_POLICIES = ["strict", "accept-new", "off"] as const;
/** A host key policy. */
export type HostKeyPolicy = typeof HOST_KEY_POLICIES[number];

/** Host key algorithms that ssh2 negotiates for a known_hosts key type. */
const ALGORITHMS_BY_KEY_TYPE: Record<string, string[]> = {
  "ssh-ed25519": ["ssh-ed25519"],
  "ecdsa-sha2-nistp256": ["ecdsa-sha2-nistp256"],
  "ecdsa-sha2-nistp384": ["ecdsa-sha2-nistp384"],
  "ecdsa-sha2-nistp521": ["ecdsa-sha2-nistp521"],
  "ssh-rsa": ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"],
  "ssh-dss": ["ssh-dss"],
};

/** The check for one connection attempt, prepared before the handshake. */
export interface HostKeyCheck {
  /**
   * Host key algorithms to offer, restricted to the known key types so that a
   * router cannot dodge its recorded key by offering another type; undefined
   * for ssh2's defaults.
   */
  algorithms?: string[];
  /** The key types known for this host (for the "no matching type" message). */
  knownTypes: string[];
  /** Check the presented key: null to accept, or the error to refuse with. */
  verify(key: Uint8Array): SshError | null;
  /** After authentication: record a newly accepted key (accept-new). */
  commit(): Promise<void>;
}

/** Checks host keys for every connection of a pool. */
export class HostKeyVerifier {
  readonly policy: HostKeyPolicy;
  /** The known_hosts file, as given (the configuration resolves `~`); "" with the policy `off`. */
  readonly file: string;
  #writes: Promise<void> = Promise.resolve();

  /** `file` is needed unless the policy is `off` (pinned keys need none). */
  constructor(policy: HostKeyPolicy = "accept-new", file = "") {
    if (policy !== "off" && file === "") {
      throw new Error(`the host key policy ${policy} needs a known_hosts file`);
    }
    this.policy = policy;
    this.file = file;
  }

  /** Read what is known about the target and return its check. */
  async prepare(target: SshTarget): Promise<HostKeyCheck> {
    const who = describeTarget(target);
    const pinned = target.hostKey?.replace(/=+$/, "");
    if (pinned) {
      return {
        knownTypes: [],
        verify: (key) => {
          const got = fingerprintOf(key);
          if (got === pinned) return null;
          return new SshError(
            "host-key-mismatch",
            `${who}: host key mismatch: the server presented ${keyTypeOf(key)} key ${got}, ` +
              `but the inventory pins host_key ${pinned}. Either someone is intercepting the ` +
              `connection, or the server's key was replaced; if the change is expected, ` +
              `update host_key in the inventory`,
          );
        },
        commit: () => Promise.resolve(),
      };
    }
    if (this.policy === "off") {
      return { knownTypes: [], verify: () => null, commit: () => Promise.resolve() };
    }
    let entries: KnownHostEntry[];
    try {
      entries = entriesFor(await readKnownHosts(this.file), target.host, target.port);
    } catch (err) {
      throw new SshError(
        "host-key-unknown",
        `${who}: cannot read known_hosts file ${this.file} (${(err as Error).message}); ` +
          `fix its permissions or point --known-hosts elsewhere`,
      );
    }
    const revoked = entries.filter((e) => e.marker === "revoked");
    const keys = entries.filter((e) => e.marker === undefined);
    const knownTypes = [...new Set(keys.map((e) => e.keyType))];
    const algorithms = knownTypes.flatMap((t) => ALGORITHMS_BY_KEY_TYPE[t] ?? []);
    const name = knownHostName(target.host, target.port);
    let accepted: Uint8Array | null = null;
    return {
      algorithms: algorithms.length > 0 ? algorithms : undefined,
      knownTypes,
      verify: (key) => {
        const got = fingerprintOf(key);
        const type = keyTypeOf(key);
        const bad = revoked.find((e) => sameKey(e.key, key));
        if (bad) {
          return new SshError(
            "host-key-mismatch",
            `${who}: the server presented ${type} key ${got}, which ${this.file} line ` +
              `${bad.line} marks as @revoked; refusing to connect`,
          );
        }
        if (keys.some((e) => sameKey(e.key, key))) return null;
        if (keys.length > 0) {
          const old = keys.find((e) => e.keyType === type) ?? keys[0];
          return new SshError(
            "host-key-mismatch",
            `${who}: host key mismatch: the server presented ${type} key ${got}, but ` +
              `${this.file} line ${old.line} records ${old.keyType} key ` +
              `${fingerprintOf(old.key)} for ${name}. Either someone is intercepting the ` +
              `connection, or the server's key was replaced (reset, reinstall). If the ` +
              `change is expected, remove the old key with: ssh-keygen -R "${name}" -f ` +
              `${this.file}`,
          );
        }
        if (this.policy === "strict") {
          return new SshError(
            "host-key-unknown",
            `${who}: host key unknown: ${this.file} has no key for ${name} and ` +
              `--host-key-policy is strict. The server presented ${type} key ${got}. ` +
              `After checking that fingerprint on the device, pin it with ` +
              `host_key: ${got} in the inventory, or add the key with: ` +
              `ssh-keyscan -p ${target.port} ${target.host} >> ${this.file}`,
          );
        }
        accepted = key;
        return null;
      },
      commit: () => {
        const key = accepted;
        if (!key) return Promise.resolve();
        accepted = null;
        return this.#record(target, key);
      },
    };
  }

  /** Append a newly accepted key, once, serialised with other writes. */
  #record(target: SshTarget, key: Uint8Array): Promise<void> {
    const run = async () => {
      const now = entriesFor(await readKnownHosts(this.file), target.host, target.port);
      if (now.some((e) => e.marker === undefined && sameKey(e.key, key))) return;
      await appendKnownHost(this.file, target.host, target.port, key);
      log(
        "info",
        `${describeTarget(target)}: first contact, recorded ${keyTypeOf(key)} host key ` +
          `${fingerprintOf(key)} in ${this.file}`,
      );
    };
    const next = this.#writes.then(run).catch((err) => {
      log(
        "warning",
        `${describeTarget(target)}: could not record the host key in ${this.file} ` +
          `(${(err as Error).message}); it will be treated as new again next time`,
      );
    });
    this.#writes = next;
    return next;
  }
}

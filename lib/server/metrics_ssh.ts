/**
 * The SSH pool's series, from what the pool tells ({@linkcode PoolObserver}):
 * the state of each device's connection, connection attempts by result,
 * reconnects, command timeouts and retries; and, read at each scrape, the
 * dialer's queue and the bastion connections.
 *
 * Per-device labels: the device title is a label value (bounded by the
 * inventory) on five state series and a few counters per device that has
 * connected. Over thousands of devices that is tens of thousands of series,
 * so `perDevice: false` drops the label: the state series then count the
 * devices in each state, and the counters are fleet totals.
 *
 * None of this runs on a warm call: only connections opening and closing,
 * and failures, are told.
 *
 * @module
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { SshErrorKind } from "../ssh/errors.ts";
import type { CloseReason, PoolObserver } from "../ssh/pool_observer.ts";

/** The states of a device's connection, as the `state` label says them. */
export const CONNECTION_STATES = ["connecting", "open", "idle-closed", "lost", "failed"] as const;

/** A state of a device's connection. */
export type ConnectionState = typeof CONNECTION_STATES[number];

/** What the pool's gauges are read from at each scrape. */
export interface PoolGauges {
  dialerStats(): { inFlight: number; waiting: number };
  bastionStats(): { open: number };
}

/** One device's connection, as told so far. */
interface DeviceConnection {
  state: ConnectionState;
  /** Its last connection was lost or retired, and no new one has opened yet. */
  lost: boolean;
}

/** The SSH series; the pool's observer. */
export class SshMetrics implements PoolObserver {
  readonly #perDevice: boolean;
  readonly #devices = new Map<string, DeviceConnection>();
  readonly #connects: Counter;
  readonly #reconnects: Counter;
  readonly #timeouts: Counter;
  readonly #retries: Counter;
  #pool?: PoolGauges;

  /** Series named `<prefix>ssh_...` in `registry`. */
  constructor(registry: Registry, prefix: string, perDevice: boolean) {
    this.#perDevice = perDevice;
    const device = perDevice ? ["device"] : [];
    const states: Gauge = new Gauge({
      name: `${prefix}ssh_connections`,
      help: "Devices whose SSH connection is in each state (connecting, open, idle-closed, " +
        "lost: ended by the router, the network or a command timeout, failed: the last " +
        "attempt to open it failed)",
      labelNames: [...device, "state"],
      registers: [registry],
      collect: (): void => this.#collectStates(states),
    });
    this.#connects = new Counter({
      name: `${prefix}ssh_connects_total`,
      help: "SSH connection attempts, by result (ok, or what went wrong: auth-failed, " +
        "timeout, connection-refused, host-key-mismatch, ...)",
      labelNames: [...device, "result"],
      registers: [registry],
    });
    this.#reconnects = new Counter({
      name: `${prefix}ssh_reconnects_total`,
      help: "SSH connections opened to replace one that was lost or retired after a timeout",
      labelNames: device,
      registers: [registry],
    });
    this.#timeouts = new Counter({
      name: `${prefix}ssh_command_timeouts_total`,
      help: "Commands that did not answer within the command timeout",
      labelNames: device,
      registers: [registry],
    });
    this.#retries = new Counter({
      name: `${prefix}ssh_command_retries_total`,
      help: "Commands run again on a new connection because theirs was lost",
      labelNames: device,
      registers: [registry],
    });
    const pool = () => this.#pool;
    new Gauge({
      name: `${prefix}ssh_dial_queue_length`,
      help: "SSH connection attempts waiting for a dialing slot (--max-dialing)",
      registers: [registry],
      collect() {
        this.set(pool()?.dialerStats().waiting ?? 0);
      },
    });
    new Gauge({
      name: `${prefix}ssh_dials_in_flight`,
      help: "SSH connection attempts running now",
      registers: [registry],
      collect() {
        this.set(pool()?.dialerStats().inFlight ?? 0);
      },
    });
    new Gauge({
      name: `${prefix}ssh_bastion_connections`,
      help: "Connections to SSH bastions (jump hosts) open now",
      registers: [registry],
      collect() {
        this.set(pool()?.bastionStats().open ?? 0);
      },
    });
  }

  /** Read the dialer and bastion gauges from `pool` (once the devices are built). */
  attach(pool: PoolGauges): void {
    this.#pool = pool;
  }

  connecting(device: string): void {
    this.#device(device).state = "connecting";
  }

  opened(device: string): void {
    const d = this.#device(device);
    d.state = "open";
    this.#connects.inc(this.#labels(device, { result: "ok" }));
    if (d.lost) this.#reconnects.inc(this.#labels(device, {}));
    d.lost = false;
  }

  failed(device: string, kind: SshErrorKind | "other"): void {
    this.#device(device).state = "failed";
    this.#connects.inc(this.#labels(device, { result: kind }));
  }

  closed(device: string, why: CloseReason): void {
    if (why === "closed") {
      // Closed by this server (shutting down): no state to report.
      this.#devices.delete(device);
      return;
    }
    const d = this.#device(device);
    d.state = why === "idle" ? "idle-closed" : "lost";
    if (why !== "idle") d.lost = true;
  }

  commandTimedOut(device: string): void {
    // The connection is retired: the next one is a reconnect.
    this.#device(device).lost = true;
    this.#timeouts.inc(this.#labels(device, {}));
  }

  retried(device: string): void {
    this.#retries.inc(this.#labels(device, {}));
  }

  #device(title: string): DeviceConnection {
    let d = this.#devices.get(title);
    if (!d) {
      d = { state: "connecting", lost: false };
      this.#devices.set(title, d);
    }
    return d;
  }

  #labels(device: string, labels: Record<string, string>): Record<string, string> {
    return this.#perDevice ? { device, ...labels } : labels;
  }

  #collectStates(gauge: Gauge): void {
    gauge.reset();
    if (this.#perDevice) {
      for (const [device, d] of this.#devices) {
        for (const state of CONNECTION_STATES) {
          gauge.set({ device, state }, d.state === state ? 1 : 0);
        }
      }
      return;
    }
    const counts = new Map<ConnectionState, number>(CONNECTION_STATES.map((s) => [s, 0]));
    for (const d of this.#devices.values()) counts.set(d.state, counts.get(d.state)! + 1);
    for (const [state, n] of counts) gauge.set({ state }, n);
  }
}

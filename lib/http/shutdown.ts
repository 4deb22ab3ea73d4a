/**
 * Graceful shutdown of an HTTP entry point (the MCP transports and the
 * REST proxy alike) on SIGINT and SIGTERM: the first signal hands over to
 * the caller's stop (stop accepting, let requests in flight finish up to a
 * grace period, close sessions and connections), a second one exits at
 * once; {@linkcode within} bounds each wait.
 *
 * @module
 */
import { log } from "../log.ts";

/** How long requests in flight may take to finish after a signal. */
export const GRACE_MS = 10_000;

/** Resolve after `ms`, or at once when `signal` aborts; never keeps the process alive. */
export function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done!: () => void;
  const promise = new Promise<void>((resolve) => {
    done = resolve;
    timer = setTimeout(resolve, ms);
  });
  return {
    promise,
    cancel: () => {
      clearTimeout(timer);
      done();
    },
  };
}

/** Wait for `work`, at most `ms`; true when it finished in time. */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = delay(ms);
  const finished = await Promise.race([
    work.then(() => true, () => true),
    timeout.promise.then(() => false),
  ]);
  timeout.cancel();
  return finished;
}

/** What {@linkcode onSignals} says and does, where an entry point differs. */
export interface SignalOptions {
  /** The line logged at the first signal (default: shutting down, with the grace period). */
  announce?: (signal: string) => string;
  /** Before the line of a second signal (`proxy: `). */
  prefix?: string;
  /** The exit status of a second signal (default 1). */
  exitCode?: number;
}

/**
 * Call `stop` once on the first SIGINT or SIGTERM; resolves when it is done.
 * The returned `remove` uninstalls the listeners.
 */
export function onSignals(
  stop: (signal: string) => Promise<void>,
  options: SignalOptions = {},
): {
  stopped: Promise<void>;
  remove: () => void;
} {
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping = false;
  const signals = ["SIGINT", "SIGTERM"] as const;
  const listener = (signal: string) => () => {
    if (stopping) {
      log("warning", `${options.prefix ?? ""}${signal} again: exiting without waiting`);
      Deno.exit(options.exitCode ?? 1);
    }
    stopping = true;
    log(
      "info",
      options.announce?.(signal) ??
        `${signal}: shutting down (requests in flight get ${GRACE_MS / 1000} s)`,
    );
    stop(signal).finally(resolveStopped);
  };
  const installed = signals.map((s) => [s, listener(s)] as const);
  for (const [s, l] of installed) Deno.addSignalListener(s, l);
  return {
    stopped,
    remove: () => {
      for (const [s, l] of installed) Deno.removeSignalListener(s, l);
    },
  };
}

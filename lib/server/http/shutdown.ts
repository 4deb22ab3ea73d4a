/**
 * Graceful shutdown on SIGINT and SIGTERM: stop accepting, let requests in
 * flight finish (up to a grace period), close sessions, then hand over to
 * the caller (who closes SSH connections and exits 0). A second signal
 * exits at once.
 *
 * @module
 */
import { log } from "../../log.ts";

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

/**
 * Call `stop` once on the first SIGINT or SIGTERM; resolves when it is done.
 * The returned `remove` uninstalls the listeners.
 */
export function onSignals(stop: (signal: string) => Promise<void>): {
  stopped: Promise<void>;
  remove: () => void;
} {
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping = false;
  const signals = ["SIGINT", "SIGTERM"] as const;
  const listener = (signal: string) => () => {
    if (stopping) {
      log("warning", `${signal} again: exiting without waiting`);
      Deno.exit(1);
    }
    stopping = true;
    log("info", `${signal}: shutting down (requests in flight get ${GRACE_MS / 1000} s)`);
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

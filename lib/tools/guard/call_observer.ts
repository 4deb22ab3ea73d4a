/**
 * What the guard chain tells an observer (the server's metrics) of every
 * call, direct or nested, in the tools layer's own words: which tool, how
 * the call ended, how long it took, and which guard refused it. The chain
 * calls no observer when none is set: a server without metrics pays one
 * check per call.
 *
 * The tool is named only when it is one of the product's tools, so what a
 * client sends as a name never becomes a value an observer must keep.
 *
 * @module
 */
import { ArgumentError, RouterOsError, UnsupportedError } from "../../routeros/errors.ts";
import { UnsafeInputError } from "../../routeros/quote.ts";
import { SshError } from "../../ssh/errors.ts";
import { type Guard, RefusedError } from "./refusals.ts";

/** How a call ended, one word each. */
export const CALL_RESULTS = [
  "ok",
  "refused",
  "invalid-arguments",
  "unsupported",
  "routeros-error",
  "ssh-error",
  "timeout",
  "cancelled",
  "error",
] as const;

/** How a call ended: ok, refused by a guard, or the kind of its error. */
export type CallResult = typeof CALL_RESULTS[number];

/** Told of every call the guard chain runs. */
export interface CallObserver {
  /**
   * A call ended after `ms`. `tool` is undefined for a name that is no tool
   * of the product (an unknown name a client sent).
   */
  ended(tool: string | undefined, result: CallResult, ms: number): void;
  /** `guard` refused a call (told once, not again by the composite the call was nested in). */
  refused(guard: Guard): void;
}

/** How a call that threw `err` ended (`aborted`: the caller cancelled it). */
export function failedResult(err: unknown, aborted: boolean): CallResult {
  if (err instanceof RefusedError) return "refused";
  if (aborted) return "cancelled";
  if (err instanceof ArgumentError || err instanceof UnsafeInputError) return "invalid-arguments";
  if (err instanceof UnsupportedError) return "unsupported";
  if (err instanceof RouterOsError) return "routeros-error";
  if (err instanceof SshError) return err.kind === "timeout" ? "timeout" : "ssh-error";
  return "error";
}

/** Refusals already told (a nested call's refusal travels up through its composite). */
const told = new WeakSet<RefusedError>();

/** Run one call of `tool` and tell `observer` how it ended and how long it took. */
export async function observed<T>(
  observer: CallObserver,
  tool: string | undefined,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    observer.ended(tool, "ok", performance.now() - started);
    return result;
  } catch (err) {
    if (err instanceof RefusedError && !told.has(err)) {
      told.add(err);
      observer.refused(err.guard);
    }
    observer.ended(tool, failedResult(err, signal?.aborted === true), performance.now() - started);
    throw err;
  }
}

/**
 * The time budget of probes (ping, traceroute): a call that could outlast
 * it, or the device's command timeout, is refused before it is sent.
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";
import type { ToolContext } from "../tool.ts";

/** Longest time a ping or traceroute may take, in milliseconds. */
export const PROBE_BUDGET_MS = 25_000;

/**
 * Refuse a probe that could outlast the budget or the command timeout;
 * `fix` says which argument to lower.
 */
export function checkBudget(
  ctx: ToolContext,
  worstMs: number,
  what: string,
  fix = "lower the count or the interval/timeout",
): void {
  const limit = Math.min(PROBE_BUDGET_MS, ctx.client.target.commandTimeoutMs - 2000);
  if (worstMs > limit) {
    throw new ArgumentError(
      `${what} could take up to ${Math.ceil(worstMs / 1000)} s, more than the ${
        Math.floor(limit / 1000)
      } s allowed (bounded by ${PROBE_BUDGET_MS / 1000} s and --command-timeout); ${fix}`,
    );
  }
}

/** `1000ms` for RouterOS. */
export function ms(value: number): string {
  return `${Math.round(value)}ms`;
}

/** An object without its undefined values. */
export function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

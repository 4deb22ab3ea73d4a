/**
 * The guard chain's series, from its {@linkcode CallObserver}: calls by tool
 * and result, latency by tool, refusals by guard. A call's numbers go into
 * arrays made with the tool's first call (`metrics_counted.ts`): a warm
 * call allocates nothing and calls no library code.
 *
 * The tool label is bounded by the catalogue's names (only those called
 * appear); a name that is no tool is counted as `(unknown)`.
 *
 * @module
 */
import { Counter, type Registry } from "prom-client";
import { CALL_RESULTS, type CallObserver, type CallResult } from "../tools/guard/call_observer.ts";
import type { Guard } from "../tools/guard/refusals.ts";
import {
  type BucketCounts,
  bucketOf,
  countedCounter,
  CountedHistogram,
} from "./metrics_counted.ts";

/** Tool call latency buckets (seconds): 0.5 ms to 60 s. */
export const CALL_BUCKETS = [
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
];

/** The tool label of a call whose name is no tool of the product. */
export const UNKNOWN_TOOL = "(unknown)";

/** Each result's place in a tool's counts. */
const RESULT_INDEX = Object.fromEntries(CALL_RESULTS.map((r, i) => [r, i])) as Record<
  CallResult,
  number
>;

/** One tool's numbers. */
interface ToolStats {
  labels: { tool: string };
  results: Float64Array;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** The guard chain's series; its observer. */
export class CallMetrics implements CallObserver {
  readonly #byTool = new Map<string, ToolStats>();
  readonly #refusals: Counter;
  readonly #byGuard = new Map<Guard, ReturnType<Counter["labels"]>>();

  /** Series named `<prefix>tool_...` and `<prefix>guard_...` in `registry`. */
  constructor(registry: Registry, prefix: string) {
    const tools = () => this.#byTool.values();
    countedCounter(
      {
        name: `${prefix}tool_calls_total`,
        help: "Tool calls through the guard chain (nested ones included), by tool and result",
        labelNames: ["tool", "result"],
      },
      registry,
      function* () {
        for (const s of tools()) {
          for (let i = 0; i < CALL_RESULTS.length; i++) {
            yield { labels: { tool: s.labels.tool, result: CALL_RESULTS[i] }, value: s.results[i] };
          }
        }
      },
    );
    new CountedHistogram(
      {
        name: `${prefix}tool_call_duration_seconds`,
        help: "Tool call latency through the guard chain, by tool",
        labelNames: ["tool"],
        buckets: CALL_BUCKETS,
      },
      registry,
      tools as () => Iterable<BucketCounts>,
    );
    this.#refusals = new Counter({
      name: `${prefix}guard_refusals_total`,
      help: "Calls refused by the guard chain, by the guard that refused",
      labelNames: ["guard"],
      registers: [registry],
    });
  }

  ended(tool: string | undefined, result: CallResult, ms: number): void {
    const name = tool ?? UNKNOWN_TOOL;
    let s = this.#byTool.get(name);
    if (!s) {
      s = {
        labels: { tool: name },
        results: new Float64Array(CALL_RESULTS.length),
        buckets: new Float64Array(CALL_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      this.#byTool.set(name, s);
    }
    const seconds = ms / 1000;
    s.results[RESULT_INDEX[result]]++;
    s.buckets[bucketOf(CALL_BUCKETS, seconds)]++;
    s.sum += seconds;
    s.count++;
  }

  refused(guard: Guard): void {
    let child = this.#byGuard.get(guard);
    if (!child) {
      child = this.#refusals.labels(guard);
      this.#byGuard.set(guard, child);
    }
    child.inc();
  }
}

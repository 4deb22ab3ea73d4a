/**
 * Series whose numbers are kept in plain arrays on the hot path and handed
 * to prom-client at each scrape, which still names, types, escapes and
 * formats them.
 *
 * Why: prom-client's `inc` and `observe` build a label key and check the
 * labels on every call, several times what counting into a preallocated
 * array costs (docs/metrics.md, "What it costs", has the figures and how
 * to measure them). A warm call so pays an array increment and a bucket
 * search, and a scrape pays the rest.
 *
 * @module
 */
import { Counter, Histogram, type MetricType, type Registry } from "prom-client";

/** One histogram series: its labels, counts per bucket (the last: above every bound), sum. */
export interface BucketCounts {
  labels: Record<string, string>;
  buckets: ArrayLike<number>;
  sum: number;
  count: number;
}

/** Where `value` falls among ascending `bounds`: the first bound it does not exceed. */
export function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > bounds[i]) i++;
  return i;
}

type HistogramValues = Awaited<ReturnType<Histogram["get"]>>;

/**
 * A histogram read from counts kept elsewhere: `read` gives every series at
 * each scrape. prom-client's own `observe` is not used.
 */
export class CountedHistogram extends Histogram<string> {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #read: () => Iterable<BucketCounts>;

  constructor(
    config: { name: string; help: string; labelNames: string[]; buckets: number[] },
    registry: Registry,
    read: () => Iterable<BucketCounts>,
  ) {
    super({ ...config, registers: [registry] });
    this.#name = config.name;
    this.#help = config.help;
    this.#bounds = config.buckets;
    this.#read = read;
  }

  /** Every series: cumulative buckets, `+Inf`, sum and count, as prom-client's histograms give them. */
  override get(): Promise<HistogramValues> {
    const values: HistogramValues["values"] = [];
    const bucket = `${this.#name}_bucket`;
    for (const s of this.#read()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += s.buckets[i];
        values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: bucket });
      });
      values.push(
        { labels: { ...s.labels, le: "+Inf" }, value: s.count, metricName: bucket },
        { labels: s.labels, value: s.sum, metricName: `${this.#name}_sum` },
        { labels: s.labels, value: s.count, metricName: `${this.#name}_count` },
      );
    }
    return Promise.resolve({
      name: this.#name,
      help: this.#help,
      // prom-client's types say a number; its registry writes the string it holds.
      type: "histogram" as unknown as MetricType,
      values,
      aggregator: "sum",
      // Read at scrape time already: nothing to collect first.
      collect: () => {},
    });
  }

  /** What prom-client's registry reads to write the text format (its histograms have their own). */
  getForPromString(): Promise<HistogramValues> {
    return this.get();
  }
}

/** One counter series: its labels and its total. */
export interface CountedValue {
  labels: Record<string, string>;
  value: number;
}

/** A counter read from totals kept elsewhere: `read` gives every series at each scrape. */
export function countedCounter(
  config: { name: string; help: string; labelNames: string[] },
  registry: Registry,
  read: () => Iterable<CountedValue>,
): Counter<string> {
  return new Counter({
    ...config,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of read()) if (s.value > 0) this.inc(s.labels, s.value);
    },
  });
}

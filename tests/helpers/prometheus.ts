/**
 * Test helpers: scrape `/metrics` and read it with an independent parser of
 * the Prometheus text format (prom2javascript, not the library that writes
 * it), which refuses a line it cannot parse and a histogram whose `+Inf`
 * bucket is not its count. Samples are looked up by their exact label set.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetrics,
} from "prom2javascript";

/** A histogram's samples. */
export interface HistogramSample {
  count: number;
  sum: number;
  buckets: Record<string, number>;
}

/** One scrape, parsed. */
export class Scrape {
  constructor(readonly text: string, readonly families: PromMetrics) {}

  /** The family's type (counter, gauge, histogram), or undefined when it is absent. */
  type(name: string): string | undefined {
    return this.families[name]?.type;
  }

  /** The value of the counter or gauge sample with exactly `labels` (0 when absent). */
  value(name: string, labels: Record<string, string> = {}): number {
    const family = this.families[name];
    if (!family) return 0;
    assert.notEqual(family.type, "histogram", `${name} is a histogram`);
    const hit = (family.data as PromData[]).find((d) => sameLabels(d.labels, labels));
    return hit?.value ?? 0;
  }

  /** Every label set of a family's samples. */
  labelSets(name: string): Record<string, string>[] {
    return (this.families[name]?.data ?? []).map((d) => d.labels);
  }

  /** The histogram with exactly `labels` (count 0 when absent). */
  histogram(name: string, labels: Record<string, string> = {}): HistogramSample {
    const family = this.families[name];
    const hit = family &&
      (family.data as PromHistogramData[]).find((d) => sameLabels(d.labels, labels));
    return hit
      ? { count: hit.count, sum: hit.sum ?? 0, buckets: hit.buckets }
      : { count: 0, sum: 0, buckets: {} };
  }
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** A sample whose value is NaN, which the format allows (`Nan` too) and the parser does not read. */
const NAN_SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [Nn]a[Nn]$/;

/** Parse a scrape's text; throws on a line the parser cannot read. */
export async function parseScrape(text: string): Promise<Scrape> {
  const lines = text.split("\n").filter((l) => !NAN_SAMPLE.test(l));
  const families = await getMetricsFromIterator(lines[Symbol.iterator]());
  for (const [name, family] of Object.entries(families)) {
    assert.notEqual(family.type, "unknown", `${name} has a # TYPE line`);
  }
  return new Scrape(text, families);
}

/** GET `url` (with a bearer `credential`), expect 200 in the text format, and parse it. */
export async function scrape(url: string, credential?: string): Promise<Scrape> {
  const res = await fetch(url, {
    headers: credential ? { authorization: `Bearer ${credential}` } : {},
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return await parseScrape(text);
}

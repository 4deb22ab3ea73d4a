/**
 * RouterOS releases and release ranges: "7.16.2", "6.49.13", "7.17".
 *
 * Facts about RouterOS that differ between releases (a command, an argument,
 * a value, a print form) are written as {@linkcode ReleaseRange}s over these.
 * This module is pure data and arithmetic: the client and the simulator both
 * use it, so it imports nothing.
 *
 * @module
 */

/** A RouterOS release: `7.16.2` is `{ major: 7, minor: 16, patch: 2 }`. */
export interface Release {
  major: number;
  minor: number;
  patch: number;
  /** As RouterOS prints it, without the channel: `7.16.2`, `6.49.13`, `7.17`. */
  text: string;
}

/**
 * Releases from `from` to `until`, both inclusive and both optional. A bound
 * names a release or a whole minor line: `until: "7.16"` includes 7.16.2,
 * `from: "7.17"` starts at 7.17. `{}` is every release.
 */
export interface ReleaseRange {
  from?: string;
  until?: string;
}

const RELEASE = /^(\d+)\.(\d+)(?:\.(\d+))?(?:(?:beta|rc)\d+)?$/;

/** Parse `7.16.2`, `6.49`, `7.17rc3`; null when it is not a release. */
export function parseRelease(text: string): Release | null {
  const m = RELEASE.exec(text.trim());
  if (!m) return null;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const patch = m[3] === undefined ? 0 : Number(m[3]);
  if (major < 1 || major > 99 || minor > 999 || patch > 999) return null;
  return { major, minor, patch, text: m[0] };
}

/** {@linkcode parseRelease}, throwing a RangeError naming the text. */
export function release(text: string): Release {
  const r = parseRelease(text);
  if (!r) throw new RangeError(`"${text}" is not a RouterOS release such as 7.16.2`);
  return r;
}

/**
 * The release in `/system resource get version` output: `7.16.2 (stable)`,
 * `6.49.13 (long-term)`, `7.17rc3 (testing)`. Null for anything else.
 */
export function releaseOfVersion(output: string): Release | null {
  const m = /^\s*(\d+\.\d+(?:\.\d+)?(?:(?:beta|rc)\d+)?)(?:\s+\([a-z-]+\))?\s*$/.exec(output);
  return m ? parseRelease(m[1]) : null;
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareReleases(a: Release, b: Release): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

function bound(text: string): { r: Release; minorOnly: boolean } {
  return { r: release(text), minorOnly: text.split(".").length === 2 };
}

/** True when `r` lies in `range` (no range: every release). */
export function inRange(r: Release, range: ReleaseRange | undefined): boolean {
  if (!range) return true;
  if (range.from !== undefined && compareReleases(r, bound(range.from).r) < 0) return false;
  if (range.until !== undefined) {
    const u = bound(range.until);
    const c = u.minorOnly ? r.major - u.r.major || r.minor - u.r.minor : compareReleases(r, u.r);
    if (c > 0) return false;
  }
  return true;
}

/** "RouterOS 7.17 or later", "RouterOS up to 7.19", "RouterOS 7.13 to 7.16", "RouterOS 6". */
export function describeRange(range: ReleaseRange): string {
  const { from, until } = range;
  if (from && until) return `RouterOS ${from} to ${until}`;
  if (from) return `RouterOS ${from} or later`;
  if (until) return /^6\.\d+$/.test(until) ? "RouterOS 6" : `RouterOS up to ${until}`;
  return "every RouterOS release";
}

/** The intersection of two ranges (the narrower bound of each side). */
export function intersect(a: ReleaseRange | undefined, b: ReleaseRange | undefined): ReleaseRange {
  const from = [a?.from, b?.from].filter((x): x is string => x !== undefined)
    .sort((x, y) => compareReleases(release(x), release(y))).pop();
  const until = [a?.until, b?.until].filter((x): x is string => x !== undefined)
    .sort((x, y) => compareReleases(release(x), release(y)))[0];
  return { ...(from ? { from } : {}), ...(until ? { until } : {}) };
}

/**
 * The last RouterOS long-term releases this build knows of, for routers
 * that have not checked for updates themselves (the server never reaches
 * the internet). A router's own `/system package update` answer wins over
 * this table; the table may be stale, and the audit says so.
 *
 * Sources (MikroTik publishes the channel's newest release at
 * `https://upgrade.mikrotik.com/routeros/NEWESTa7.long-term` and
 * `.../NEWEST6.long-term`; these are public copies of that data):
 * - 7.23.5 (2026-09-04): the release page of 7.23.5 in
 *   github.com/elseif/MikroTikPatch, which mirrors MikroTik's channel data
 *   ("Channel: long-term"); endoflife.date's RouterOS page (commit
 *   f381a0e) lists 7.21 (7.21.5, 2026-07-06) and 7.20 as the long-term
 *   cycles before it;
 * - 6.49.23 (2026-10-07): the release page of 6.49.23 in the same
 *   repository ("Channel: stable long-term").
 *
 * @module
 */
import { compareReleases, type Release, release } from "./release.ts";

/** One major line's last long-term release. */
export interface LongTermRelease {
  major: number;
  version: string;
  /** Its release date (YYYY-MM-DD). */
  date: string;
  source: string;
}

/** When the table was last brought up to date. */
export const LONG_TERM_AS_OF = "2026-10-07";

/** The last long-term release of each major line. */
export const LONG_TERM: readonly LongTermRelease[] = [
  {
    major: 7,
    version: "7.23.5",
    date: "2026-09-04",
    source: "github.com/elseif/MikroTikPatch release 7.23.5 (a copy of MikroTik's channel data)",
  },
  {
    major: 6,
    version: "6.49.23",
    date: "2026-10-07",
    source: "github.com/elseif/MikroTikPatch release 6.49.23 (a copy of MikroTik's channel data)",
  },
];

/** The last long-term release of `r`'s major line, when `r` is older than it. */
export function olderThanLongTerm(r: Release): LongTermRelease | undefined {
  const lts = LONG_TERM.find((l) => l.major === r.major);
  return lts && compareReleases(r, release(lts.version)) < 0 ? lts : undefined;
}

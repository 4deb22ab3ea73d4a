/**
 * Release ranges the simulator's menus use, and the check against the
 * release a router imitates. Ranges come from the per-release command trees
 * (`../shared/fidelity`) and, for 6.x, MikroTik's documentation.
 *
 * @module
 */
import { inRange, type Release, type ReleaseRange } from "../routeros/release.ts";

/** RouterOS 6 (6.49.x is the last line). */
export const V6: ReleaseRange = { until: "6.49" };
/** RouterOS 7. */
export const V7: ReleaseRange = { from: "7.0" };

/** True when a router of `release` has what `range` covers (no range: every release). */
export function onRelease(release: Release, range: ReleaseRange | undefined): boolean {
  return inRange(release, range);
}

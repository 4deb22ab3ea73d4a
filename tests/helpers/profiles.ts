/**
 * The simulated RouterOS releases the suite runs the catalogue on: one per
 * line of behaviour (see `lib/routeros/dialect.ts` and the README's release
 * table) plus the newest 7.x.
 *
 * @module
 */

/** Every supported release line: 6.49, 7.12, 7.13 to 7.15, 7.16, 7.17, 7.20, newest. */
export const PROFILES = [
  "6.49.13",
  "7.12.2",
  "7.15.3",
  "7.16.2",
  "7.17",
  "7.20.8",
  "7.24",
] as const;

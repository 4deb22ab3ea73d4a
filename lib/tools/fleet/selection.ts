/**
 * Which devices a fleet-wide tool acts on: the titles it was given (any
 * case, each once, in the order given) or the whole inventory, narrowed by
 * tags and region. An unknown title is an argument error that lists the
 * valid ones, before anything is sent to any device.
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";
import type { DeviceInfo } from "../tool.ts";
import { echo } from "../../echo.ts";

/** Unknown titles an error names before it only counts the rest. */
const SHOWN = 3;

/** What a fleet-wide call asked for. */
export interface DeviceChoice {
  devices?: readonly string[];
  tags?: readonly string[];
  region?: string;
}

/** The devices of `all` that `want` names. */
export function chooseDevices(all: readonly DeviceInfo[], want: DeviceChoice): DeviceInfo[] {
  const byTitle = new Map(all.map((d) => [d.title.toLowerCase(), d]));
  const find = (title: string) => byTitle.get(title.trim().toLowerCase());
  const unknown = (want.devices ?? []).filter((t) => !find(t));
  if (unknown.length) {
    // The caller's own text comes back cut (lib/echo.ts): a few excerpts, then a count.
    const shown = unknown.slice(0, SHOWN).map((t) => echo(t)).join(", ") +
      (unknown.length > SHOWN ? ` and ${unknown.length - SHOWN} more` : "");
    throw new ArgumentError(
      `unknown device(s) ${shown}; valid devices: ${all.map((d) => d.title).join(", ")}`,
      "devices",
    );
  }
  const named = want.devices ? [...new Set(want.devices.map((t) => find(t)!))] : all;
  const tags = want.tags ?? [];
  return named.filter((d) =>
    tags.every((t) => d.tags.includes(t)) &&
    (want.region === undefined || d.region === want.region)
  );
}

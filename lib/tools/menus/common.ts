/**
 * Fields and flag maps that many menus share, so each menu states only what
 * is its own.
 *
 * @module
 */
import type { FlagMap } from "../../routeros/parse_terse.ts";
import { type Field, flag, num, state, text } from "../fields.ts";

/** Free-text `comment`. */
export const comment = (): Field =>
  text("Free-text comment (shown as ;;; above the item in RouterOS)");

/** `disabled`: the item is configured but inactive. */
export const disabled = (): Field =>
  flag("Whether the item is disabled (kept in the configuration but not in effect)");

/** Read-only `dynamic`: added by a service, not by configuration. */
export const dynamic = (): Field =>
  state(flag("Whether the item is dynamic (created by a service; not saved, cannot be edited)"));

/** Read-only `invalid`. */
export const invalid = (): Field =>
  state(flag("Whether RouterOS marks the item invalid (e.g. it names a missing interface)"));

/** Read-only `running` of interfaces. */
export const running = (): Field =>
  state(flag("Whether the interface is running (link up and enabled)"));

/** Read-only packet and byte counters of rules. */
export const counters = (): Record<string, Field> => ({
  bytes: state(num("Bytes matched by this item since the counters were reset")),
  packets: state(num("Packets matched by this item since the counters were reset")),
});

/** `X` disabled, `D` dynamic: most configuration lists. */
export const FLAGS_XD: FlagMap = { X: "disabled", D: "dynamic" };
/** `X` disabled, `I` invalid, `D` dynamic: rules and servers. */
export const FLAGS_XID: FlagMap = { X: "disabled", I: "invalid", D: "dynamic" };
/** `X` disabled, `R` running: interfaces of one kind. */
export const FLAGS_XR: FlagMap = { X: "disabled", R: "running" };
/** `X` disabled only. */
export const FLAGS_X: FlagMap = { X: "disabled" };

/**
 * Properties many menus share, declared once: each menu names them
 * instead of repeating their kind and text.
 *
 * @module
 */
import { bool, type Field, int, state, text } from "./field.ts";

/** Free-text `comment` (shown as `;;;` above the item). */
export const comment = (): Field => text("Free-text comment");

/** `disabled`: kept in the configuration but not in effect. */
export const disabled = (): Field => bool("Disabled: kept in the configuration, not in effect");

/** Read-only `dynamic`: added by a service, not saved. */
export const dynamic = (): Field => state(bool("Added by a service (not saved, not editable)"));

/** Read-only `invalid`. */
export const invalid = (): Field => state(bool("Invalid (e.g. it names a missing interface)"));

/** Read-only packet and byte counters of rules and queues. */
export const counters = (): Record<string, Field> => ({
  bytes: state(int("Bytes matched since the counters were reset")),
  packets: state(int("Packets matched since the counters were reset")),
});

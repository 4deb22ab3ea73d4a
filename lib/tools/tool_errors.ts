/**
 * Turn failures into tool error text a person can act on: the device, the
 * operation and the router's own message; never a stack trace or a secret.
 *
 * @module
 */
import { RouterOsError } from "../routeros/errors.ts";
import { UnsafeInputError } from "../routeros/quote.ts";
import { SshError } from "../ssh/errors.ts";

const HINTS: Partial<Record<RouterOsError["kind"], string>> = {
  "permission":
    "the SSH user's group lacks the policy for this; use a user in a write or full group",
  "bad-command": "this RouterOS version or package does not have that menu or command",
  "unparsable": "the answer was not understood, so nothing is assumed",
};

/** The message for a failed tool call on `device`. */
export function toolErrorMessage(err: unknown, tool: string, device?: string): string {
  const on = device ? `device "${device}": ` : "";
  if (err instanceof SshError) {
    const unknown = err.outcomeUnknown && !tool.includes("_list_") && !tool.includes("_get_") &&
        !err.message.includes("outcome is unknown")
      ? " The outcome of this write is unknown: read the item back (list/get tool) before retrying."
      : "";
    return `${tool} failed: ${err.message}.${unknown}`.replace("..", ".");
  }
  if (err instanceof RouterOsError) {
    const hint = HINTS[err.kind];
    return `${on}${tool} failed: ${err.message}${hint ? ` (${hint})` : ""}`;
  }
  if (err instanceof UnsafeInputError) return `${on}${tool} refused: ${err.message}`;
  return `${on}${tool} failed: ${err instanceof Error ? err.message : String(err)}`;
}

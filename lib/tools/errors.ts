/**
 * Failures of tool calls as text a person can act on: the device, the
 * tool and what went wrong, with the guard or the router's own message;
 * never a stack trace or a secret. The one place errors become tool error
 * text (the MCP server and the REST proxy both show this).
 *
 * @module
 */
import { ArgumentError, RouterOsError, UnsupportedError } from "../routeros/errors.ts";
import { UnsafeInputError } from "../routeros/quote.ts";
import { SshError } from "../ssh/errors.ts";
import { RefusedError } from "./guard/refusals.ts";

const HINTS: Partial<Record<RouterOsError["kind"], string>> = {
  "permission":
    "the SSH user's group lacks the policy for this; use a user in a write or full group",
  "bad-command": "this RouterOS release or its packages do not have that menu or command",
  "unparsable": "the answer was not understood, so nothing is assumed",
};

/** The message for a failed call of `tool` on `device`. */
export function errorText(err: unknown, tool: string, device?: string): string {
  const on = device ? `device "${device}": ` : "";
  if (err instanceof SshError) {
    const unknown = err.outcomeUnknown && !err.message.includes("outcome")
      ? " The outcome of this write is unknown: read the item back (list/get tool) before retrying."
      : "";
    return `${on}${tool} failed: ${err.message.replace(/\.$/, "")}.${unknown}`;
  }
  if (err instanceof RouterOsError) {
    const hint = HINTS[err.kind];
    return `${on}${tool} failed: ${err.message}${hint ? ` (${hint})` : ""}`;
  }
  if (err instanceof ArgumentError || err instanceof UnsafeInputError) {
    return `${on}${tool}: invalid arguments: ${err.message}. Nothing was sent.`;
  }
  if (err instanceof UnsupportedError) {
    return `${on}${tool}: ${err.message.replace(/\.$/, "")}. Nothing was sent.`;
  }
  if (err instanceof RefusedError) {
    // Most refusals name the tool themselves ("router_x would cut ...").
    return err.message.startsWith(`${tool} `)
      ? `${on}refused: ${err.message}`
      : `${on}${tool} refused: ${err.message}`;
  }
  return `${on}${tool} failed: ${err instanceof Error ? err.message : String(err)}`;
}

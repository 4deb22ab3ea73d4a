/**
 * Failures of tool calls as text a person can act on: the device, the
 * tool and what went wrong, with the guard or the router's own message;
 * never a stack trace or a secret. The one place errors become tool error
 * text (the MCP server and the REST proxy both show this).
 *
 * @module
 */
import { ArgumentError, RouterOsError, UnsupportedError } from "../routeros/errors.ts";
import { KIND_ADVICE } from "../routeros/error_kinds.ts";
import { UnsafeInputError } from "../routeros/quote.ts";
import { SshError } from "../ssh/errors.ts";
import { RefusedError } from "./guard/refusals.ts";
import { cut } from "../echo.ts";

/**
 * What to check on the router when a connection could not be opened (the
 * SSH layer says what it saw, in its own words; these say what RouterOS
 * does that causes it).
 */
const SSH_HINTS: Partial<Record<SshError["kind"], string>> = {
  "connection-refused": "On the router, check that the ssh service is enabled and on that port " +
    "(/ip service print where name=ssh)",
  "no-answer": "Check the address, and the firewall on the way and on the router " +
    "(/ip firewall filter, chain input)",
  "not-ssh": "The router's ssh service may listen on another port (/ip service print where " +
    "name=ssh)",
  "closed-before-banner": "RouterOS does this to an address that /ip service ssh address= " +
    "leaves out, and beyond the service's max-sessions: check both for this server",
  "handshake-failed": "Check the router's /ip ssh settings (strong-crypto, host-key-type)",
  "auth-failed": "On the router, check /user (its group needs the ssh policy, and its " +
    "address= must include this server) and /user ssh-keys",
};

/**
 * What a failed call did to the router, as the guard chain knows it (from
 * the tool, the commands it sent and where it failed):
 *
 * - `read`: a read or a dry run; it changed nothing.
 * - `unchanged`: a write that certainly changed nothing, and why.
 * - `unknown`: a write that may have been applied; read it back with `readBack`.
 * - `stated`: the error's own message says what was changed (a composite
 *   that rolled its operations back).
 */
export type CallOutcome =
  | { kind: "read"; what: "read" | "dry run" }
  | { kind: "unchanged"; why: "not-sent" | "refused" | "failed-before" }
  | { kind: "unknown"; readBack?: string; partly?: boolean }
  | { kind: "stated" };

const OUTCOMES = new WeakMap<object, CallOutcome>();

/** Record what the failed call that threw `err` did to the router. */
export function noteOutcome(err: unknown, outcome: CallOutcome): void {
  if (typeof err === "object" && err !== null) OUTCOMES.set(err, outcome);
}

/** What the failed call that threw `err` did to the router, when the guard chain noted it. */
export function outcomeOf(err: unknown): CallOutcome | undefined {
  return typeof err === "object" && err !== null ? OUTCOMES.get(err) : undefined;
}

/** The sentence a failure ends with: what it changed, and what to do next. */
export function outcomeSentence(outcome: CallOutcome | undefined, retry: boolean): string {
  switch (outcome?.kind) {
    case "read":
      return ` This ${outcome.what} changed nothing on the router${
        retry ? "; it can be retried" : ""
      }.`;
    case "unchanged":
      return outcome.why === "refused"
        ? " RouterOS refused it, so nothing was changed."
        : outcome.why === "not-sent"
        ? " It was not sent: nothing was changed; it can be retried."
        : " It failed before any change was sent: nothing was changed.";
    case "unknown":
      return ` The outcome of this write is unknown: it may have been ${
        outcome.partly ? "partly " : ""
      }applied. Read it back with ${
        outcome.readBack ?? "the menu's list tool (or router_print)"
      } before retrying.`;
    default:
      return "";
  }
}

/** The message for a failed call of `tool` on `device`. */
export function errorText(err: unknown, tool: string, device?: string): string {
  const on = device ? `device "${cut(device)}": ` : "";
  tool = cut(tool);
  const outcome = outcomeOf(err);
  if (err instanceof SshError) {
    const hint = SSH_HINTS[err.kind];
    return ended(
      ended(`${on}${tool} failed: ${err.message}`, hint ? ` ${hint}.` : ""),
      outcomeSentence(outcome, true),
    );
  }
  if (err instanceof RouterOsError) {
    // A failure carries RouterOS's own reason, and an unparsable answer's
    // outcome sentence says what it means for the call: no advice for those.
    const hint = err.kind === "failure" || err.kind === "unparsable"
      ? undefined
      : KIND_ADVICE[err.kind];
    return ended(
      `${on}${tool} failed: ${err.message}${hint ? ` (${hint})` : ""}`,
      outcomeSentence(outcome, err.kind === "unparsable"),
    );
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
  const message = err instanceof Error ? err.message : String(err);
  return ended(`${on}${tool} failed: ${message}`, outcomeSentence(outcome, false));
}

/** `said`, ended by a full stop, then `sentence` (if any). */
function ended(said: string, sentence: string): string {
  return /[.!?]$/.test(said) ? `${said}${sentence}` : `${said}.${sentence}`;
}

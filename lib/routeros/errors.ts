/**
 * The errors of the RouterOS layer, typed, so each edge (MCP, HTTP, CLI)
 * maps them in one place instead of matching message text:
 *
 * - {@linkcode ArgumentError}: a value the caller gave is wrong; nothing was sent.
 * - {@linkcode UnsupportedError}: the router's release lacks a menu, command,
 *   argument or value; nothing was sent.
 * - {@linkcode RouterOsError}: RouterOS answered with an error, or with
 *   output that is not what was asked for (`kind: "unparsable"`).
 *
 * RouterOS prints errors on stdout and its exit status cannot be trusted, so
 * errors are read from the text (see `shared/routeros-cli.md`).
 *
 * @module
 */
import { errorKindOf, type RouterOsErrorKind } from "./error_kinds.ts";

/** A caller's value is not acceptable; raised before anything is sent. */
export class ArgumentError extends Error {
  /** The argument at fault (tool-side name, e.g. `address`), if one is. */
  readonly argument?: string;

  constructor(message: string, argument?: string) {
    super(argument ? `${argument}: ${message}` : message);
    this.name = "ArgumentError";
    this.argument = argument;
  }
}

/** The router's release lacks what the call needs; raised before anything is sent. */
export class UnsupportedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedError";
  }
}

/** A stable code for each kind of RouterOS error (the table of texts: `error_kinds.ts`). */
export type { RouterOsErrorKind };

/** Where in the sent script RouterOS found the error (`line 1 column 37`). */
export interface ErrorPosition {
  line: number;
  column: number;
}

/** An error RouterOS reported, or output we could not understand. */
export class RouterOsError extends Error {
  readonly kind: RouterOsErrorKind;
  /** RouterOS's own message, verbatim (first lines). */
  readonly routerMessage: string;
  /** The position RouterOS named, if any. */
  readonly position?: ErrorPosition;

  constructor(kind: RouterOsErrorKind, message: string, routerMessage: string) {
    super(message);
    this.name = "RouterOsError";
    this.kind = kind;
    this.routerMessage = routerMessage;
    const at = /\(line (\d+) column (\d+)\)/.exec(routerMessage);
    if (at) this.position = { line: Number(at[1]), column: Number(at[2]) };
  }
}

/**
 * If `text` starts with a RouterOS error message, return its kind (the
 * table of known texts and their sources: `error_kinds.ts`).
 * Returns null for text that is not a known error.
 */
export function classifyError(text: string): RouterOsErrorKind | null {
  return errorKindOf(text);
}

/** The error text trimmed to what a person needs (first few lines). */
export function errorText(output: string): string {
  return output.trim().split("\n").slice(0, 6).join("\n");
}

/** A short excerpt of unexpected output, for error messages. */
export function excerpt(text: string, max = 200): string {
  return text.length > max ? text.slice(0, max) + "..." : text;
}

/** The error for output that is not what was asked for. */
export function unparsable(text: string, why = "unexpected answer from the router"): RouterOsError {
  const shown = excerpt(text.trim());
  return new RouterOsError("unparsable", `${why}: ${JSON.stringify(shown)}`, shown);
}

/** The error for output that is neither data nor a known RouterOS error. */
export function outputError(text: string): RouterOsError {
  const kind = classifyError(text);
  if (kind) return new RouterOsError(kind, errorText(text), errorText(text));
  return unparsable(text);
}

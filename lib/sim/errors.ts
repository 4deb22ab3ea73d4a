/**
 * Errors raised while parsing or running a RouterOS script.
 *
 * `RosError.text` is exactly the line a real router prints (without the
 * trailing newline). Errors with a position get ` (line L column C)` appended.
 *
 * @module
 */

/** An error whose text is printed on stdout, the way RouterOS reports failures. */
export class RosError extends Error {
  /** Printed text, including any `(line L column C)` suffix. */
  readonly text: string;
  /** True for errors detected before anything ran (syntax, unknown commands). */
  readonly parse: boolean;
  constructor(text: string, parse = false) {
    super(text);
    this.text = text;
    this.parse = parse;
  }
}

/** A source position (1-based line and column). */
export interface Pos {
  line: number;
  col: number;
}

/** Formats `text (line L column C)`. */
export function at(text: string, pos: Pos): RosError {
  return new RosError(`${text} (line ${pos.line} column ${pos.col})`, true);
}

/** `syntax error (line L column C)`. */
export function syntaxError(pos: Pos): RosError {
  return at("syntax error", pos);
}

/** `bad command name X (line L column C)`. */
export function badCommand(name: string, pos: Pos): RosError {
  return at(`bad command name ${name}`, pos);
}

/** `expected end of command (line L column C)`. */
export function expectedEnd(pos: Pos): RosError {
  return at("expected end of command", pos);
}

/** `expected command name (line L column C)`. */
export function expectedCommand(pos: Pos): RosError {
  return at("expected command name", pos);
}

/** `bad parameter X (line L column C)`. */
export function badParameter(name: string, pos: Pos): RosError {
  return at(`bad parameter ${name}`, pos);
}

/** A run-time failure printed as is (`failure: ...`, `no such item`...). */
export function fail(text: string): RosError {
  return new RosError(text);
}

/** The error a `read` user gets for any write. */
export const NOT_ENOUGH_PERMISSIONS = "not enough permissions (9)";

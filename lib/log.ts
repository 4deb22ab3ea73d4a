/**
 * stderr logging. stdout belongs to the MCP stdio transport, so nothing
 * here ever writes to it.
 *
 * @module
 */

/** Log levels, least to most severe. */
export const LEVELS = ["debug", "info", "warning", "error"] as const;
/** A log level. */
export type Level = typeof LEVELS[number];

let threshold: Level = "info";
const encoder = new TextEncoder();

/** Set the lowest level that is written. */
export function setLogLevel(level: Level): void {
  threshold = level;
}

/** Write one line to stderr if `level` passes the threshold. */
export function log(level: Level, message: string): void {
  if (LEVELS.indexOf(level) < LEVELS.indexOf(threshold)) return;
  const line = message.startsWith(`${level}:`) ? message : `${level}: ${message}`;
  Deno.stderr.writeSync(encoder.encode(`mcp-server-router ${line}\n`));
}

/**
 * MCP logging of tool calls: each session's client chooses a level with
 * `logging/setLevel` (default `info`), and tool calls report on the stream
 * of the request they belong to. Only the tool, the device, the outcome and
 * the duration are logged, never arguments (they may hold secrets).
 *
 * @module
 */
import { cut } from "../echo.ts";
import type { Server } from "../mcp_sdk/server.ts";
import { type LoggingLevel, LoggingLevelSchema, SetLevelRequestSchema } from "../mcp_sdk/types.ts";

/** The part of a request handler's `extra` that logging needs. */
export interface LogSink {
  sendNotification: (n: {
    method: "notifications/message";
    params: { level: LoggingLevel; logger: string; data: unknown };
  }) => Promise<void>;
}

const ORDER: readonly string[] = LoggingLevelSchema.options;

/** Logger name in `notifications/message`. */
export const LOGGER = "mcp-server-router";

const logs = new WeakMap<Server, ToolLog>();

/** Tool-call logging for one MCP server (one session). */
export class ToolLog {
  // Nothing below warning until the client asks (logging/setLevel): a
  // notification per call costs the client tokens and us time.
  #threshold: LoggingLevel = "warning";

  /** The server's tool log, created (with its `logging/setLevel` handler) on first use. */
  static of(server: Server): ToolLog {
    let log = logs.get(server);
    if (!log) {
      log = new ToolLog(server);
      logs.set(server, log);
    }
    return log;
  }

  /** Installs the `logging/setLevel` handler on `server`. */
  constructor(server: Server) {
    server.setRequestHandler(
      SetLevelRequestSchema,
      (request: { params: { level: LoggingLevel } }) => {
        this.#threshold = request.params.level;
        return {};
      },
    );
  }

  /** The level below which messages are dropped. */
  get level(): LoggingLevel {
    return this.#threshold;
  }

  /** Send `data` at `level` on the request's stream if the level passes. */
  send(sink: LogSink, level: LoggingLevel, data: Record<string, unknown>): void {
    if (ORDER.indexOf(level) < ORDER.indexOf(this.#threshold)) return;
    sink.sendNotification({
      method: "notifications/message",
      params: { level, logger: LOGGER, data },
    })
      .catch(() => {}); // the client went away: nothing to tell
  }

  /** A tool call starts (debug). */
  started(sink: LogSink, tool: string, device: string | undefined): void {
    this.send(sink, "debug", {
      event: "tool-call",
      tool: cut(tool),
      ...(device ? { device: cut(device) } : {}),
    });
  }

  /** A tool call ends, well (info) or with an error message (warning). */
  finished(
    sink: LogSink,
    tool: string,
    device: string | undefined,
    startedAt: number,
    error?: string,
  ): void {
    const durationMs = Math.round(performance.now() - startedAt);
    const where = device ? { device: cut(device) } : {};
    tool = cut(tool);
    if (error === undefined) {
      this.send(sink, "info", { event: "tool-result", tool, ...where, ok: true, durationMs });
    } else {
      this.send(sink, "warning", {
        event: "tool-result",
        tool,
        ...where,
        ok: false,
        durationMs,
        error,
      });
    }
  }
}

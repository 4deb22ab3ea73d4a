/**
 * One REST tool call: arguments checked against the tool's input schema
 * (422), the call made with the configured timeout, and its outcome turned
 * into HTTP: 200 with the result, 502 when the tool reports an error, 503
 * when the server is down, 504 when it does not answer in time.
 *
 * @module
 */
import { type CallToolResult, ErrorCode, McpError, type Tool } from "../mcp_sdk/types.ts";
import { ChildUnavailableError, type McpChild, mcpCode } from "./children.ts";
import { HttpError, jsonResponse } from "./errors.ts";
import { checkArguments } from "./validate.ts";

/** Call `tool` of `child` with `args` and answer in HTTP terms. */
export async function callToolOverHttp(
  child: McpChild,
  tool: Tool,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<Response> {
  const where = `${child.name}/${tool.name}`;
  if (child.state !== "up") throw unavailable(child, where);
  const errors = checkArguments(tool, args);
  if (errors.length) {
    throw new HttpError(
      422,
      "invalid_arguments",
      `${where}: ${errors.map((e) => `${e.field || "arguments"} ${e.message}`).join("; ")}`,
      { errors },
    );
  }
  let result: CallToolResult;
  try {
    result = await child.callTool(tool.name, args, timeoutMs);
  } catch (err) {
    if (err instanceof ChildUnavailableError) throw unavailable(child, where, err);
    const code = mcpCode(err);
    if (err instanceof McpError && code === ErrorCode.RequestTimeout) {
      throw new HttpError(
        504,
        "tool_timeout",
        `${where} did not answer within ${timeoutMs / 1000} s (--tool-timeout)`,
        { timeoutSeconds: timeoutMs / 1000 },
      );
    }
    const message = err instanceof Error ? err.message : String(err);
    if (code === ErrorCode.InvalidParams) {
      throw new HttpError(422, "invalid_arguments", `${where}: ${message}`, {
        errors: [{ field: "", pointer: "", message, keyword: "server" }],
      });
    }
    throw new HttpError(
      502,
      "mcp_error",
      `${where}: the server answered with an error: ${message}`,
      {
        mcpCode: code ?? null,
      },
    );
  }
  if (result.isError) {
    const text = textOf(result);
    throw new HttpError(502, "tool_error", text || `${where} reported an error`, {
      server: child.name,
      tool: tool.name,
      content: contentOf(result),
    });
  }
  return jsonResponse(200, resultBody(result));
}

/** The 200 body: structured content when given, else the content (text parsed as JSON if it is). */
export function resultBody(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return result.structuredContent;
  }
  const items = contentOf(result).map((item) => {
    if (item.type !== "text" || typeof item.text !== "string") return item;
    try {
      return JSON.parse(item.text);
    } catch {
      return item.text;
    }
  });
  return items.length === 0 ? null : items.length === 1 ? items[0] : items;
}

function textOf(result: CallToolResult): string {
  return contentOf(result).filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text).join("\n").trim();
}

/** A content item as far as the proxy looks into it. */
interface ContentItem {
  type: string;
  text?: string;
  [key: string]: unknown;
}

function contentOf(result: CallToolResult): ContentItem[] {
  return Array.isArray(result.content) ? result.content as ContentItem[] : [];
}

function unavailable(child: McpChild, where: string, err?: ChildUnavailableError): HttpError {
  const status = child.status();
  const retry = err?.retryInSeconds ?? status.retryInSeconds;
  return new HttpError(
    503,
    "server_unavailable",
    err?.message ?? `${where}: server ${child.name} is ${status.state}; try again shortly`,
    { server: child.name, state: status.state, retryInSeconds: retry },
    { "retry-after": String(Math.max(1, retry ?? 1)) },
  );
}

/**
 * One REST tool call: arguments checked against the tool's input schema
 * (422), the call made with the configured timeout, and its outcome turned
 * into HTTP: 200 with the result, 422 (or 404) when the server refuses the
 * arguments (or does not know the tool), 502 when the tool reports an
 * error, 503 when the server is down, 504 when it does not answer in time.
 * A caller's mistake is never a 502: the MCP SDK reports a refused argument
 * as a tool error ("MCP error -32602: ..."), which is recognised here, and
 * this server marks the failures its guard chain refused
 * (`lib/refusal_meta.ts`): 403 for a role, scope or policy refusal, 409 for
 * a call that needs `confirm: true`, 422 for a refused argument.
 *
 * @module
 */
import { type CallToolResult, ErrorCode, McpError, type Tool } from "../mcp_sdk/types.ts";
import { ChildUnavailableError, type McpChild, mcpCode } from "./children.ts";
import { HttpError } from "../http/errors.ts";
import { jsonResponse } from "../http/responses.ts";
import { checkArguments } from "./validate.ts";
import { redactUrls } from "./url_redact.ts";
import type { Principal } from "../auth/principal.ts";
import { type Refusal, refusalOf } from "../refusal_meta.ts";

/** Call `tool` of `child` with `args` and answer in HTTP terms. */
export async function callToolOverHttp(
  child: McpChild,
  tool: Tool,
  args: Record<string, unknown>,
  timeoutMs: number,
  principal?: Principal,
): Promise<Response> {
  const where = `${child.name}/${tool.name}`;
  if (child.state !== "up") throw unavailable(child, where);
  const errors = checkArguments(tool, args);
  if (errors.length) {
    throw new HttpError(
      422,
      "invalid_arguments",
      `${where}: ${errors.map((e) => `${e.field || "arguments"} ${e.message}`).join("; ")}`,
      { details: { errors } },
    );
  }
  let result: CallToolResult;
  try {
    result = await child.callTool(tool.name, args, timeoutMs, principal);
  } catch (err) {
    if (err instanceof ChildUnavailableError) throw unavailable(child, where, err);
    const code = mcpCode(err);
    if (err instanceof McpError && code === ErrorCode.RequestTimeout) {
      throw new HttpError(
        504,
        "tool_timeout",
        `${where} did not answer within ${timeoutMs / 1000} s (--tool-timeout)`,
        { details: { timeoutSeconds: timeoutMs / 1000 } },
      );
    }
    const message = redactUrls(err instanceof Error ? err.message : String(err));
    if (code === ErrorCode.InvalidParams) throw refused(child, tool, message);
    throw new HttpError(
      502,
      "mcp_error",
      `${where}: the server answered with an error: ${message}`,
      { details: { mcpCode: code ?? null } },
    );
  }
  if (result.isError) {
    const text = textOf(result);
    if (SDK_INVALID_PARAMS.test(text)) throw refused(child, tool, text);
    const refusal = refusalOf(result._meta);
    if (refusal) throw refusedByGuard(child, tool, refusal, text, contentOf(result));
    throw new HttpError(502, "tool_error", text || `${where} reported an error`, {
      details: { server: child.name, tool: tool.name, content: contentOf(result) },
    });
  }
  return jsonResponse(200, resultBody(result));
}

/** How the MCP SDK words an `InvalidParams` error it returns as a tool error. */
const SDK_INVALID_PARAMS = /^MCP error -32602: /;

/** The server refused the call as the caller's mistake: an unknown tool (404) or bad arguments (422). */
function refused(child: McpChild, tool: Tool, message: string): HttpError {
  const where = `${child.name}/${tool.name}`;
  const text = message.replace(SDK_INVALID_PARAMS, "");
  if (/^Tool \S+ (not found|disabled)$/.test(text)) {
    return new HttpError(
      404,
      "unknown_tool",
      `${where}: the server says: ${text}; GET /${child.name} lists the tools`,
      { details: { server: child.name, tools: child.tools.map((t) => t.name) } },
    );
  }
  return new HttpError(422, "invalid_arguments", `${where}: ${text}`, {
    details: { errors: [{ field: "", pointer: "", message: text, keyword: "server" }] },
  });
}

/** The HTTP answer to each refusal of the server's guard chain (`refused` for one not listed). */
const REFUSAL_ANSWERS: Record<string, [403 | 409 | 422 | 503, string]> = {
  role: [403, "forbidden"],
  scope: [403, "forbidden"],
  selection: [403, "forbidden"],
  "read-only": [403, "forbidden"],
  "read-only-device": [403, "forbidden"],
  secrets: [403, "forbidden"],
  confirm: [409, "confirmation_required"],
  lockout: [409, "confirmation_required"],
  // A clock write while a revert job is armed: it may be sent once the change is committed.
  "pending-change": [409, "pending_change"],
  "dry-run": [422, "invalid_arguments"],
  arguments: [422, "invalid_arguments"],
  // The server's audit log cannot take the write: the server's state, not the caller's request.
  audit: [503, "audit_unavailable"],
};

/** A call the server's guard chain refused (nothing was changed), in HTTP terms. */
function refusedByGuard(
  child: McpChild,
  tool: Tool,
  refusal: Refusal,
  text: string,
  content: ContentItem[],
): HttpError {
  const [status, code] = REFUSAL_ANSWERS[refusal.kind] ?? [403, "refused"];
  const message = text || `${child.name}/${tool.name} was refused (${refusal.kind})`;
  const field = refusal.argument ?? "";
  const details = status === 422
    ? {
      errors: [{ field, pointer: field ? `/${field}` : "", message, keyword: "server" }],
      refusal: refusal.kind,
    }
    : { server: child.name, tool: tool.name, refusal: refusal.kind, content };
  return new HttpError(status, code, message, { details });
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
    {
      details: { server: child.name, state: status.state, retryInSeconds: retry },
      headers: { "retry-after": String(Math.max(1, retry ?? 1)) },
    },
  );
}

/**
 * Reading a tool call's body: JSON media type (415 otherwise), at most
 * `maxBytes` (413, checked on the header and again while streaming), valid
 * UTF-8 JSON (400 with line and column) holding an object (400).
 *
 * Requiring `application/json` also means a browser on another site cannot
 * post here without a CORS preflight, which only allowed origins pass.
 *
 * @module
 */
import { HttpError } from "./errors.ts";
import { parseJson } from "../http/json_location.ts";

/** The default body limit: 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Whether a Content-Type header names JSON (`application/json`, `...+json`), UTF-8 if a charset. */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(";").map((s) => s.trim().toLowerCase());
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) return false;
  const charset = params.find((p) => p.startsWith("charset="))?.slice(8).replace(/"/g, "");
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

/** Read the request body as a JSON object of tool arguments. */
export async function readJsonObject(
  req: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    await req.body?.cancel();
    throw new HttpError(
      415,
      "unsupported_media_type",
      "send the arguments as JSON with the header Content-Type: application/json",
      { contentType: req.headers.get("content-type") },
    );
  }
  const bytes = await readLimited(req, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "invalid_json", "the body is not valid UTF-8");
  }
  if (text.trim() === "") {
    throw new HttpError(
      400,
      "invalid_json",
      "the body is empty; send {} for a tool without arguments",
    );
  }
  const parsed = parseJson(text);
  if ("error" in parsed) {
    const { line, column, message } = parsed.error;
    throw new HttpError(
      400,
      "invalid_json",
      `the body is not valid JSON: ${message} at line ${line} column ${column}`,
      { line, column },
    );
  }
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(
      400,
      "not_an_object",
      `the body must be a JSON object of arguments (use {} for none), not ${describe(value)}`,
    );
  }
  return value as Record<string, unknown>;
}

async function readLimited(req: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new HttpError(
      413,
      "payload_too_large",
      `the body is larger than ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(0)} MiB)`,
      { limitBytes: maxBytes },
    );
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await req.body?.cancel();
    throw tooLarge();
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

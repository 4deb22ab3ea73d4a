/**
 * Response builders shared by the MCP transports and the REST proxy.
 *
 * @module
 */

/** A `text/plain` response. */
export function plainText(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}

/** A JSON response that caches nowhere. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}

/** `res` with `headers` set (a response's own headers may be immutable). */
export function withHeaders(
  res: Response,
  edit: (headers: Headers) => void,
): Response {
  const headers = new Headers(res.headers);
  edit(headers);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/** The answer to a HEAD request: the GET answer without its body. */
export async function headOf(res: Response): Promise<Response> {
  await res.body?.cancel();
  return new Response(null, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

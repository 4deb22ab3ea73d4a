/**
 * URLs in a child's error text cut to their origin. The fetch error of a
 * remote child quotes its URL whole ("error sending request for url
 * (https://user:pass@host/mcp?api_key=...)"), and hosted MCP servers take
 * their credential in the userinfo, the query, or the path itself (Zapier's
 * `https://mcp.zapier.com/api/mcp/s/<secret>/mcp`, per-user tokens of
 * others); the proxy logs these errors and returns them to callers, so
 * every one passes here first.
 *
 * The path goes too, whole: no rule tells a token segment from a word (a
 * short token passes any length or entropy test), and the error is always
 * shown with the child's name (in `/health`, the log, a `502`), which with
 * the origin says which server failed; the operator has the whole URL in
 * the configuration.
 *
 * @module
 */

/** A URL with a scheme and `//`, up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'<>`]+/g;

/** Punctuation that ends a sentence or closes a bracket around a URL rather than belonging to it. */
const TRAILING = /[).,;:!\]}]+$/;

/** `text` with each URL in it reduced to its origin: no userinfo, path, query or fragment. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const tail = TRAILING.exec(found)?.[0] ?? "";
    const url = tail ? found.slice(0, -tail.length) : found;
    return originOf(url) + tail;
  });
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    // Not parseable: keep the scheme and what follows the last `@` up to a
    // `/` (a password may hold a `/`, so the `@` is looked for first).
    const scheme = url.indexOf("://") + 3;
    const rest = url.slice(scheme).replace(/[?#].*$/, "");
    return url.slice(0, scheme) + rest.slice(rest.lastIndexOf("@") + 1).replace(/\/.*$/, "");
  }
}

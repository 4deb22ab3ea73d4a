/**
 * URLs in a child's error text cut to their origin and path. The fetch
 * error of a remote child quotes its URL whole ("error sending request for
 * url (https://user:pass@host/mcp?api_key=...)"), and hosted MCP servers
 * take their credential in the query or the userinfo; the proxy logs these
 * errors and returns them to callers, so every one passes here first.
 *
 * @module
 */

/** A URL with a scheme and `//`, up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'<>`]+/g;

/** Punctuation that ends a sentence or closes a bracket around a URL rather than belonging to it. */
const TRAILING = /[).,;:!\]}]+$/;

/** `text` with each URL in it reduced to origin and path: no userinfo, no query, no fragment. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const tail = TRAILING.exec(found)?.[0] ?? "";
    const url = tail ? found.slice(0, -tail.length) : found;
    return originAndPath(url) + tail;
  });
}

function originAndPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" && !/\/$/.test(url) ? "" : u.pathname}`;
  } catch {
    // Not parseable: cut what could hold a credential by hand.
    const scheme = url.indexOf("://") + 3;
    const rest = url.slice(scheme).replace(/[?#].*$/, "");
    const at = rest.lastIndexOf("@", rest.indexOf("/") < 0 ? rest.length : rest.indexOf("/"));
    return url.slice(0, scheme) + (at >= 0 ? rest.slice(at + 1) : rest);
  }
}

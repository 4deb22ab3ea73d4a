/**
 * Host and Origin allow-lists: parsing the configured entries and matching
 * request headers against them. Host names compare case-insensitively and
 * whole (`evil.com` never matches `localhost.evil.com`); `:*` allows any
 * port or none; an entry without a port matches only a header without one
 * (for origins, the scheme's default port counts as none).
 *
 * @module
 */

/** One allowed host or origin. */
export interface Pattern {
  /** Scheme, for origins only (`http`, `https`, ...). */
  scheme?: string;
  /** Lower-case host name, IPv4 address or bracketed IPv6 address. */
  host: string;
  /** A port, `*` for any port or none, or null for none. */
  port: number | "*" | null;
}

/** A parsed allow-list: `any` when a lone `*` turns the check off. */
export interface AllowList {
  any: boolean;
  patterns: Pattern[];
}

/** Thrown for an entry that is not a host or origin pattern. */
export class AllowListError extends Error {}

const HOST = String.raw`(\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)`;
const HOST_ENTRY = new RegExp(`^${HOST}(?::(\\d{1,5}|\\*))?$`);
const HOST_HEADER = new RegExp(`^${HOST}(?::(\\d{1,5}))?$`);
const ORIGIN_ENTRY = new RegExp(`^([a-z][a-z0-9+.-]*)://${HOST}(?::(\\d{1,5}|\\*))?/?$`);
const ORIGIN_HEADER = new RegExp(`^([a-z][a-z0-9+.-]*)://${HOST}(?::(\\d{1,5}))?$`);
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** Hosts allowed when no list is configured: local access only. */
export const LOCAL_HOSTS: readonly string[] = ["localhost:*", "127.0.0.1:*", "[::1]:*"];
/** Origins allowed when no list is configured: local pages only. */
export const LOCAL_ORIGINS: readonly string[] = [
  "http://localhost:*",
  "http://127.0.0.1:*",
  "http://[::1]:*",
];

function port(raw: string | undefined): number | "*" | null {
  if (raw === undefined) return null;
  if (raw === "*") return "*";
  const n = Number(raw);
  if (n < 1 || n > 65535) throw new AllowListError(`port ${raw} is out of range`);
  return n;
}

/** A bare IPv6 address (`::1`) is taken as its bracketed form. */
function bracketIpv6(entry: string): string {
  return !entry.startsWith("[") && (entry.match(/:/g)?.length ?? 0) >= 2 && !entry.includes("//")
    ? `[${entry}]`
    : entry;
}

/** Parse Host entries (`host`, `host:8000`, `host:*`, `[::1]:*`, or a lone `*`). */
export function parseHosts(entries: readonly string[]): AllowList {
  const list: AllowList = { any: false, patterns: [] };
  for (const raw of entries) {
    const entry = bracketIpv6(raw.trim().toLowerCase());
    if (entry === "*") {
      list.any = true;
      continue;
    }
    const m = HOST_ENTRY.exec(entry);
    if (!m) {
      throw new AllowListError(
        `"${raw}" is not a host entry; use host, host:port, host:* or [::1]:* (no scheme, no path)`,
      );
    }
    list.patterns.push({ host: m[1], port: port(m[2]) });
  }
  return list;
}

/** Parse Origin entries (`https://app.example.com`, `http://localhost:*`, or a lone `*`). */
export function parseOrigins(entries: readonly string[]): AllowList {
  const list: AllowList = { any: false, patterns: [] };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === "*") {
      list.any = true;
      continue;
    }
    const m = ORIGIN_ENTRY.exec(entry);
    if (!m) {
      throw new AllowListError(
        `"${raw}" is not an origin; use scheme://host or scheme://host:port, port * for any ` +
          `(such as https://app.example.com)`,
      );
    }
    const p = port(m[3]);
    list.patterns.push({ scheme: m[1], host: m[2], port: p === DEFAULT_PORTS[m[1]] ? null : p });
  }
  return list;
}

function portMatches(pattern: Pattern["port"], actual: number | null): boolean {
  return pattern === "*" || pattern === actual;
}

/** Whether a Host header value is allowed (a missing header never is, unless `any`). */
export function hostAllowed(list: AllowList, header: string | null): boolean {
  if (list.any) return true;
  if (header === null) return false;
  const m = HOST_HEADER.exec(header.trim().toLowerCase());
  if (!m) return false;
  const actual = m[2] === undefined ? null : Number(m[2]);
  return list.patterns.some((p) => p.host === m[1] && portMatches(p.port, actual));
}

/** Whether an Origin header value is allowed (`null` and malformed origins never are, unless `any`). */
export function originAllowed(list: AllowList, header: string): boolean {
  if (list.any) return true;
  const m = ORIGIN_HEADER.exec(header.trim().toLowerCase());
  if (!m) return false;
  const [, scheme, host, rawPort] = m;
  const explicit = rawPort === undefined ? null : Number(rawPort);
  const actual = explicit === DEFAULT_PORTS[scheme] ? null : explicit;
  return list.patterns.some((p) =>
    p.scheme === scheme && p.host === host && portMatches(p.port, actual)
  );
}

/**
 * Whether `origin` is the very place the request was sent to: its host and
 * port equal the `Host` header's (the page was served from this server).
 * Only meaningful once the Host guard has checked `host` against its list.
 */
export function sameOrigin(origin: string, host: string | null): boolean {
  if (host === null) return false;
  const o = ORIGIN_HEADER.exec(origin.trim().toLowerCase());
  const h = HOST_HEADER.exec(host.trim().toLowerCase());
  if (!o || !h || (o[1] !== "http" && o[1] !== "https")) return false;
  const defaultPort = DEFAULT_PORTS[o[1]];
  const originPort = o[3] === undefined ? defaultPort : Number(o[3]);
  const hostPort = h[2] === undefined ? defaultPort : Number(h[2]);
  return o[2] === h[1] && originPort === hostPort;
}

/** Whether a listen address (or a peer's address) is this machine's loopback. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/^::ffff:(?=127\.)/, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether a Host header names this machine's loopback (`localhost:8000`, `[::1]`, `127.0.0.1`). */
export function hostIsLoopback(header: string | null): boolean {
  if (header === null) return false;
  const m = HOST_HEADER.exec(header.trim().toLowerCase());
  return m !== null && isLoopback(m[1]);
}

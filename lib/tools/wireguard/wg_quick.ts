/**
 * The values a wg-quick file may hold, checked before they are written:
 * whoever brings the file up runs it through wg-quick, which runs its
 * `PreUp`/`PostUp` lines through bash as root, so a value with a line
 * break could add such a line. Each value is what its key takes (an
 * address or prefix, a DNS server or search domain, an endpoint host, a
 * key) and no line holds a control character, whether the value came from
 * the caller or from the router (a peer's `client-*` defaults are free text
 * an `operate` key can set).
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";
import { echo } from "../../echo.ts";

/** A DNS host name: labels of letters, digits, `-` and `_`, dot-separated, at most 253 characters. */
export function isHostName(text: string): boolean {
  return text.length <= 253 &&
    /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?$/.test(text);
}

/** An IPv4 or IPv6 address, with an optional prefix length (`10.66.0.2/32`, `::/0`). */
export function isAddressOrPrefix(text: string): boolean {
  const [address, length, extra] = text.split("/");
  if (extra !== undefined) return false;
  const max = isIpv4(address) ? 32 : isIpv6(address) ? 128 : -1;
  if (max < 0) return false;
  return length === undefined || (/^\d{1,3}$/.test(length) && Number(length) <= max);
}

/** A DNS server (an address) or a search domain (a host name), as wg-quick's `DNS` takes them. */
export function isDnsEntry(text: string): boolean {
  return isIpv4(text) || isIpv6(text) || isHostName(text);
}

/** An endpoint host: a host name, an IPv4 address, or an IPv6 address (bracketed or not). */
export function isEndpointHost(text: string): boolean {
  const bare = /^\[(.*)\]$/.exec(text)?.[1] ?? text;
  return isIpv4(bare) || isIpv6(bare) || (bare === text && isHostName(text));
}

/** The host as an endpoint writes it: an IPv6 address in brackets. */
export function endpointHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * `values` checked by `ok`: each is what the key takes, or an argument
 * error names `argument`, the value and where it came from (`from`: the
 * router property it was read from, when it was not given).
 */
export function checked(
  values: readonly string[],
  ok: (value: string) => boolean,
  argument: string,
  what: string,
  from?: string,
): string[] {
  const bad = values.find((v) => !ok(v));
  if (bad === undefined) return [...values];
  throw new ArgumentError(
    from
      ? `the peer's ${from} on the router, ${echo(bad)}, is not ${what}; nothing was written ` +
        `(give ${argument} to use another value, and fix ${from} on the router)`
      : `${echo(bad)} is not ${what}`,
    argument,
  );
}

/** A character no wg-quick line may hold: C0 and C1 controls, DEL, line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** The file from its lines, each refused when it holds a control character (fail closed). */
export function wgQuickFile(lines: readonly string[]): string {
  const bad = lines.find((l) => CONTROL.test(l));
  if (bad !== undefined) {
    throw new Error(
      `a wg-quick line holds a control character (${echo(bad)}); a value was not checked`,
    );
  }
  return lines.join("\n") + "\n";
}

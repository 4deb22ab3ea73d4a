/**
 * The text forms of IP addresses: whether a string is an IPv4 address
 * (dotted quad) or an IPv6 address (any RFC 4291 form). One module for the
 * argument checks (`schema/validate.ts`), the client, prefix arithmetic and
 * the tools that tell an address from a name.
 *
 * @module
 */

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** True for a dotted-quad IPv4 address. */
export function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** True for an IPv6 address in any RFC 4291 text form (with an embedded IPv4 tail too). */
export function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(text)) return false;
  let s = text;
  const last = s.lastIndexOf(":");
  const tail = s.slice(last + 1);
  if (tail.includes(".")) {
    if (!isIpv4(tail)) return false;
    s = s.slice(0, last + 1) + "0:0"; // the IPv4 tail stands for two groups
  }
  const halves = s.split("::");
  if (halves.length > 2) return false;
  const hex = /^[0-9A-Fa-f]{1,4}$/;
  const groups = (p: string) => (p === "" ? [] : p.split(":"));
  if (halves.length === 1) {
    const g = groups(s);
    return g.length === 8 && g.every((x) => hex.test(x));
  }
  const [l, r] = [groups(halves[0]), groups(halves[1])];
  return [...l, ...r].every((x) => hex.test(x)) && l.length + r.length <= 7;
}

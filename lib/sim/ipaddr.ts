/**
 * IPv4/IPv6 address helpers for validation and derived properties.
 *
 * @module
 */

/** Parses a dotted IPv4 address into a 32-bit number, or null. */
export function parseIp4(s: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const o = Number(m[i]);
    if (o > 255) return null;
    n = n * 256 + o;
  }
  return n;
}

/** Formats a 32-bit number as dotted IPv4. */
export function fmtIp4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Parses `a.b.c.d[/len]` (len defaults to 32). */
export function parsePrefix4(s: string): { ip: number; len: number } | null {
  const [a, l, ...rest] = s.split("/");
  if (rest.length) return null;
  const ip = parseIp4(a);
  if (ip === null) return null;
  let len = 32;
  if (l !== undefined) {
    if (/^\d{1,2}$/.test(l)) len = Number(l);
    else {
      const mask = parseIp4(l);
      if (mask === null) return null;
      const bits = mask.toString(2).padStart(32, "0");
      if (!/^1*0*$/.test(bits)) return null;
      len = bits.indexOf("0") === -1 ? 32 : bits.indexOf("0");
    }
    if (len > 32) return null;
  }
  return { ip, len };
}

/** Network address of ip/len. */
export function network4(ip: number, len: number): number {
  if (len === 0) return 0;
  const mask = (0xffffffff << (32 - len)) >>> 0;
  return (ip & mask) >>> 0;
}

/** True for a valid IPv6 address (no prefix). */
export function isIp6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(":")) return false;
  const dbl = s.split("::");
  if (dbl.length > 2) return false;
  const groups = (p: string) => (p === "" ? [] : p.split(":"));
  const all = dbl.flatMap(groups);
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g) && parseIp4(g) === null)) return false;
  return dbl.length === 2 ? all.length < 8 : all.length === 8;
}

/** True for `addr6[/len]`. */
export function isPrefix6(s: string): boolean {
  const [a, l, ...rest] = s.split("/");
  if (rest.length) return false;
  if (l !== undefined && !(/^\d{1,3}$/.test(l) && Number(l) <= 128)) return false;
  return isIp6(a);
}

/** True for `AA:BB:CC:DD:EE:FF`. */
export function isMac(s: string): boolean {
  return /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/.test(s);
}

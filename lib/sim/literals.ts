/**
 * Unquoted words used as script values get a type, as on a real router:
 * `1234` is a `num`, `1s` a `time`, `1.1` an `ip` (`1.0.0.1`), `1::1` an
 * `ip6`, `1.0.0.1/31` an `ip-prefix`, `1::1/69` an `ip6-prefix` (`1::/69`);
 * anything else stays a `str`. The examples are those of a real array
 * literal and its `:typeof`/`:serialize` output
 * (real-output/json-serialize-type-mapping-forum.txt); `:local a 1234`
 * giving `num` is the Scripting manual's rule that unquoted digits are a
 * number.
 *
 * @module
 */
import { numOf, Time, Typed, type Val } from "./values.ts";
import { parseTimeNs } from "./timefmt.ts";

/** IPv4 the way `inet_aton` reads it: `1.1` is `1.0.0.1`, `1.2.3` is `1.2.0.3`. */
function ip4(s: string): string | null {
  const parts = s.split(".");
  if (parts.length < 2 || parts.length > 4 || parts.some((p) => !/^\d{1,10}$/.test(p))) {
    return null;
  }
  const nums = parts.map(Number);
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  let n = last;
  nums.forEach((x, i) => (n += x * 256 ** (3 - i)));
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Eight 16-bit groups of an IPv6 address, or null. */
function ip6Groups(s: string): number[] | null {
  if (!/^[0-9a-fA-F:]+$/.test(s) || !s.includes(":")) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (p: string) => (p === "" ? [] : p.split(":"));
  const head = groups(halves[0]), tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...tail];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  if (halves.length === 2 ? all.length > 7 : all.length !== 8) return null;
  const zeros = new Array(8 - all.length).fill("0");
  return [...head, ...(halves.length === 2 ? zeros : []), ...tail].map((g) => parseInt(g, 16));
}

/** IPv6 text with the longest run of zero groups written `::`. */
function fmtIp6(g: number[]): string {
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(":");
  return hex.slice(0, best).join(":") + "::" + hex.slice(best + bestLen).join(":");
}

/**
 * The typed value of an unquoted word. A word with commas is a list of
 * such values: `:serialize value=a,b,c to=json` prints `["a","b","c"]`
 * (real-output/json-serialize-deserialize-docs.txt).
 */
export function literal(word: string): Val {
  if (word.includes(",")) return word.split(",").map(literal);
  if (/^-?\d+$/.test(word)) return numOf(word);
  const ns = parseTimeNs(word);
  if (ns !== null) return new Time(ns);
  const slash = word.indexOf("/");
  const addr = slash < 0 ? word : word.slice(0, slash);
  const len = slash < 0 ? null : word.slice(slash + 1);
  if (len !== null && !/^\d{1,3}$/.test(len)) return word;
  const v4 = ip4(addr);
  if (v4 !== null) {
    if (len === null) return new Typed("ip", v4);
    // the IPv4 prefix keeps its host bits: 1.0.0.1/31 stays 1.0.0.1/31
    return Number(len) <= 32 ? new Typed("ip-prefix", `${v4}/${len}`) : word;
  }
  const g = ip6Groups(addr);
  if (g !== null) {
    if (len === null) return new Typed("ip6", fmtIp6(g));
    const n = Number(len);
    if (n > 128) return word;
    // the IPv6 prefix loses its host bits: 1::1/69 becomes 1::/69
    const masked = g.map((x, i) => {
      const keep = Math.max(0, Math.min(16, n - i * 16));
      return keep === 0 ? 0 : x & ((0xffff << (16 - keep)) & 0xffff);
    });
    return new Typed("ip6-prefix", `${fmtIp6(masked)}/${n}`);
  }
  return word;
}

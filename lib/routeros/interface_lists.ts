/**
 * The interfaces in each interface list (`/interface list` and its
 * `member` menu): direct members, plus the members of the lists a list
 * includes, minus those of the lists it excludes. The built-in lists are
 * `all` (every interface), `none`, and from RouterOS 7 `dynamic` and
 * `static` (by the interface's dynamic flag). A list that cannot be
 * resolved (a cycle of includes, an unknown list, a built-in one without the
 * interfaces) is left out, so firewall matchers on it stay unknown.
 *
 * @module
 */
import { isYes } from "./rule_match.ts";

/**
 * A row as printed, values as text: a list (`name`, `include`, `exclude`,
 * comma or `;` separated), a member (`list`, `interface`, `disabled`) or an
 * interface (`name`, `dynamic`).
 */
export type PrintedRow = Readonly<Record<string, string | undefined>>;

function names(text: string | undefined): string[] {
  return (text ?? "").split(/[,;]/).map((s) => s.trim()).filter((s) => s !== "" && s !== "none");
}

/** Each resolvable list's member interfaces. */
export function interfaceListMembers(
  lists: readonly PrintedRow[],
  members: readonly PrintedRow[],
  interfaces?: readonly PrintedRow[],
): Map<string, Set<string>> {
  const byName = new Map(lists.filter((l) => l.name).map((l) => [l.name!, l]));
  const direct = new Map<string, Set<string>>();
  for (const m of members) {
    if (isYes(m.disabled) || !m.list || !m.interface) continue;
    if (!direct.has(m.list)) direct.set(m.list, new Set());
    direct.get(m.list)!.add(m.interface);
  }
  const builtin = (name: string): Set<string> | undefined => {
    if (name === "none") return new Set();
    if (!interfaces) return undefined;
    const all = interfaces.filter((i) => i.name);
    if (name === "all") return new Set(all.map((i) => i.name!));
    if (name === "dynamic") {
      return new Set(all.filter((i) => isYes(i.dynamic)).map((i) => i.name!));
    }
    if (name === "static") {
      return new Set(all.filter((i) => !isYes(i.dynamic)).map((i) => i.name!));
    }
    return undefined;
  };
  const done = new Map<string, Set<string> | undefined>();
  const resolve = (name: string, path: readonly string[]): Set<string> | undefined => {
    if (done.has(name)) return done.get(name);
    if (path.includes(name)) return undefined;
    let out: Set<string> | undefined;
    const own = builtin(name);
    if (own) out = own;
    else if (byName.has(name) || direct.has(name)) {
      const row = byName.get(name);
      out = new Set(direct.get(name) ?? []);
      for (const inc of names(row?.include)) {
        const more = resolve(inc, [...path, name]);
        if (!more) {
          out = undefined;
          break;
        }
        for (const i of more) out.add(i);
      }
      for (const exc of out ? names(row?.exclude) : []) {
        const less = resolve(exc, [...path, name]);
        if (!less) {
          out = undefined;
          break;
        }
        for (const i of less) out!.delete(i);
      }
    }
    done.set(name, out);
    return out;
  };
  const result = new Map<string, Set<string>>();
  for (
    const name of new Set([...byName.keys(), ...direct.keys(), "none", "all", "dynamic", "static"])
  ) {
    const set = resolve(name, []);
    if (set) result.set(name, set);
  }
  return result;
}

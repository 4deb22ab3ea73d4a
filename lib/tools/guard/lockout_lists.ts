/**
 * Lock-out rules of the lists firewall rules name: a firewall address list
 * entry (`/ip/firewall/address-list`, `/ipv6/firewall/address-list`), an
 * interface list's `include`/`exclude` (`/interface/list`) and its members
 * (`/interface/list/member`). A rule the guard let through because its
 * list did not hold this server (`drop src-address-list=blocked` while
 * `blocked` was empty) cuts the session once the list does: so a change to
 * a list re-runs the firewall session walk of every rule table of the
 * session's family (lockout_walk.ts) with the list as it is and as it would
 * be, and needs confirm when the walk after meets a cutting rule the walk
 * before did not. An address-list entry given a `timeout` (added or
 * updated) is there until the timeout runs out, then RouterOS removes it:
 * the walk after is taken twice, with the entry and without it.
 *
 * Reads: one exec for the four rule tables and the session's facts; a
 * second for the entries of the address lists the tables name, only when a
 * rule names the changed list (an address list), or when the changed
 * interface carries the session (an interface list).
 *
 * @module
 */
import { type FirewallRule, isYes, type RouterFacts } from "../../routeros/rule_match.ts";
import type { ToolContext } from "../tool.ts";
import type { LockoutChange, LockoutRule } from "./lockout.ts";
import type { Row } from "./lockout_session.ts";
import {
  addressListsNamed,
  addressListsOf,
  FAMILY_TABLES,
  readAddressEntries,
  readWalk,
  sessionCut,
  sessionOfFamily,
  type SessionRead,
  walkFacts,
  type WalkRead,
} from "./lockout_walk.ts";

type Item = Record<string, unknown>;

/** The names in a list property (`["LAN"]` or `LAN,WAN`). */
function names(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === "string" && v !== "" ? v.split(/[,;]/) : [];
}

/** An item that is in effect (not removed, not disabled). */
function live(item: Item | undefined, verb?: string): item is Item {
  return item !== undefined && verb !== "remove" && item.disabled !== true;
}

/** `rows` without the first one that `same` takes, and with `added`. */
function replaced(rows: readonly Row[], same: (r: Row) => boolean, added?: Row): Row[] {
  const at = rows.findIndex(same);
  const out = at < 0 ? [...rows] : rows.filter((_, i) => i !== at);
  return added ? [...out, added] : out;
}

/** The first table whose session walk the changed facts cut, said after `what`. */
function walkCut(
  read: WalkRead,
  s: SessionRead,
  facts: RouterFacts,
  factsAfter: RouterFacts,
  what: string,
): string | undefined {
  for (const { table, rules } of read.tables) {
    const cut = sessionCut(table, { before: rules, after: rules }, s.flows, facts, factsAfter);
    if (cut) return `${what}: ${cut}`;
  }
  return undefined;
}

/** Every rule of the tables read. */
function allRules(read: WalkRead): FirewallRule[] {
  return read.tables.flatMap((t) => t.rules);
}

/** The family of the session (the one whose rules it passes), when known. */
function sessionFamily(ctx: ToolContext): 4 | 6 | undefined {
  const router = ctx.client.session().router;
  return router === undefined ? undefined : router.includes(":") ? 6 : 4;
}

/** The lock-out rule of a firewall address list of IP family `family`. */
export function addressListLockout(family: 4 | 6): LockoutRule {
  return {
    verbs: ["add", "update", "remove", "enable", "disable"],
    updates: ["list", "address", "disabled", "timeout"],
    check: (change, ctx) => addressListCut(family, change, ctx),
  };
}

/**
 * The timeout a call sets on an entry that stays live (RouterOS removes the
 * entry when it runs out, on 6.x as on 7.x; `0s` counts too), or undefined.
 */
function timeoutSet(verb: string, args: Item | undefined): string | undefined {
  if (verb !== "add" && verb !== "update") return undefined;
  const t = args?.timeout;
  return t === undefined || t === null || t === "" ? undefined : String(t);
}

async function addressListCut(
  family: 4 | 6,
  { verb, before, after, args }: LockoutChange,
  ctx: ToolContext,
): Promise<string | undefined> {
  await ctx.client.dialect(); // connected: the socket's ends are known
  if (!sessionOfFamily(ctx, family)) return undefined;
  const was = live(before) ? before : undefined;
  const will = live(after, verb) ? after : undefined;
  const entry = (i: Item) => ({ list: String(i.list ?? ""), address: String(i.address ?? "") });
  const old = was && entry(was);
  const next = will && entry(will);
  const timeout = will && timeoutSet(verb, args);
  const same = JSON.stringify(old) === JSON.stringify(next);
  if (same && !timeout) return undefined;
  const read = await readWalk(ctx, family, FAMILY_TABLES[family]);
  const s = read.session;
  if (!s) return undefined;
  const named = addressListsNamed(allRules(read));
  if (!(old && named.has(old.list)) && !(next && named.has(next.list))) return undefined;
  const entries = await readAddressEntries(ctx, read.dialect, family, named);
  const without = (added?: Row) =>
    replaced(
      entries,
      (r) => old !== undefined && r.list === old.list && r.address === old.address,
      added,
    );
  const leaves = old && !same ? `${old.address} would leave address list ${old.list}` : undefined;
  const facts = walkFacts(s, addressListsOf(named, entries));
  const now = same ? undefined : walkCut(
    read,
    s,
    facts,
    walkFacts(s, addressListsOf(named, without(next))),
    [leaves, next && `${next.address} would join address list ${next.list}`].filter(Boolean)
      .join(" and "),
  );
  if (now || !timeout || !next) return now;
  // The entry goes when its timeout runs out: the list as it is, less the old entry.
  return walkCut(
    read,
    s,
    facts,
    walkFacts(s, addressListsOf(named, without())),
    [
      leaves,
      `${next.address} would leave address list ${next.list} when its timeout (${timeout}) ` +
      "runs out (RouterOS then removes the entry)",
    ].filter(Boolean).join(" and "),
  );
}

/** The walk of the session with the interface lists as `change` leaves them. */
async function interfaceListCut(
  ctx: ToolContext,
  lists: (rows: readonly Row[]) => Row[],
  members: (rows: readonly Row[]) => Row[],
  what: string,
  iface?: string,
): Promise<string | undefined> {
  await ctx.client.dialect(); // connected: the socket's ends are known
  const family = sessionFamily(ctx);
  if (!family) return undefined;
  const read = await readWalk(ctx, family, FAMILY_TABLES[family]);
  const s = read.session;
  if (!s) return undefined;
  const rules = allRules(read);
  if (!rules.some((r) => r["in-interface-list"] || r["out-interface-list"])) return undefined;
  // A member that is not the session's interface cannot change what the session meets.
  const carriers = new Set(s.flows.flatMap((f) => [f.flow.inInterface, f.flow.outInterface]));
  if (iface !== undefined && !carriers.has(iface) && !carriers.has(undefined)) return undefined;
  const named = addressListsNamed(rules);
  const entries = await readAddressEntries(ctx, read.dialect, family, named);
  const addressLists = addressListsOf(named, entries);
  return walkCut(
    read,
    s,
    walkFacts(s, addressLists),
    walkFacts(s, addressLists, lists(s.lists), members(s.members)),
    what,
  );
}

/** `/interface/list`: a list's `include` or `exclude` changed, or the list removed. */
export const interfaceListLockout: LockoutRule = {
  verbs: ["update", "remove"],
  updates: ["include", "exclude"],
  check: ({ verb, before, after }, ctx) => {
    if (!before) return undefined;
    const name = String(before.name ?? "");
    const row = (i: Item): Row => ({
      name,
      include: names(i.include).join(","),
      exclude: names(i.exclude).join(","),
    });
    const gone = verb === "remove";
    if (!gone && JSON.stringify(row(before)) === JSON.stringify(row(after))) return undefined;
    return interfaceListCut(
      ctx,
      (rows) => replaced(rows, (r) => r.name === name, gone ? undefined : row(after)),
      (rows) => gone ? rows.filter((m) => m.list !== name) : [...rows],
      gone
        ? `interface list ${name} would be removed`
        : `interface list ${name} would include ${names(after.include).join(",") || "none"} ` +
          `and exclude ${names(after.exclude).join(",") || "none"}`,
    );
  },
};

/** `/interface/list/member`: an interface joins or leaves a list. */
export const listMemberLockout: LockoutRule = {
  verbs: ["add", "update", "remove", "enable", "disable"],
  updates: ["list", "interface", "disabled"],
  check: ({ verb, before, after }, ctx) => {
    const member = (i: Item) => ({
      list: String(i.list ?? ""),
      interface: String(i.interface ?? ""),
    });
    const old = live(before) ? member(before) : undefined;
    const next = live(after, verb) ? member(after) : undefined;
    if (JSON.stringify(old) === JSON.stringify(next)) return undefined;
    const what = [
      old && `${old.interface} would leave interface list ${old.list}`,
      next && `${next.interface} would join interface list ${next.list}`,
    ].filter(Boolean).join(" and ");
    const ifaces = [old?.interface, next?.interface].filter((i): i is string => !!i);
    return interfaceListCut(
      ctx,
      (rows) => [...rows],
      (rows) =>
        replaced(
          rows,
          (r) =>
            old !== undefined && r.list === old.list && r.interface === old.interface &&
            !isYes(r.disabled),
          next && { ...next, disabled: "false" },
        ),
      what,
      ifaces.length === 1 || ifaces[0] === ifaces[1] ? ifaces[0] : undefined,
    );
  },
};

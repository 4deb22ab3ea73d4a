/**
 * The lock-out guard's rules: which changes would cut this server's own
 * management access. A rule looks at one change (the item before and as it
 * would be after) and names what would be cut; the guard chain then asks
 * for `confirm: true` (inside `router_apply_changes` too, where the revert
 * job undoes it if the server loses the router).
 *
 * What the rules know of the session: the router address the SSH
 * connection reached and this host's address on it. Behind NAT (or through
 * a bridge port the rules cannot see) they can miss a lock-out, so the
 * docs and the tool notes still warn in words. The firewall rule tables
 * have their own rule, which evaluates the rules against the session
 * (lockout_firewall.ts).
 *
 * @module
 */
import { prefixContains, sameAddress } from "../../routeros/prefix.ts";
import { isYes } from "../../routeros/rule_match.ts";
import type { ToolContext, Verb } from "../tool.ts";
import { sessionPath } from "./lockout_interfaces.ts";

type Item = Record<string, unknown>;

/** One change as a lock-out rule sees it (tool-side property names). */
export interface LockoutChange {
  verb: Verb;
  /** The item before the change (absent for add, or when it was not found). */
  before?: Item;
  /** The item as it would be after the change (for remove: as it was). */
  after: Item;
  /** The call's arguments (tool-side names), as validated. */
  args?: Record<string, unknown>;
}

/** What a change would cut, or undefined. */
type Check = (
  change: LockoutChange,
  ctx: ToolContext,
) => Promise<string | undefined> | string | undefined;

/**
 * A menu's lock-out rule. `verbs` and `updates` say which calls can cut at
 * all, so the others (a comment change) cost no extra read.
 */
export interface LockoutRule {
  /** Verbs that can cut. */
  verbs: readonly Verb[];
  /** For `update`: the tool arguments that can cut (every one when absent). */
  updates?: readonly string[];
  /** The check reads what it needs itself: `before` is not read for it (and absent). */
  ownReads?: boolean;
  check: Check;
}

/** True when the call can cut by the rule's own account (before reading anything). */
export function mayCut(rule: LockoutRule, verb: Verb, args: Record<string, unknown>): boolean {
  if (!rule.verbs.includes(verb)) return false;
  if (verb !== "update" || !rule.updates) return true;
  return rule.updates.some((a) => args[a] !== undefined);
}

/**
 * One rule made of several (an interface menu's own rule and its members'
 * one): it can cut where any of them can, and names every cut found.
 */
export function eitherRule(...rules: readonly LockoutRule[]): LockoutRule {
  return {
    verbs: [...new Set(rules.flatMap((r) => r.verbs))],
    updates: rules.every((r) => r.updates)
      ? [...new Set(rules.flatMap((r) => r.updates!))]
      : undefined,
    ownReads: rules.every((r) => r.ownReads),
    check: async (change, ctx) => {
      const cuts: string[] = [];
      for (const rule of rules) {
        if (!mayCut(rule, change.verb, change.args ?? {})) continue;
        const cut = await rule.check(change, ctx);
        if (cut) cuts.push(cut);
      }
      return cuts.length ? cuts.join("; and ") : undefined;
    },
  };
}

function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === false) return false;
  return !(Array.isArray(value) && value.length === 0);
}

/** An IPv4 or IPv6 address item that carries the session's router address. */
export const ownAddress: LockoutRule = {
  verbs: ["remove", "disable", "update"],
  updates: ["address", "interface", "disabled"],
  check: ({ verb, before, after }, ctx) => {
    const ip = ctx.client.session().router;
    if (!ip || !before || !isSet(before.address)) return undefined;
    if (!sameAddress(String(before.address), ip) || before.disabled === true) return undefined;
    const cut = verb === "remove" ||
      after.disabled === true ||
      !sameAddress(String(after.address ?? ""), ip) ||
      (after.interface !== undefined && after.interface !== before.interface);
    return cut
      ? `${before.address} on ${before.interface} is the address this server's SSH session ` +
        `reaches the router at (${ip})`
      : undefined;
  },
};

/**
 * The VRFs the session is in, each with its interfaces there: the VRF whose
 * `interfaces` hold an interface its packets arrive on (the route back: a
 * router managed at a loopback /32 is reached through its uplink) or the one
 * holding the address it reached, else `main`. Both count: the route back is
 * looked up in the main table, and a management VRF holding the loopback and
 * the uplink routes the session by its own table. Undefined when no
 * interface is known (the guard then counts any VRF change as a cut).
 */
async function sessionVrfs(ctx: ToolContext): Promise<Map<string, string> | undefined> {
  const { path, held } = await sessionPath(ctx);
  const ifaces = [...new Set([...path, ...held])];
  if (!ifaces.length) return undefined;
  const vrfs = await ctx.client.read({ path: "/ip/vrf", keys: ["name", "interfaces", "disabled"] });
  const out = new Map<string, string>();
  for (const iface of ifaces) {
    const own = vrfs.find((v) =>
      !isYes(String(v.disabled ?? "")) && String(v.interfaces ?? "").split(",").includes(iface)
    );
    const name = own ? String(own.name) : "main";
    out.set(name, out.has(name) ? `${out.get(name)}, ${iface}` : iface);
  }
  return out;
}

/** How many SSH sessions the router serves now (every user's; this server's among them). */
async function sshSessions(ctx: ToolContext): Promise<number> {
  const active = await ctx.client.read({ path: "/user/active", keys: ["via"] });
  return active.filter((a) => a.via === "ssh").length;
}

/**
 * `/ip/service ssh`: disabled, moved to another port than the one it has
 * (behind a port forward this server dials another one), closed to this
 * host's address, moved into a VRF the session does not arrive in (7.x),
 * or limited to fewer sessions (`max-sessions`, 7.16 on) than it serves
 * now, so that this server's next login waits for a free one.
 */
export const sshService: LockoutRule = {
  verbs: ["disable", "update"],
  updates: ["disabled", "port", "address", "vrf", "max_sessions"],
  check: async ({ verb, before, after }, ctx) => {
    const item = before ?? after;
    if (item.name !== "ssh" || before?.disabled === true) return undefined;
    if (verb === "disable" || after.disabled === true) {
      return "it disables the ssh service this server logs in through";
    }
    const port = ctx.client.target.port;
    const oldPort = before?.port ?? port;
    if (after.port !== undefined && Number(after.port) !== Number(oldPort)) {
      return `it moves ssh to port ${after.port}; this server connects to port ${port}` +
        (Number(oldPort) !== port ? ` (forwarded to ${oldPort})` : "");
    }
    const closed = closedTo(after.address, before?.address, ctx, "the ssh service");
    if (closed) return closed;
    if (after.vrf !== undefined && after.vrf !== (before?.vrf ?? "main")) {
      const vrfs = await sessionVrfs(ctx);
      const other = [...vrfs ?? []].filter(([name]) => name !== after.vrf);
      if (!vrfs || other.length) {
        return `it moves ssh into VRF ${after.vrf}, and this server's session arrives in ` +
          (vrfs
            ? other.map(([name, on]) => `VRF ${name} (on ${on})`).join(" or ")
            : "a VRF the guard cannot tell (its interface is not known)");
      }
    }
    const max = after.max_sessions;
    if (typeof max === "number" && max !== before?.max_sessions) {
      const now = await sshSessions(ctx);
      if (max < now) {
        return `max_sessions=${max} is fewer than the ${now} SSH sessions the router serves now ` +
          "(this server's among them): its next login may be refused";
      }
    }
    return undefined;
  },
};

/** A new allow-list (`address`) that leaves out this host's address. */
function closedTo(
  list: unknown,
  old: unknown,
  ctx: ToolContext,
  what: string,
): string | undefined {
  const local = ctx.client.session().local;
  if (!local || !Array.isArray(list) || list.length === 0) return undefined;
  if (JSON.stringify(list) === JSON.stringify(old)) return undefined;
  if (list.some((p) => prefixContains(String(p), local))) return undefined;
  return `${what} would only accept ${list.join(", ")}, and this server connects from ${local}`;
}

/**
 * The policies this server needs of its user's group, and what it loses
 * without each: `ssh` to log in at all, `read` and `write` to do its work,
 * `policy` to change users and groups, this one's policies back included.
 */
const NEEDED_POLICIES: readonly (readonly [string, string])[] = [
  ["ssh", "RouterOS refuses its next SSH login"],
  ["read", "it can no longer read the configuration"],
  ["write", "it can no longer change the configuration"],
  ["policy", "it can no longer change users or groups, so it cannot give them back"],
];

/** The policies a group grants (`!ftp` is one it does not). */
function granted(policy: unknown): Set<string> {
  const list = Array.isArray(policy) ? policy.map(String) : String(policy ?? "").split(",");
  return new Set(list.map((p) => p.trim()).filter((p) => p && !p.startsWith("!")));
}

/** What a group with `policy` lacks of {@linkcode NEEDED_POLICIES}, in words; "" when nothing. */
function lacking(policy: unknown, had?: Set<string>): string {
  const will = granted(policy);
  return NEEDED_POLICIES.filter(([p]) => (had === undefined || had.has(p)) && !will.has(p))
    .map(([p, why]) => `without ${p} ${why}`).join(", ");
}

/**
 * `/user`: the user this server logs in as, removed, disabled, renamed,
 * re-keyed, or moved to a group that lacks a policy it needs (read from
 * `/user/group`).
 */
export const ownUser: LockoutRule = {
  verbs: ["remove", "disable", "update"],
  updates: ["new_name", "password", "group", "address", "disabled"],
  check: async ({ verb, before, after }, ctx) => {
    const t = ctx.client.target;
    const item = before ?? after;
    if (item.name !== t.username || before?.disabled === true) return undefined;
    const who = `user "${t.username}" is the one this server logs in as`;
    if (verb === "remove") return `${who}; removing it`;
    if (verb === "disable" || after.disabled === true) return `${who}; disabling it`;
    if (after.name !== undefined && after.name !== before?.name) return `${who}; renaming it`;
    if (isSet(after.password) && ctx.client.session().login !== "publickey") {
      return `${who} with a password; its next login fails until its configuration has the new one`;
    }
    if (after.group !== undefined && before && after.group !== before.group) {
      const [group] = await ctx.client.read({ path: "/user/group", keys: ["name", "policy"] }, [
        { key: "name", value: String(after.group) },
      ]);
      if (!group) return `${who}; group ${after.group} is not on the router (its policies unknown)`;
      const lost = lacking(group.policy);
      if (lost) return `${who}; in group ${after.group}, ${lost}`;
    }
    return closedTo(after.address, before?.address, ctx, `user "${t.username}"`);
  },
};

/**
 * `/user/group`: the group of the user this server logs in as (read from
 * `/user`), removed, renamed, or its `policy` changed to leave out one it
 * needs ({@linkcode NEEDED_POLICIES}). RouterOS applies a group's policies
 * to its users' next login (and `write` and `policy` to their open sessions
 * too). A rename is conservative: the user names its group, and nothing on
 * hand shows that it follows the new name (in the running configuration or
 * after a reboot); a user on a group that is not there has no policies.
 */
export const ownGroup: LockoutRule = {
  verbs: ["remove", "update"],
  updates: ["policy", "new_name"],
  check: async ({ verb, before, after }, ctx) => {
    const t = ctx.client.target;
    const name = String((before ?? after).name ?? "");
    const [user] = await ctx.client.read({ path: "/user", keys: ["name", "group"] }, [
      { key: "name", value: t.username },
    ]);
    if (!user || String(user.group ?? "") !== name) return undefined;
    const who = `group ${name} is the one of user "${t.username}", which this server logs in as`;
    if (verb === "remove") return `${who}; removing it`;
    if (after.name !== undefined && String(after.name) !== name) {
      return `${who}; renaming it to ${after.name} (the user names its group, and the guard ` +
        "cannot tell that it follows the new name; left on a group that is not there, it has " +
        "no policies and its next SSH login is refused)";
    }
    if (after.policy === undefined) return undefined;
    const lost = lacking(after.policy, before ? granted(before.policy) : undefined);
    return lost ? `${who}; ${lost}` : undefined;
  },
};

/** Whether `/ip ssh forwarding-enabled` lets a client open TCP connections through the router. */
function forwardsTcp(value: unknown): boolean {
  return value === "local" || value === "both" || value === true || value === "yes";
}

/** The devices behind this one that the caller may see named, and how many others. */
function behindNames(ctx: ToolContext): string {
  const behind = ctx.forwardsFor ?? [];
  const visible = new Set(ctx.fleet.summaries().map((d) => d.title));
  const named = behind.filter((t) => visible.has(t));
  const others = behind.length - named.length;
  return [
    ...named.map((t) => `"${t}"`),
    ...(others ? [`${others} other device(s)`] : []),
  ].join(", ");
}

/**
 * `/ip/ssh`: on a device that is the SSH bastion (`jump`) of others,
 * forwarding turned off (this server's jump opens a TCP connection through
 * it: `local` or `both`); on any device, a change that gives the router a
 * new host key, which clients that check host keys refuse.
 */
export const sshServer: LockoutRule = {
  verbs: ["update"],
  updates: ["forwarding_enabled", "host_key_type", "host_key_size"],
  check: ({ before, after }, ctx) => {
    if (!before) return undefined;
    const behind = ctx.forwardsFor?.length ? behindNames(ctx) : "";
    const cuts: string[] = [];
    if (
      behind && forwardsTcp(before.forwarding_enabled) && !forwardsTcp(after.forwarding_enabled)
    ) {
      cuts.push(
        `this server reaches ${behind} through device "${ctx.device}" (their SSH bastion, ` +
          `jump in the inventory); forwarding_enabled=${after.forwarding_enabled} ends the TCP ` +
          "forwarding that needs (local or both), so they become unreachable",
      );
    }
    const newType = after.host_key_type !== undefined &&
      after.host_key_type !== before.host_key_type;
    const newSize = after.host_key_size !== undefined &&
      after.host_key_size !== before.host_key_size &&
      (after.host_key_type ?? before.host_key_type ?? "rsa") === "rsa";
    if (newType || newSize) {
      cuts.push(
        (newType
          ? `host_key_type=${after.host_key_type} gives the router a new SSH host key`
          : `host_key_size=${after.host_key_size} makes the router generate a new RSA host key`) +
          ": SSH clients that check host keys refuse it (this server with --host-key-policy " +
          "accept-new or strict, or a pinned host_key), so logins fail until the router's " +
          "known_hosts entry or pin is replaced" +
          (behind ? `; ${behind} are reached through this router too` : ""),
      );
    }
    return cuts.length ? cuts.join("; and ") : undefined;
  },
};

/**
 * The lock-out rule of `/ip/ipsec/policy`: a policy change after which the
 * packets of this server's SSH session meet a policy that discards them, or
 * one that sends them into an IPsec tunnel (`encrypt`: without an
 * established SA they are dropped under `level=require` or `unique`, and
 * with one they go to the peer, not to this server), needs confirm.
 *
 * A policy's `src-address`, `dst-address`, `protocol`, `src-port` and
 * `dst-port` select the packets the router sends (and, reversed, the ones
 * it receives): the router's replies, from the address the session reached
 * and the ssh port to this host's address and an ephemeral port. They are
 * decided with the firewall's matcher vocabulary (`lib/routeros/rule_match.ts`),
 * so a port range that holds the ephemeral ports only in part counts as
 * matching. Policies are taken top to bottom; templates (and the default
 * one) select no traffic; the first policy that certainly takes the reply
 * decides, and one that may take it does not stop the walk. The change cuts
 * when the walk after it meets a discarding or encrypting policy that the
 * walk before did not (or the changed policy itself).
 *
 * Reads: one exec for the policies, the ssh service and `/user active`.
 *
 * @module
 */
import { bracket, cmd, type Condition } from "../../routeros/command.ts";
import { type FirewallRule, isYes, matchRule, ruleFromRaw } from "../../routeros/rule_match.ts";
import { Script } from "../../routeros/script.ts";
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { ToolContext } from "../tool.ts";
import { argName } from "../menu_tools/naming.ts";
import type { LockoutChange, LockoutRule } from "./lockout.ts";
import { applyChange, changedProps, type Tables } from "./lockout_firewall.ts";
import { EPHEMERAL, type Row, sessionSources } from "./lockout_session.ts";

function printed(path: string, where: readonly Condition[] = []) {
  return bracket(cmd(path, "print", { switches: ["as-value"], where }));
}

/** A policy's traffic selector as a firewall rule's matchers (any: none). */
function selector(policy: FirewallRule): FirewallRule {
  const out: Record<string, string> = { chain: "ipsec" };
  for (const k of ["src-address", "dst-address"]) if (policy[k]) out[k] = policy[k];
  const proto = policy.protocol ?? "all";
  if (proto !== "all" && proto !== "255") out.protocol = proto;
  for (const k of ["src-port", "dst-port"]) {
    if (policy[k] && policy[k] !== "any") out[k] = policy[k];
  }
  return out;
}

/** A policy that selects traffic (enabled, valid, not a template). */
function selects(p: FirewallRule): boolean {
  return !isYes(p.disabled) && !isYes(p.invalid) && !isYes(p.template);
}

interface PolicyHit {
  policy: FirewallRule;
  certain: boolean;
}

/** The cutting policies the reply meets, top to bottom, up to the first that surely takes it. */
function walk(policies: readonly FirewallRule[], flow: Parameters<typeof matchRule>[1]) {
  const hits: PolicyHit[] = [];
  for (const policy of policies.filter(selects)) {
    const decision = matchRule(selector(policy), flow).decision;
    if (decision === "no-match") continue;
    const certain = decision === "matches";
    if ((policy.action ?? "encrypt") !== "none") hits.push({ policy, certain });
    if (certain) break;
  }
  return hits;
}

function said(hit: PolicyHit, changed: string | undefined): string {
  const p = hit.policy;
  const id = p[".id"] === changed ? "the policy" : `after the change, policy ${p[".id"]}`;
  const sel = Object.entries(selector(p)).filter(([k]) => k !== "chain")
    .map(([k, v]) => `${k}=${v}`).join(" ") || "(every packet)";
  const action = p.action ?? "encrypt";
  const does = action === "discard"
    ? "discard"
    : `send into an IPsec tunnel (to ${p.peer || p["sa-dst-address"] || "its peer"}, ` +
      `level=${p.level ?? "require"}: dropped while no SA is established)`;
  return `${id} would ${does} the packets of this server's SSH session: action=${action} ${sel} ` +
    (hit.certain ? "matches" : "may match");
}

/** The lock-out rule of the IPsec policy menu. */
export function ipsecPolicyLockout(schema: MenuSchema): LockoutRule {
  return {
    verbs: ["add", "update", "remove", "enable", "disable", "move"],
    updates: Object.entries(schema.fields).filter(([n, f]) => f.writable && n !== "comment")
      .map(([n]) => argName(n)),
    ownReads: true,
    check: (change, ctx) => check(schema, change, ctx),
  };
}

async function check(
  schema: MenuSchema,
  change: LockoutChange,
  ctx: ToolContext,
): Promise<string | undefined> {
  const dialect = await ctx.client.dialect();
  const session = ctx.client.session();
  const router = session.router;
  if (!router) return undefined;
  const script = new Script(dialect);
  const table = script.records(printed(schema.path), true, "every");
  const services = script.records(printed("/ip/service", [{ key: "name", value: "ssh" }]), true, [
    "port",
    "disabled",
  ]);
  const active = script.records(
    printed("/user/active", [
      { key: "name", value: ctx.client.target.username },
      { key: "via", value: "ssh" },
    ]),
    true,
    ["address"],
  );
  const out = await ctx.client.run(script, { idempotent: true, what: schema.path });
  const policies = out.get(table).map(ruleFromRaw);
  const t = applyChange(policies, change, changedProps(schema, dialect.release, change.args ?? {}));
  if (!t) return undefined;
  const ports = (out.get(services).map(ruleFromRaw) as Row[])
    .filter((s) => !isYes(s.disabled)).map((s) => Number(s.port)).filter((p) => p > 0);
  const sources = sessionSources(session.local, out.get(active).map(ruleFromRaw) as Row[]);
  return ipsecChange(t, router, sources, ports.length ? ports : [ctx.client.target.port]);
}

/**
 * The cut of a policy change (`t`: the policies before and after) to the
 * session from `sources` to `router` on the ssh `ports`, or undefined.
 */
export function ipsecChange(
  t: Tables,
  router: string,
  sources: readonly (string | undefined)[],
  ports: readonly number[],
): string | undefined {
  for (const src of sources) {
    for (const port of ports) {
      const reply = {
        srcAddress: router,
        dstAddress: src,
        protocol: "tcp",
        srcPort: port,
        dstPort: EPHEMERAL,
      };
      const met = new Set(walk(t.before, reply).map((h) => h.policy[".id"]));
      const hit = walk(t.after, reply).find((h) =>
        h.policy[".id"] === t.changed || !met.has(h.policy[".id"])
      );
      if (hit) {
        return `${said(hit, t.changed)} (the router's replies ${router}:${port} \u2192 ${
          src ?? "this server"
        }, and this server's packets the other way)`;
      }
    }
  }
  return undefined;
}

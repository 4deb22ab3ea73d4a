/**
 * The checks of what the WAN side can reach: management services (`/ip
 * service`), the input chain's final drop, DNS answering remote requests,
 * the web and SOCKS proxies. "Reachable" is decided by walking the input
 * chain with the rule matcher (`wan_exposure.ts`) for a new connection from
 * an unknown internet address on each WAN interface.
 *
 * @module
 */
import { describeRule } from "../../routeros/rule_chain.ts";
import { isYes } from "../../routeros/rule_match.ts";
import { type Exposure, isInsidePrefix, wanExposure } from "../../routeros/wan_exposure.ts";
import { closeToWan, evidence, type PostureContext, ruleEvidence } from "./posture_context.ts";
import type { Evidence, Finding, FixCall, Severity } from "./posture_types.ts";

/** MikroTik's "Securing your router" page (the checklist's first source). */
export const SECURING = "MikroTik manual: Securing your router " +
  "(help.mikrotik.com/docs/display/ROS/Securing+your+router)";

/** The services MikroTik's page says to disable. */
const DISABLE = ["telnet", "ftp", "www", "api", "api-ssl"];

/** Severity of a service reachable from the WAN for sure. */
function exposedSeverity(name: string, port: number): Severity {
  if (name === "telnet" || name === "ftp") return "critical";
  if (name === "ssh") return port === 22 ? "high" : "medium";
  if (name === "www-ssl" || name === "api-ssl") return "medium";
  return "high";
}

/** Evidence of an exposure: per WAN interface, the rule that decided or the chain's end. */
function exposureEvidence(e: Exposure): Evidence[] {
  const out: Evidence[] = [];
  for (const i of e.interfaces.filter((x) => x.verdict !== "closed")) {
    if (i.decider && i.verdict === "open") {
      out.push(ruleEvidence(i.decider, `on ${i.interface}, this rule accepts it`));
    } else if (!i.decider && i.verdict === "open") {
      out.push({
        menu: "/ip/firewall/filter",
        note: `on ${i.interface}, no rule of the input chain drops it (the chain accepts what ` +
          "falls off its end)",
      });
    }
    for (const r of i.maybe) {
      out.push(
        ruleEvidence(
          r,
          `on ${i.interface}, this rule may take it (a matcher depends on what is not known)`,
        ),
      );
    }
  }
  return out;
}

function port(row: { port?: string }): number {
  return Number(row.port ?? 0);
}

/** `/ip service`: services to disable, services open to the WAN, services open to anyone. */
export function serviceChecks(ctx: PostureContext): Finding[] {
  const services = ctx.rows("/ip/service");
  if (!services) {
    ctx.notChecked.push("/ip/service could not be read");
    return [];
  }
  const out: Finding[] = [];
  for (const s of services) {
    const name = s.name ?? "";
    if (!name || isYes(s.disabled)) continue;
    const item = evidence("/ip/service", s, ["name", "port", "address", "disabled"]);
    const allowed = (s.address ?? "").split(/[,;]/).map((a) => a.trim()).filter(Boolean);
    const inside = allowed.length > 0 && allowed.every(isInsidePrefix);
    let exposed = false;
    if (ctx.wan.length && !inside) {
      const e = wanExposure(ctx.exposure, { protocol: "tcp", port: port(s) });
      const limited = allowed.length > 0;
      if (e.verdict !== "closed") {
        exposed = true;
        const sure = e.verdict === "open" && !limited;
        const restrict = ctx.lan.length && (name === "ssh" || name === "winbox");
        const fix: FixCall[] = DISABLE.includes(name) || !restrict
          ? (name === "ssh" ? [] : [{ tool: "router_disable_ip_service", arguments: { name } }])
          : [{ tool: "router_update_ip_service", arguments: { name, address: ctx.lan } }];
        out.push({
          id: `wan-exposed:${name}`,
          check: "wan-exposed-service",
          severity: sure ? exposedSeverity(name, port(s)) : "low",
          title: `${name} (tcp/${port(s)}) is ${sure ? "" : "maybe "}reachable from the WAN (${
            e.interfaces.filter((i) => i.verdict !== "closed").map((i) => i.interface).join(", ")
          })${limited ? `, for sources in ${allowed.join(", ")}` : ""}`,
          evidence: [item, ...exposureEvidence(e)],
          fix,
          fix_note: fix.length === 0
            ? "This server logs in over ssh: limit ssh's address to your management prefixes " +
              "(router_update_ip_service) or drop tcp/22 from the WAN, after checking that this " +
              "server's own address stays allowed."
            : fix[0].tool === "router_update_ip_service"
            ? `Limits ${name} to the router's inside subnets (${ctx.lan.join(", ")}); add your ` +
              "management prefixes to address if you reach it from elsewhere."
            : `Disables ${name}; MikroTik advises disabling every service that is not used.`,
          source: `${SECURING}, IP services; CIS-style: no management service open to the internet`,
        });
      }
    }
    if (exposed) continue;
    if (DISABLE.includes(name)) {
      out.push({
        id: `service-enabled:${name}`,
        check: "insecure-service",
        severity: name === "telnet" || name === "ftp" ? "medium" : "low",
        title: `${name} is enabled${
          name === "telnet" || name === "ftp" || name === "www" || name === "api"
            ? " (it sends passwords in clear text)"
            : ""
        }`,
        evidence: [item],
        fix: [{ tool: "router_disable_ip_service", arguments: { name } }],
        source: `${SECURING}, IP services (disable telnet, ftp, www, api, api-ssl)`,
      });
    } else if (allowed.length === 0 && ctx.lan.length) {
      out.push({
        id: `service-unrestricted:${name}`,
        check: "service-address",
        severity: "low",
        title: `${name} accepts connections from any address`,
        evidence: [item],
        fix: [{ tool: "router_update_ip_service", arguments: { name, address: ctx.lan } }],
        fix_note: `Limits ${name} to the router's inside subnets (${ctx.lan.join(", ")}); add ` +
          "your management prefixes, and keep this server's own address allowed (the lock-out " +
          "guard asks for confirm when it would not be).",
        source: `${SECURING}, IP services (restrict by address)`,
      });
    }
  }
  return out;
}

/** The input chain drops, for sure, new connections from the WAN that nothing accepts. */
export function finalDropCheck(ctx: PostureContext): Finding[] {
  if (!ctx.wan.length) return [];
  const e = wanExposure(ctx.exposure, {});
  const missing = e.interfaces.filter((i) =>
    i.decider?.action !== "drop" &&
    i.decider?.action !== "reject" && i.decider?.action !== "tarpit"
  );
  if (!missing.length) return [];
  const input = ctx.exposure.filter.filter((r) => r.chain === "input");
  const fix: FixCall[] = [];
  const acceptsEstablished = input.some((r) =>
    !isYes(r.disabled) && (r.action ?? "accept") === "accept" &&
    (r["connection-state"] ?? "").split(",").includes("established")
  );
  if (!acceptsEstablished) {
    fix.push({
      tool: "router_add_firewall_filter_rule",
      arguments: {
        chain: "input",
        action: "accept",
        connection_state: ["established", "related", "untracked"],
        comment: "accept established (router_audit_security)",
      },
    });
  }
  const drop = closeToWan(ctx, [{}], "drop the rest from the WAN (router_audit_security)");
  fix.push(...drop.calls.filter((c) => c.tool === "router_add_firewall_filter_rule"));
  return [{
    id: "input-no-final-drop",
    check: "input-final-drop",
    severity: "high",
    title: `the input chain drops nothing for sure from the WAN (${
      missing.map((i) => i.interface).join(", ")
    }): what no rule accepts is let in`,
    evidence: [{
      menu: "/ip/firewall/filter",
      note: `${input.length} input rules; ${
        missing.map((i) =>
          i.decider
            ? `on ${i.interface} ${describeRule(i.decider)} decides`
            : `on ${i.interface} none decides`
        ).join("; ")
      }`,
    }],
    fix,
    fix_note: "Appends an accept for established connections (when the chain has none) and a " +
      "final drop of new connections from the WAN; rules above them still accept what they " +
      "accept. If this server reaches the router from the WAN, allow its address first (the " +
      "lock-out guard asks for confirm).",
    source: "CIS-style: the input chain ends in a drop; MikroTik manual, Building Your First " +
      "Firewall (the default configuration's drop of everything not from LAN)",
  }];
}

/** `/ip dns allow-remote-requests` with port 53 reachable from the WAN: an open resolver. */
export function dnsCheck(ctx: PostureContext): Finding[] {
  const dns = ctx.setting("/ip/dns");
  if (!dns || !isYes(dns["allow-remote-requests"]) || !ctx.wan.length) return [];
  const udp = wanExposure(ctx.exposure, { protocol: "udp", port: 53 });
  const tcp = wanExposure(ctx.exposure, { protocol: "tcp", port: 53 });
  if (udp.verdict === "closed" && tcp.verdict === "closed") return [];
  const sure = udp.verdict === "open" || tcp.verdict === "open";
  const close = closeToWan(
    ctx,
    [{ protocol: "udp", port: 53 }, { protocol: "tcp", port: 53 }],
    "drop DNS from the WAN (router_audit_security)",
  );
  const fix: FixCall[] = close.closed
    ? close.calls
    : [{ tool: "router_update_dns_settings", arguments: { allow_remote_requests: false } }];
  return [{
    id: "dns-open",
    check: "dns-open-resolver",
    severity: sure ? "high" : "medium",
    title: `DNS answers remote requests and port 53 is ${
      sure ? "" : "maybe "
    }reachable from the WAN (an open resolver)`,
    evidence: [
      evidence("/ip/dns", dns, ["allow-remote-requests", "servers"]),
      ...exposureEvidence(udp).map((e) => ({ ...e, note: `udp/53: ${e.note}` })),
      ...exposureEvidence(tcp).map((e) => ({ ...e, note: `tcp/53: ${e.note}` })),
    ],
    fix,
    fix_note: close.closed
      ? "Closes udp/53 and tcp/53 to the WAN (an accept that lets DNS in is disabled, a drop is " +
        "appended where nothing drops it); the router keeps answering the LAN."
      : `An earlier rule (${close.blocking ? describeRule(close.blocking) : "?"}) accepts more ` +
        "than DNS, so a firewall fix cannot be appended; this turns remote requests off instead " +
        "(LAN clients then need another resolver).",
    source: `${SECURING}, DNS cache; MikroTik manual, DNS (limit port 53 to known hosts when ` +
      "allow-remote-requests is on)",
  }];
}

/** `/ip proxy` and `/ip socks` enabled: an open proxy when reachable from the WAN. */
export function proxyChecks(ctx: PostureContext): Finding[] {
  const out: Finding[] = [];
  const kinds = [
    {
      path: "/ip/proxy",
      id: "web-proxy",
      what: "the web proxy",
      tool: "router_update_web_proxy",
      port: 8080,
    },
    {
      path: "/ip/socks",
      id: "socks-proxy",
      what: "the SOCKS proxy",
      tool: "router_update_socks_proxy",
      port: 1080,
    },
  ];
  for (const k of kinds) {
    const s = ctx.setting(k.path);
    if (!s || !isYes(s.enabled)) continue;
    const p = Number(s.port ?? k.port);
    const e = ctx.wan.length ? wanExposure(ctx.exposure, { protocol: "tcp", port: p }) : undefined;
    const verdict = e?.verdict ?? "closed";
    out.push({
      id: k.id,
      check: "proxy",
      severity: verdict === "open" ? "high" : verdict === "maybe" ? "medium" : "low",
      title: `${k.what} is enabled${
        verdict === "open"
          ? " and reachable from the WAN (an open proxy)"
          : verdict === "maybe"
          ? " and maybe reachable from the WAN"
          : ""
      }`,
      evidence: [evidence(k.path, s, ["enabled", "port"]), ...(e ? exposureEvidence(e) : [])],
      fix: [{ tool: k.tool, arguments: { enabled: false } }],
      source: `${SECURING}, other client services (proxy, socks)`,
    });
  }
  return out;
}

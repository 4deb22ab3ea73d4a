/**
 * The security audit's checklist, evaluated on what was read of one router
 * (no SSH here: {@linkcode evaluatePosture} takes rows). The items follow
 * MikroTik's "Securing your router" page and common CIS-style hardening;
 * each finding names its source. What a read cannot show is said, not
 * guessed: RouterOS never prints a password, so an empty or weak password
 * is not detectable (the audit reports the `admin` account and the password
 * policy instead).
 *
 * @module
 */
import { LONG_TERM_AS_OF, olderThanLongTerm } from "../../routeros/long_term.ts";
import { compareReleases, parseRelease, releaseOfVersion } from "../../routeros/release.ts";
import { isYes } from "../../routeros/rule_match.ts";
import {
  dnsCheck,
  finalDropCheck,
  proxyChecks,
  SECURING,
  serviceChecks,
} from "./posture_access.ts";
import {
  evidence,
  insideList,
  listMembers,
  type PostureContext,
  postureContext,
} from "./posture_context.ts";
import {
  type Finding,
  type PostureFacts,
  SEVERITIES,
  type Severity,
  SEVERITY_WEIGHT,
} from "./posture_types.ts";
import type { WanInterface } from "../../routeros/wan.ts";

/** The menus the audit reads (paths of `router_print`). */
export const POSTURE_MENUS = [
  "/system/resource",
  "/system/package",
  "/system/package/update",
  "/user",
  "/user/settings",
  "/ip/service",
  "/ip/ssh",
  "/ip/dns",
  "/ip/proxy",
  "/ip/socks",
  "/ip/upnp",
  "/ip/cloud",
  "/tool/mac-server",
  "/tool/mac-server/mac-winbox",
  "/tool/mac-server/ping",
  "/ip/neighbor/discovery-settings",
  "/tool/bandwidth-server",
  "/interface",
  "/interface/list",
  "/interface/list/member",
  "/ip/address",
  "/ip/firewall/filter",
] as const;

/** Packages whose use shows in one menu: installed with that menu empty is unused. */
export const PACKAGE_USE: Readonly<Record<string, string>> = {
  wireless: "/interface/wireless",
  "wifi-qcom": "/interface/wifi",
  "wifi-qcom-ac": "/interface/wifi",
  wifiwave2: "/interface/wifi",
  container: "/container",
  "user-manager": "/user-manager/user",
  hotspot: "/ip/hotspot",
};

/** What the audit cannot see, on every router. */
const NEVER_SEEN = [
  "passwords: RouterOS never shows one, so an empty, default or weak password cannot be " +
  "detected (the admin account and the password policy are checked instead)",
  "the LCD's PIN (/lcd): hardware the command trees of a CHR lack; not read",
];

function adminCheck(ctx: PostureContext): Finding[] {
  const users = ctx.rows("/user");
  const admin = users?.find((u) => u.name === "admin");
  if (!admin || isYes(admin.disabled)) return [];
  const self = ctx.facts.loginUser === "admin";
  return [{
    id: "admin-user",
    check: "default-admin",
    severity: "high",
    title: "the default user admin is enabled" +
      (admin.address ? "" : " and may log in from any address"),
    evidence: [
      evidence("/user", admin, ["name", "group", "address", "last-logged-in", "disabled"]),
    ],
    fix: [{ tool: "router_disable_user", arguments: { name: "admin" } }],
    fix_note: "First add a user of your own with full rights (router_add_user) and log in with " +
      "it; then disable admin." +
      (self
        ? " This server logs in as admin: move its inventory entry to the new user first " +
          "(the lock-out guard refuses this fix until confirm)."
        : ""),
    source: `${SECURING}, RouterOS username (change the default username admin)`,
  }];
}

function passwordPolicyCheck(ctx: PostureContext): Finding[] {
  const s = ctx.setting("/user/settings");
  if (!s) {
    ctx.notChecked.push("password policy: /user settings is RouterOS 7's (not on this router)");
    return [];
  }
  if (Number(s["minimum-password-length"] ?? 0) > 0) return [];
  return [{
    id: "password-policy",
    check: "password-policy",
    severity: "low",
    title: "no minimum password length: a user may be given an empty password",
    evidence: [evidence("/user/settings", s, ["minimum-password-length", "minimum-categories"])],
    fix: [{ tool: "router_update_user_settings", arguments: { minimum_password_length: 12 } }],
    fix_note: "Applies to passwords set from now on; existing ones are not checked.",
    source: "CIS-style: enforce a password length; MikroTik manual, User (/user settings)",
  }];
}

/** MAC-Telnet, MAC WinBox and discovery: answering on a WAN interface, or on every one. */
function interfaceListChecks(ctx: PostureContext): Finding[] {
  const out: Finding[] = [];
  const items = [
    {
      path: "/tool/mac-server",
      key: "allowed-interface-list",
      id: "mac-server",
      what: "MAC-Telnet (the MAC server)",
      tool: "router_update_mac_server",
      arg: "allowed_interface_list",
      source: `${SECURING}, MAC connectivity access`,
    },
    {
      path: "/tool/mac-server/mac-winbox",
      key: "allowed-interface-list",
      id: "mac-winbox",
      what: "WinBox by MAC address",
      tool: "router_update_mac_winbox_server",
      arg: "allowed_interface_list",
      source: `${SECURING}, MAC connectivity access`,
    },
    {
      path: "/ip/neighbor/discovery-settings",
      key: "discover-interface-list",
      id: "neighbor-discovery",
      what: "neighbour discovery (MNDP, LLDP, CDP)",
      tool: "router_update_neighbor_discovery",
      arg: "discover_interface_list",
      source: `${SECURING}, Neighbor discovery`,
    },
  ];
  for (const it of items) {
    const s = ctx.setting(it.path);
    if (!s) continue;
    const list = s[it.key];
    const members = list === "all" ? undefined : listMembers(ctx, list);
    const onWan = ctx.wan.filter((w) => list === "all" || members?.has(w.name));
    if (list === "none" || (list !== "all" && onWan.length === 0)) continue;
    const target = insideList(ctx);
    out.push({
      id: it.id,
      check: "layer2-access",
      severity: onWan.length ? "medium" : "low",
      title: `${it.what} answers on ${
        onWan.length ? `the WAN (${onWan.map((w) => w.name).join(", ")})` : "every interface"
      }`,
      evidence: [evidence(it.path, s, [it.key])],
      fix: [{ tool: it.tool, arguments: { [it.arg]: target } }],
      fix_note: target === "none"
        ? "There is no LAN list without WAN interfaces, so this turns it off."
        : `Limits it to the ${target} list.`,
      source: it.source,
    });
  }
  const ping = ctx.setting("/tool/mac-server/ping");
  if (ping && isYes(ping.enabled)) {
    out.push({
      id: "mac-ping",
      check: "layer2-access",
      severity: "low",
      title: "the router answers MAC pings",
      evidence: [evidence("/tool/mac-server/ping", ping, ["enabled"])],
      fix: [{ tool: "router_update_mac_ping_server", arguments: { enabled: false } }],
      source: `${SECURING}, MAC connectivity access`,
    });
  }
  return out;
}

function serverChecks(ctx: PostureContext): Finding[] {
  const out: Finding[] = [];
  const bw = ctx.setting("/tool/bandwidth-server");
  if (bw && isYes(bw.enabled)) {
    out.push({
      id: "bandwidth-server",
      check: "bandwidth-server",
      severity: isYes(bw.authenticate) ? "low" : "medium",
      title: `the bandwidth test server is enabled${
        isYes(bw.authenticate) ? "" : " without authentication"
      }`,
      evidence: [evidence("/tool/bandwidth-server", bw, ["enabled", "authenticate"])],
      fix: [{ tool: "router_update_bandwidth_server", arguments: { enabled: false } }],
      source: `${SECURING}, Bandwidth server`,
    });
  }
  const upnp = ctx.setting("/ip/upnp");
  if (upnp && isYes(upnp.enabled)) {
    out.push({
      id: "upnp",
      check: "upnp",
      severity: "medium",
      title: "UPnP is enabled: any LAN host can open port forwards from the internet",
      evidence: [evidence("/ip/upnp", upnp, ["enabled", "allow-disable-external-interface"])],
      fix: [{ tool: "router_update_upnp", arguments: { enabled: false } }],
      source: `${SECURING}, other client services (UPnP)`,
    });
  }
  const cloud = ctx.setting("/ip/cloud");
  if (cloud && isYes(cloud["ddns-enabled"])) {
    out.push({
      id: "ip-cloud",
      check: "ip-cloud",
      severity: "low",
      title: "IP Cloud DDNS publishes the router's public address under its cloud name",
      evidence: [evidence("/ip/cloud", cloud, ["ddns-enabled"])],
      fix: [{ tool: "router_update_ip_cloud", arguments: { ddns_enabled: false } }],
      source: `${SECURING}, other client services (cloud)`,
    });
  }
  return out;
}

function sshChecks(ctx: PostureContext): Finding[] {
  const ssh = ctx.setting("/ip/ssh");
  if (!ssh) return [];
  const out: Finding[] = [];
  const weak: string[] = [];
  const args: Record<string, unknown> = {};
  if (!isYes(ssh["strong-crypto"])) {
    weak.push("strong-crypto=no");
    args.strong_crypto = true;
  }
  if (isYes(ssh["allow-none-crypto"])) {
    weak.push("allow-none-crypto=yes");
    args.allow_none_crypto = false;
  }
  const ciphers = (ssh.ciphers ?? "").split(/[,;]/).filter(Boolean);
  if (ciphers.some((c) => ["3des-cbc", "aes-cbc", "null"].includes(c))) {
    weak.push(`ciphers=${ciphers.join(",")}`);
    args.ciphers = ["auto"];
  }
  if (weak.length) {
    out.push({
      id: "ssh-crypto",
      check: "ssh-crypto",
      severity: isYes(ssh["allow-none-crypto"]) ? "high" : "medium",
      title: `the SSH server allows weak cryptography (${weak.join(", ")})`,
      evidence: [evidence("/ip/ssh", ssh, ["strong-crypto", "allow-none-crypto", "ciphers"])],
      fix: [{ tool: "router_update_ssh_server", arguments: args }],
      fix_note: "This server's own SSH client uses strong algorithms, so it keeps its access.",
      source: `${SECURING}, more secure SSH access (strong-crypto)`,
    });
  }
  const size = Number(ssh["host-key-size"] ?? 2048);
  const rsa = (ssh["host-key-type"] ?? "rsa") === "rsa";
  if (rsa && size < 2048) {
    out.push({
      id: "ssh-host-key",
      check: "ssh-crypto",
      severity: "medium",
      title: `the SSH host key is RSA of ${size} bits`,
      evidence: [evidence("/ip/ssh", ssh, ["host-key-type", "host-key-size"])],
      fix: [{ tool: "router_update_ssh_server", arguments: { host_key_size: "2048" } }],
      fix_note: "The size applies to the next key: regenerate it on the router " +
        "(/ip ssh regenerate-host-key; no tool of this catalogue does), then update known hosts.",
      source: `${SECURING}, more secure SSH access`,
    });
  }
  return out;
}

function releaseCheck(ctx: PostureContext): Finding[] {
  const res = ctx.setting("/system/resource");
  const version = res?.version ?? "";
  const r = releaseOfVersion(version);
  if (!r) {
    ctx.notChecked.push(`RouterOS release: "${version}" is not one this audit reads`);
    return [];
  }
  const upd = ctx.setting("/system/package/update");
  const latest = upd?.["latest-version"] ? parseRelease(upd["latest-version"]) : null;
  const fix = [
    { tool: "router_check_updates", arguments: {} },
    { tool: "router_upgrade", arguments: {} },
  ];
  const source = "CIS-style: run a supported release; MikroTik manual, Upgrading and " +
    "installation (the long-term channel)";
  if (latest && compareReleases(r, latest) < 0) {
    return [{
      id: "routeros-outdated",
      check: "routeros-release",
      severity: upd?.channel === "long-term" ? "medium" : "low",
      title: `RouterOS ${r.text} is older than ${latest.text}, the newest of its ${
        upd?.channel ?? ""
      } channel (the router's own last check)`.replace("  ", " "),
      evidence: [
        evidence("/system/resource", res, ["version"]),
        evidence("/system/package/update", upd, ["channel", "installed-version", "latest-version"]),
      ],
      fix,
      fix_note: "router_upgrade installs the newest release of the router's channel and reboots " +
        "(destructive: confirm); run it in a maintenance window.",
      source,
    }];
  }
  if (latest) return [];
  const lts = olderThanLongTerm(r);
  if (!lts) return [];
  return [{
    id: "routeros-outdated",
    check: "routeros-release",
    severity: "medium",
    title: `RouterOS ${r.text} is older than ${lts.version}, the last long-term release this ` +
      `audit knows (${lts.date})`,
    evidence: [
      evidence("/system/resource", res, ["version"]),
      {
        menu: "(long-term release table)",
        note: `${lts.version} of ${lts.date}, from ${lts.source}; the table is of ` +
          `${LONG_TERM_AS_OF} and may be stale: router_check_updates asks MikroTik`,
      },
    ],
    fix,
    fix_note: "router_upgrade installs the newest release of the router's channel and reboots " +
      "(destructive: confirm); run it in a maintenance window.",
    source,
  }];
}

function packageChecks(ctx: PostureContext): Finding[] {
  const packages = ctx.rows("/system/package") ?? [];
  const unused = packages.filter((p) => {
    const menu = PACKAGE_USE[p.name ?? ""];
    if (!menu || isYes(p.disabled)) return false;
    const items = ctx.rows(menu);
    return items !== undefined && items.length === 0;
  });
  return unused.map((p) => ({
    id: `package-unused:${p.name}`,
    check: "unused-package",
    severity: "low" as Severity,
    title: `package ${p.name} is installed but nothing uses it (${PACKAGE_USE[p.name!]} is empty)`,
    evidence: [
      evidence("/system/package", p, ["name", "version", "disabled"]),
      { menu: PACKAGE_USE[p.name!], note: "no items" },
    ],
    fix: [],
    fix_note: `No tool of this catalogue disables packages: on the router, /system package ` +
      `disable ${p.name}, then reboot.`,
    source: "CIS-style: remove software that is not used; MikroTik manual, Packages",
  }));
}

function unusedInterfaces(ctx: PostureContext): Finding[] {
  const addresses = new Set((ctx.rows("/ip/address") ?? []).map((a) => a.interface));
  const idle = (ctx.rows("/interface") ?? []).filter((i) =>
    i.type === "ether" && !isYes(i.running) && !isYes(i.disabled) && !isYes(i.slave) &&
    !addresses.has(i.name)
  );
  if (!idle.length) return [];
  return [{
    id: "interfaces-unused",
    check: "unused-interface",
    severity: "low",
    title: `Ethernet ports not running, in no bridge and with no address: ${
      idle.map((i) => i.name).join(", ")
    }`,
    evidence: idle.map((i) => evidence("/interface", i, ["name", "running", "disabled"])),
    fix: idle.map((i) => ({ tool: "router_disable_interface", arguments: { name: i.name } })),
    fix_note: "A disabled port does not come up when something is plugged in.",
    source: `${SECURING}, disable unused interfaces`,
  }];
}

/** The audit of one router: findings worst first, what was not checked, its WAN side. */
export interface PostureResult {
  findings: Finding[];
  notChecked: string[];
  wan: WanInterface[];
  lan: string[];
  score: number;
}

/** Evaluate the checklist on what was read of one router. */
export function evaluatePosture(facts: PostureFacts): PostureResult {
  const ctx = postureContext(facts);
  if (!ctx.wan.length) {
    ctx.notChecked.push(
      "exposure to the WAN: no WAN interface is known (no WAN list member, no default route " +
        "out of a non-LAN interface, no wan:<interface> inventory tag)",
    );
  }
  for (const path of POSTURE_MENUS) {
    if (!facts.menus.has(path)) continue;
    if (facts.menus.get(path) === undefined && path !== "/user/settings") {
      ctx.notChecked.push(`${path}: not on this router`);
    }
  }
  const findings = [
    ...adminCheck(ctx),
    ...passwordPolicyCheck(ctx),
    ...serviceChecks(ctx),
    ...finalDropCheck(ctx),
    ...dnsCheck(ctx),
    ...proxyChecks(ctx),
    ...interfaceListChecks(ctx),
    ...serverChecks(ctx),
    ...sshChecks(ctx),
    ...releaseCheck(ctx),
    ...packageChecks(ctx),
    ...unusedInterfaces(ctx),
  ].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  return {
    findings,
    notChecked: [...NEVER_SEEN, ...ctx.notChecked],
    wan: ctx.wan,
    lan: ctx.lan,
    score: findings.reduce((n, f) => n + SEVERITY_WEIGHT[f.severity], 0),
  };
}

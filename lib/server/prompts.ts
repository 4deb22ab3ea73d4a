/**
 * MCP prompts for the jobs operators hand to agents: audit firewall
 * exposure, troubleshoot a link or a route, prepare a change with
 * `router_apply_changes`, compare two devices. Each is a few lines that
 * steer the agent to the right tools; a prompt whose tools this server
 * does not offer (toolsets, read-only mode) is not listed.
 *
 * @module
 */
import { echo } from "../echo.ts";
import type { GetPromptResult, Prompt } from "../mcp_sdk/types.ts";
import { INVALID_PARAMS, type Reads, RequestError } from "./reads.ts";

/** Where an argument's completions come from. */
export type ArgumentSource = "device" | "interface" | "export-section";

/** One argument of a prompt. */
interface PromptArgument {
  name: string;
  description: string;
  /** Required always; `device` arguments are required only with several devices. */
  required?: boolean;
  complete?: ArgumentSource;
}

/** A prompt: what the agent is asked, with the arguments filled in. */
interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** Tools the prompt cannot do without (all must be offered). */
  needs: string[];
  /** Fewest devices it makes sense with. */
  minDevices?: number;
  text(a: Record<string, string>): string;
}

const DEVICE: PromptArgument = {
  name: "device",
  description: "The router (a device title)",
  complete: "device",
};

/** How a prompt names the router it is about. */
const router = (device: string | undefined) => device ? `router "${device}"` : "the router";
/** The `device` argument to pass to each tool, when there is one. */
const deviceArg = (device: string | undefined) =>
  device ? ` Pass device: "${device}" to every tool.` : "";

const PROMPTS: readonly PromptDef[] = [
  {
    name: "audit_firewall",
    title: "Audit firewall exposure",
    description: "Find what a router exposes to the internet, read-only, and propose fixes.",
    arguments: [DEVICE],
    needs: ["router_list_firewall_filter_rules", "router_list_ip_services"],
    text: (a) =>
      `Audit the firewall of ${router(a.device)} for exposure. Change nothing.${deviceArg(a.device)}
1. Read router_list_firewall_filter_rules, router_list_ipv6_firewall_filter_rules, router_list_firewall_nat_rules (dstnat port forwards) and router_list_firewall_address_list_entries; router_print /interface/list/member shows which interfaces are WAN.
2. Read router_list_ip_services: which management services (ssh, winbox, api, www...) are enabled and whether their address limits them.
3. Report by rule id: what the internet can reach (input and forward chains without a final drop, accepts without a source or interface-list limit, port forwards), open services, IPv6 gaps, disabled or shadowed rules. For each fix, give the router_apply_changes operations and check them with dry_run: true.`,
  },
  {
    name: "troubleshoot_link",
    title: "Troubleshoot a link",
    description: "Find why an interface is down, flapping or losing traffic, read-only.",
    arguments: [DEVICE, {
      name: "interface",
      description: "The interface, e.g. ether1",
      required: true,
      complete: "interface",
    }],
    needs: ["router_get_interface", "router_get_logs"],
    text: (a) =>
      `Troubleshoot the link on interface "${a.interface}" of ${router(a.device)}. Change nothing.${
        deviceArg(a.device)
      }
1. router_get_interface (name: "${a.interface}"): running, disabled, MTU, last link up and down; for an Ethernet port router_get_ethernet_port (speed, duplex, auto-negotiation) and router_interface_traffic (rates, errors, drops).
2. router_list_ip_addresses and router_list_neighbors (where: {interface: "${a.interface}"}), and router_print /ip/arp, to see what is on the other side.
3. router_get_logs (text: "${a.interface}") for link flaps; router_ping a neighbour or the gateway with interface: "${a.interface}".
Say what is wrong, with the evidence, and what to check next.`,
  },
  {
    name: "troubleshoot_route",
    title: "Troubleshoot a route",
    description: "Find how a router reaches a destination, or why it does not, read-only.",
    arguments: [DEVICE, {
      name: "destination",
      description: "An address or name, e.g. 8.8.8.8",
      required: true,
    }],
    needs: ["router_check_route", "router_ping"],
    text: (a) =>
      `Find how ${router(a.device)} reaches ${a.destination}, or why it does not. Change nothing.${
        deviceArg(a.device)
      }
1. router_check_route (destination: "${a.destination}") for the route that wins; router_get_default_route; router_list_routes for competing routes (distance, inactive, unreachable gateway).
2. router_ping and router_traceroute (address: "${a.destination}").
3. If packets leave but no answer comes: router_list_firewall_filter_rules (output and forward chains) and router_list_firewall_nat_rules (srcnat).
Report the path, where it breaks and the evidence.`,
  },
  {
    name: "prepare_change",
    title: "Prepare a change",
    description: "Plan a configuration change, show its exact commands, then apply it with " +
      "automatic revert (router_apply_changes) once approved.",
    arguments: [DEVICE, {
      name: "goal",
      description: "What should change, e.g. allow SSH from 10.0.0.0/24 only",
      required: true,
    }],
    needs: ["router_apply_changes", "router_commit_changes"],
    text: (a) =>
      `Prepare this change on ${router(a.device)}: ${a.goal}${deviceArg(a.device)}
1. Read the current state with the list and get tools of the menus involved; note the ids.
2. Write the change as router_apply_changes operations ({tool, arguments}); call router_apply_changes with dry_run: true and show me the exact commands and any problems. Change nothing yet.
3. Only after I approve: call router_apply_changes with confirm_within_seconds (e.g. 120) and ping_targets that must stay reachable, check the result with the read tools, then router_commit_changes with the change id, or router_rollback_changes if anything is wrong. Without a commit the router reverts by itself.`,
  },
  {
    name: "audit_security",
    title: "Audit security posture",
    description: "Check one router, or every router, against the hardening checklist and " +
      "propose the fixes, read-only.",
    arguments: [{
      name: "device",
      description: "The router (default: every router of the fleet)",
      complete: "device",
      required: false,
    }],
    needs: ["router_audit_security"],
    text: (a) =>
      `Audit the security of ${
        a.device ? router(a.device) : "every router of the fleet"
      }. Change nothing yet.
1. router_audit_security${
        a.device ? ` (devices: ["${a.device}"])` : ""
      }: findings worst first, each with its evidence (items with ids), its source and the fix calls; not_checked says what it cannot see.
2. For each critical or high finding, explain the risk from its evidence; run its fix calls with dry_run: true and show the exact commands.
3. Propose the fixes as router_apply_changes operations, ordered so that this server keeps its access (the lock-out guard asks for confirm where it would not). Apply nothing until I approve.`,
  },
  {
    name: "trace_reachability",
    title: "Why traffic does not get through",
    description: "Follow a destination hop by hop across the fleet and find where and why it " +
      "stops, read-only.",
    arguments: [
      { name: "from", description: "The router the traffic starts on", complete: "device" },
      {
        name: "destination",
        description: "The destination address, e.g. 10.5.0.10",
        required: true,
      },
      { name: "service", description: "Protocol and port, e.g. tcp/443 (default: any)" },
    ],
    needs: ["router_trace_path", "router_topology"],
    text: (a) => {
      const m = /^(tcp|udp)\/(\d{1,5})$/.exec(a.service ?? "");
      const what = m ? `, protocol: "${m[1]}", port: ${m[2]}` : "";
      return `Find how traffic from ${
        a.from ? `router "${a.from}"` : "the router"
      } reaches ${a.destination}, or why it does not. Change nothing.
1. router_trace_path (${
        a.from ? `from: "${a.from}", ` : ""
      }destination: "${a.destination}"${what}): the hops, the route and rules on each, where it stops and why.
2. At the stop: read the rule it names (router_get_firewall_filter_rule with its id), the route (router_check_route on that router), or the link (router_topology with from and to).
3. Report the path, the cause with its evidence, and the smallest change that would let it through (do not make it).`;
    },
  },
  {
    name: "compare_devices",
    title: "Compare two devices",
    description: "Compare the configuration of two routers and explain the differences.",
    arguments: [
      { name: "device_a", description: "The first router", required: true, complete: "device" },
      { name: "device_b", description: "The second router", required: true, complete: "device" },
      {
        name: "section",
        description: "Only this menu, e.g. /ip/firewall/filter (default: everything)",
        complete: "export-section",
      },
    ],
    needs: ["router_export_config"],
    minDevices: 2,
    text: (a) => {
      const section = a.section ? ` section: "${a.section}"` : "";
      return `Compare routers "${a.device_a}" and "${a.device_b}"${
        a.section ? ` in ${a.section}` : ""
      }. Change nothing.
1. router_export_config (${
        section ? `${section.trim()}, ` : ""
      }device: each in turn), or read the resources routeros://${
        encodeURIComponent(a.device_a)
      }/export and routeros://${encodeURIComponent(a.device_b)}/export.
2. For differences that matter, read the typed list tools on both; router_fleet_query runs one read tool on both at once.
3. Report what differs and what only one has, grouped by menu, ignoring ids, counters and dynamic entries; say which differences look intended.`;
    },
  },
];

function offered(reads: Reads): PromptDef[] {
  return PROMPTS.filter((p) =>
    reads.offers(...p.needs) && reads.titles.length >= (p.minDevices ?? 1)
  );
}

/** Whether a `device` argument is required: only when there is more than one device. */
function required(reads: Reads, a: PromptArgument): boolean {
  return a.required ?? (a.complete === "device" && reads.titles.length > 1);
}

/** `prompts/list`. */
export function listPrompts(reads: Reads): Prompt[] {
  return offered(reads).map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: p.arguments.map((a) => ({
      name: a.name,
      description: a.description,
      required: required(reads, a),
    })),
  }));
}

/** Where the completions of a prompt's argument come from, if anywhere. */
export function argumentSource(
  reads: Reads,
  prompt: string,
  argument: string,
): ArgumentSource | undefined {
  return offered(reads).find((p) => p.name === prompt)?.arguments
    .find((a) => a.name === argument)?.complete;
}

/** Longest argument value accepted. */
const MAX_ARGUMENT = 1000;

/**
 * The sentence that names the toolsets to enable, when tools the prompt
 * names are not listed in the session (dynamic toolsets).
 */
function toEnable(reads: Reads, text: string, listed: (tool: string) => boolean): string {
  const sets = new Set<string>();
  for (const [tool] of text.matchAll(/\brouter_[a-z0-9_]+/g)) {
    const set = reads.toolsetOf(tool);
    if (set && !listed(tool)) sets.add(set);
  }
  return sets.size
    ? `\nFirst enable the toolsets ${[...sets].map((s) => `"${s}"`).join(", ")} with ` +
      "router_enable_toolsets: some tools named here are not listed yet."
    : "";
}

/**
 * `prompts/get`: the prompt with its arguments filled in; a missing or bad
 * one is named. `listed` says which tools the session lists now.
 */
export function getPrompt(
  reads: Reads,
  name: string,
  args: Record<string, string> = {},
  listed: (tool: string) => boolean = () => true,
): GetPromptResult {
  const p = offered(reads).find((x) => x.name === name);
  if (!p) {
    const names = offered(reads).map((x) => x.name).join(", ");
    throw new RequestError(
      INVALID_PARAMS,
      `unknown prompt ${echo(name)}; prompts: ${names || "none"}`,
    );
  }
  const values: Record<string, string> = {};
  for (const a of p.arguments) {
    const v = args[a.name]?.trim();
    if (!v) {
      if (required(reads, a)) {
        throw new RequestError(
          INVALID_PARAMS,
          `${name} needs the argument ${a.name}: ${a.description}`,
        );
      }
      continue;
    }
    if (v.length > MAX_ARGUMENT || /\p{Cc}/u.test(v)) {
      throw new RequestError(
        INVALID_PARAMS,
        `${a.name} must be one line of at most ${MAX_ARGUMENT} characters`,
      );
    }
    if (a.complete === "device" && !reads.titles.includes(v)) {
      throw new RequestError(
        INVALID_PARAMS,
        `unknown device ${echo(v)} for ${a.name}; devices: ${reads.titles.join(", ")}`,
      );
    }
    values[a.name] = v;
  }
  const text = p.text(values);
  return {
    description: p.description,
    messages: [{
      role: "user",
      content: { type: "text", text: text + toEnable(reads, text, listed) },
    }],
  };
}

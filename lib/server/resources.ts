/**
 * MCP resources: the device inventory (`routeros://devices`); the fleet's
 * security audit and topology (`routeros://fleet/security`,
 * `routeros://fleet/topology`, `routeros://fleet/topology.mmd`); and, per
 * device, resource templates for its system overview, configuration export
 * (secrets masked), recent log, security audit and any menu `router_print`
 * may read. Every
 * read is a tool call through the guard chain ({@linkcode Reads}); a
 * resource whose tool this server does not offer is not listed. Large
 * contents are cut at a line with a note that says how to read the rest.
 *
 * @module
 */
import type { Resource, ResourceTemplate } from "../mcp_sdk/types.ts";
import { cut, echo } from "../echo.ts";
import { INVALID_PARAMS, type Reads, type ReadSite, RequestError } from "./reads.ts";

/** The inventory resource. */
export const DEVICES_URI = "routeros://devices";

/** Longest resource text, in characters; longer contents are cut with a note. */
export const MAX_RESOURCE_TEXT = 100_000;

/** Log entries a log resource shows (the newest). */
export const LOG_ENTRIES = 200;

/** Resource contents as `resources/read` returns them. */
export interface Contents {
  uri: string;
  mimeType: string;
  text: string;
}

/** One per-device resource kind. */
interface Kind {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Tools it reads with (all must be offered). */
  tools: string[];
  /** Whether resources/list names it for each device (the print template has no fixed URI). */
  listed: boolean;
  /** The template's URI after `routeros://{device}`. */
  suffix: string;
  read(reads: Reads, device: string, rest: string, site: ReadSite): Promise<string>;
}

/** The contents cut at a line, with a note saying what was left out and how to read it. */
export function truncate(text: string, note: (shown: number, total: number) => string): string {
  if (text.length <= MAX_RESOURCE_TEXT) return text;
  const cut = text.lastIndexOf("\n", MAX_RESOURCE_TEXT);
  const shown = cut > 0 ? cut + 1 : MAX_RESOURCE_TEXT;
  return text.slice(0, shown) + note(shown, text.length) + "\n";
}

const json = (v: unknown) => JSON.stringify(v, null, 1);

/** Parts of the overview: a name, the tool, and what of its answer to keep. */
const OVERVIEW: { key: string; tool: string; pick(s: Record<string, any>): unknown }[] = [
  { key: "identity", tool: "router_get_identity", pick: (s) => s.item?.name },
  { key: "system", tool: "router_get_system_resource", pick: (s) => s.item },
  { key: "routerboard", tool: "router_get_routerboard", pick: (s) => s.item },
  { key: "clock", tool: "router_get_clock", pick: (s) => s.item },
  {
    key: "interfaces",
    tool: "router_list_interfaces",
    pick: (s) =>
      (s.items ?? []).map((i: Record<string, unknown>) => ({
        name: i.name,
        type: i.type,
        running: i.running,
        disabled: i.disabled,
        ...(i.comment ? { comment: i.comment } : {}),
      })),
  },
  {
    key: "ip_addresses",
    tool: "router_list_ip_addresses",
    pick: (s) =>
      (s.items ?? []).map((i: Record<string, unknown>) => ({
        address: i.address,
        interface: i.interface,
        disabled: i.disabled,
      })),
  },
  { key: "default_route", tool: "router_get_default_route", pick: (s) => s },
];

/** One fleet-wide resource (`routeros://fleet/{name}`). */
interface FleetKind {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  tools: string[];
  read(reads: Reads, site: ReadSite): Promise<string>;
}

/** The fleet-wide resources: the security audit and the topology (JSON and Mermaid). */
const FLEET_KINDS: readonly FleetKind[] = [
  {
    name: "security",
    title: "Fleet security audit",
    description: "Every device against the hardening checklist, worst first: findings with " +
      "evidence and fix calls, as router_audit_security returns them (JSON).",
    mimeType: "application/json",
    tools: ["router_audit_security"],
    async read(reads, site) {
      const r = await reads.call("router_audit_security", undefined, {}, site);
      return truncate(json(r.structured), () => "");
    },
  },
  {
    name: "topology",
    title: "Fleet topology",
    description: "The fleet as one graph: devices, links with the ports at both ends and " +
      "whether they are up, subnets, external neighbours, as router_topology returns it (JSON).",
    mimeType: "application/json",
    tools: ["router_topology"],
    async read(reads, site) {
      const r = await reads.call("router_topology", undefined, {}, site);
      return truncate(json(r.structured), () => "");
    },
  },
  {
    name: "topology.mmd",
    title: "Fleet topology (Mermaid)",
    description: "The fleet graph as a Mermaid flowchart: one node per device, one edge per " +
      "link labelled with its ports (dashed when down).",
    mimeType: "text/vnd.mermaid",
    tools: ["router_topology"],
    async read(reads, site) {
      const r = await reads.call("router_topology", undefined, { format: "mermaid" }, site);
      return String(r.structured.mermaid ?? "");
    },
  },
];

/** The URI of a fleet-wide resource. */
export function fleetUri(name: string): string {
  return `routeros://fleet/${name}`;
}

const KINDS: readonly Kind[] = [
  {
    name: "overview",
    title: "System overview",
    description: "Identity, RouterOS version and resources, board, clock, interfaces, IPv4 " +
      "addresses and the default route of one router (JSON; a part that fails says why).",
    mimeType: "application/json",
    tools: ["router_get_system_resource"],
    listed: true,
    suffix: "/overview",
    async read(reads, device, _rest, site) {
      const parts = OVERVIEW.filter((p) => reads.offers(p.tool));
      const values = await Promise.all(parts.map(async (p) => {
        try {
          return p.pick((await reads.call(p.tool, device, {}, site)).structured);
        } catch (err) {
          return { error: (err as Error).message };
        }
      }));
      const overview: Record<string, unknown> = { device };
      parts.forEach((p, i) => overview[p.key] = values[i]);
      const left = OVERVIEW.filter((p) => !parts.includes(p)).map((p) => p.key);
      if (left.length) overview.not_offered = left;
      return truncate(json(overview), () => "");
    },
  },
  {
    name: "export",
    title: "Configuration export",
    description: "The router's configuration as a RouterOS script (/export, compact), with " +
      "passwords and keys hidden, as router_export_config returns it.",
    mimeType: "text/plain",
    tools: ["router_export_config"],
    listed: true,
    suffix: "/export",
    async read(reads, device, _rest, site) {
      const r = await reads.call("router_export_config", device, {}, site);
      return truncate(
        String(r.structured.config ?? ""),
        (shown, total) =>
          `# (truncated: the first ${shown} of ${total} characters; read one section with ` +
          "router_export_config, e.g. section: /ip/firewall/filter)",
      );
    },
  },
  {
    name: "log",
    title: "Recent log",
    description: `The newest ${LOG_ENTRIES} entries of the router's log (time, topics, ` +
      "message), as router_get_logs returns them.",
    mimeType: "text/plain",
    tools: ["router_get_logs"],
    listed: true,
    suffix: "/log",
    async read(reads, device, _rest, site) {
      const r = await reads.call("router_get_logs", device, { limit: LOG_ENTRIES }, site);
      const older = r.structured.truncated === true
        ? `(the newest ${LOG_ENTRIES} entries; router_get_logs reads older ones by time, ` +
          "topic or text)\n"
        : "";
      return truncate(
        older + r.text + "\n",
        (shown, total) =>
          `(truncated: the first ${shown} of ${total} characters; router_get_logs filters ` +
          "by topic, severity and text)",
      );
    },
  },
  {
    name: "security",
    title: "Security audit",
    description: "The router against the hardening checklist: findings with evidence and fix " +
      "calls, what was not checked, its WAN interfaces, as router_audit_security returns them (JSON).",
    mimeType: "application/json",
    tools: ["router_audit_security"],
    listed: true,
    suffix: "/security",
    async read(reads, device, _rest, site) {
      const r = await reads.call("router_audit_security", undefined, { devices: [device] }, site);
      const [audit] = (r.structured.devices ?? []) as unknown[];
      return truncate(json(audit ?? {}), () => "");
    },
  },
  {
    name: "print",
    title: "Any allowed menu",
    description: "The records of one menu on router_print's allow-list (RouterOS property " +
      "names, secrets masked), e.g. routeros://{device}/print/ip/arp.",
    mimeType: "application/json",
    tools: ["router_print"],
    listed: false,
    suffix: "/print{+path}",
    async read(reads, device, rest, site) {
      const r = await reads.call("router_print", device, { path: rest }, site);
      return truncate(
        json(r.structured),
        (shown, total) =>
          `\n(truncated: the first ${shown} of ${total} characters; router_print takes ` +
          "where, proplist and limit)",
      );
    },
  },
];

const enc = encodeURIComponent;

/** The URI of a device's resource. */
export function deviceUri(device: string, kind: string, rest = ""): string {
  return `routeros://${enc(device)}/${kind}${rest}`;
}

/** A parsed resource URI: the inventory, or a device's resource (kind and the rest). */
export function parseUri(
  uri: string,
): { kind: "devices" } | { kind: string; device: string; rest: string } | undefined {
  if (uri === DEVICES_URI) return { kind: "devices" };
  const m = /^routeros:\/\/([^/?#]+)\/([a-z]+)(\/[^?#]*)?$/.exec(uri);
  if (!m) return undefined;
  let device: string;
  try {
    device = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  return { kind: m[2], device, rest: m[3] ?? "" };
}

const PAGE = 100;

/** `resources/list`: the inventory, then each device's listed resources, 100 a page. */
export function listResources(
  reads: Reads,
  cursor: string | undefined,
): { resources: Resource[]; nextCursor?: string } {
  const all: Resource[] = [];
  if (reads.offers("router_list_devices")) {
    all.push({
      uri: DEVICES_URI,
      name: "devices",
      title: "Devices",
      description: "The routers this server manages (title, host, port, username, region, " +
        "tags, connected); never secrets.",
      mimeType: "application/json",
    });
  }
  for (const k of FLEET_KINDS.filter((f) => reads.offers(...f.tools))) {
    all.push({
      uri: fleetUri(k.name),
      name: `fleet ${k.name}`,
      title: k.title,
      description: k.description,
      mimeType: k.mimeType,
    });
  }
  const kinds = KINDS.filter((k) => k.listed && reads.offers(...k.tools));
  for (const device of reads.titles) {
    for (const k of kinds) {
      all.push({
        uri: deviceUri(device, k.name),
        name: `${device} ${k.name}`,
        title: `${k.title} of ${device}`,
        description: k.description,
        mimeType: k.mimeType,
      });
    }
  }
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0 || start > all.length) {
    throw new RequestError(INVALID_PARAMS, `invalid cursor ${JSON.stringify(cursor)}`);
  }
  const end = start + PAGE;
  return {
    resources: all.slice(start, end),
    ...(end < all.length ? { nextCursor: String(end) } : {}),
  };
}

/** `resources/templates/list`: each per-device kind whose tools this server offers. */
export function listTemplates(reads: Reads): ResourceTemplate[] {
  return KINDS.filter((k) => reads.offers(...k.tools)).map((k) => ({
    uriTemplate: `routeros://{device}${k.suffix}`,
    name: k.name,
    title: k.title,
    description: k.description,
    mimeType: k.mimeType,
  }));
}

/** JSON-RPC code for a resource that does not exist (MCP). */
export const RESOURCE_NOT_FOUND = -32002;

/** `resources/read`. */
export async function readResource(
  reads: Reads,
  uri: string,
  site: ReadSite,
): Promise<Contents[]> {
  const notFound = (why: string) =>
    new RequestError(RESOURCE_NOT_FOUND, `resource ${cut(uri)} not found: ${why}`, {
      uri: cut(uri),
    });
  // routeros://fleet/... names the fleet (a device titled "fleet" keeps its other kinds).
  const fleet = FLEET_KINDS.find((k) => uri === fleetUri(k.name));
  if (fleet) {
    if (!reads.offers(...fleet.tools)) {
      throw notFound(`this server does not offer ${fleet.tools.join(", ")}`);
    }
    return [{ uri, mimeType: fleet.mimeType, text: await fleet.read(reads, site) }];
  }
  const parsed = parseUri(uri);
  if (!parsed) {
    throw notFound(
      /[?#]/.test(uri)
        ? "a resource URI takes no query or fragment; router_print filters with where"
        : `expected ${DEVICES_URI} or routeros://{device}/{kind}`,
    );
  }
  if (parsed.kind === "devices") {
    if (!reads.offers("router_list_devices")) throw notFound("this server lists no devices");
    const r = await reads.call("router_list_devices", undefined, {}, site);
    return [{ uri, mimeType: "application/json", text: json(r.structured) }];
  }
  const { device, rest } = parsed as { kind: string; device: string; rest: string };
  const kind = KINDS.find((k) => k.name === parsed.kind && reads.offers(...k.tools));
  if (!kind) {
    const known = KINDS.filter((k) => reads.offers(...k.tools)).map((k) => k.name);
    throw notFound(`no resource kind ${echo(parsed.kind)} here (${known.join(", ") || "none"})`);
  }
  if ((kind.name === "print") !== (rest !== "")) {
    throw notFound(kind.name === "print" ? "give a menu path, e.g. /ip/arp" : "extra path");
  }
  if (!reads.titles.includes(device)) {
    throw notFound(`no device ${echo(device)}; devices: ${reads.titles.join(", ")}`);
  }
  return [{ uri, mimeType: kind.mimeType, text: await kind.read(reads, device, rest, site) }];
}

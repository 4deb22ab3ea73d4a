/**
 * What a tool is: data (name, schemas, annotations, toolset) beside the
 * handler that does the work. The guard chain (`guard/`) runs every call;
 * the server turns the definitions into MCP tools.
 *
 * @module
 */
import type * as z from "zod";
import type { RouterOsClient } from "../routeros/client.ts";
import type { MenuSchema } from "../routeros/schema/menu.ts";
import type { Privilege } from "../routeros/schema/field.ts";
import type { Role } from "../auth/principal.ts";
import type { ScriptText } from "../routeros/export_secrets.ts";

/** The toolsets tools are grouped in. */
export const TOOLSETS = [
  "interfaces",
  "ip",
  "dhcp",
  "dns",
  "routing",
  "firewall",
  "users",
  "system",
  "files",
  "logs",
  "wireless",
  "wireguard",
  "queues",
  "bridge",
  "services",
  "diagnostics",
  "changes",
  "fleet",
  "tunnels",
  "vpn",
  "ipv6",
  "dynamic-routing",
  "platform",
  "operations",
  "insight",
] as const;

/** A toolset name. */
export type Toolset = typeof TOOLSETS[number];

/** What each toolset covers, for the discovery tool and the server instructions. */
export const TOOLSET_ABOUT: Record<Toolset, string> = {
  interfaces: "interfaces, Ethernet ports, VLANs, VRRP, interface lists, PoE, traffic",
  ip: "IPv4/IPv6 addresses, address pools, ARP",
  dhcp: "DHCP servers, networks, leases",
  dns: "DNS resolver, static entries, cache",
  routing: "IPv4/IPv6 routes, route lookup, blackholes",
  firewall: "filter, NAT, mangle, raw rules, address lists",
  users: "users, groups, sessions, SSH keys",
  system: "identity, clock, NTP, resources, packages, health, reboot",
  files: "files (list, remove, upload and download over SFTP), backups, configuration export",
  logs: "the log",
  wireless: "wifi and legacy wireless interfaces, clients, access lists, CAPsMAN",
  wireguard: "WireGuard interfaces and peers, client configs",
  queues: "simple queues, queue tree, queue types",
  bridge: "bridges, bridge ports, bridge VLANs",
  services: "management services, netwatch, scheduler, neighbours, SNMP, RoMON, traffic-flow",
  diagnostics: "ping, traceroute, torch, packet sniffer, IP scan, bandwidth test, wake-on-LAN, " +
    "print any menu, raw commands",
  changes: "confirm-or-revert changes (apply, commit, roll back)",
  fleet: "devices and fleet-wide queries",
  tunnels: "GRE, EoIP, IPIP and VXLAN tunnels, bonding",
  vpn: "PPP users and profiles, L2TP/SSTP/OpenVPN/PPPoE servers and clients, IPsec",
  ipv6: "IPv6 prefix pools, router advertisements, DHCPv6 client and server",
  "dynamic-routing": "OSPF, BGP, BFD, routing filters, routing tables, VRFs (RouterOS 7)",
  platform: "certificates, RADIUS, User Manager, hotspot, scripts, logging, containers",
  operations: "config snapshots, diffs, drift; monitoring; backups off the router; upgrades",
  insight: "fleet-wide security audit, topology, path tracing",
};

/** MCP tool annotations. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Annotations of a read-only tool. */
export const READ: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations of a read that reaches beyond the router (ping, DNS). */
export const PROBE: Annotations = { ...READ, idempotentHint: false, openWorldHint: true };

/** Annotations of a tool that changes the router but destroys nothing. */
export const WRITE: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** A write that gives the same result when repeated (update, enable, disable). */
export const WRITE_IDEMPOTENT: Annotations = { ...WRITE, idempotentHint: true };

/** Annotations of a destructive write (remove, reboot, raw commands). */
export const DESTRUCTIVE: Annotations = { ...WRITE, destructiveHint: true };

/** What a handler returns: typed data plus a compact text rendering. */
export interface ToolResult<O = Record<string, unknown>> {
  structured: O;
  text: string;
}

/** A device as fleet-wide tools see it (never secrets). */
export interface DeviceInfo {
  title: string;
  host: string;
  port: number;
  username: string;
  region?: string;
  tags: string[];
  /** The bastions it is reached through, from this server outward (no secrets). */
  via?: string[];
  connected: boolean;
}

/** The fleet, as tools that span devices see it. */
export interface FleetView {
  /** Every device, without secrets. */
  summaries(): DeviceInfo[];
}

/** A session's toolsets, as the discovery tools change them. */
export interface ToolsetControl {
  /** Each toolset of this server: its tools, whether enabled, what it covers. */
  list(): { name: string; tools: number; enabled: boolean; about: string }[];
  /** Enable toolsets; returns the tool names now listed. One list_changed is sent. */
  enable(names: readonly string[]): string[];
  /** Disable toolsets; returns the tool names no longer listed. One list_changed is sent. */
  disable(names: readonly string[]): string[];
}

/** How a nested call is made by a composite tool. */
export interface NestedCall {
  /** Tool name. */
  name: string;
  args: Record<string, unknown>;
  /** Another device (fleet jobs); default: the caller's. */
  device?: string;
}

/** Context a handler runs in. */
export interface ToolContext {
  /** The resolved device's client (per-device tools). */
  client: RouterOsClient;
  /** The resolved device's title ("" for tools that act on no device). */
  device: string;
  /**
   * The devices this server reaches through this one (it is their SSH
   * bastion), by title; absent when none.
   */
  forwardsFor?: readonly string[];
  fleet: FleetView;
  /** Report progress (MCP progress notifications when the client asked for them). */
  progress?: (done: number, total: number, message?: string) => Promise<void>;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal;
  /** The session's toolsets (discovery tools; absent where a session has none). */
  toolsets?: ToolsetControl;
  /** The local state directory (`--state-dir`), for snapshots; absent where none is set. */
  stateDir?: string;
  /** The local files directory (`--files-dir`): transfers read and write only inside it. */
  filesDir?: string;
  /**
   * `--reveal-secrets`: reads may show the passwords inside script fields
   * (absent or false: they are masked).
   */
  revealSecrets?: boolean;
  /**
   * How reads show script text (a `source`, an `on-event`, the scripts in
   * an export or a file): whole with `--reveal-secrets`; withheld from a
   * principal below admin, since no masking finds every credential a script
   * can hold; otherwise with the credentials masking finds masked.
   */
  scriptText: ScriptText;
  /**
   * Whether the caller's scope lets it see or act on `device` (a title):
   * for tools that act on no device but keep data of many (snapshots).
   */
  mayUse(device: string): boolean;
  /** Refuse, as the scope guard does, a device outside the caller's scope. */
  authorizeDevice(device: string): void;
  /**
   * Refuse, as the role guard does, a caller below `need`, for a need the
   * call's arguments do not show (`why`: the pending change it acts on is
   * an import).
   */
  authorizeRole(need: Role, why: string): void;
  /**
   * Run another tool of this server's catalogue through the same guard
   * chain as a direct call (composite tools and fleet jobs use this).
   */
  call(nested: NestedCall): Promise<ToolResult>;
  /**
   * Pass a nested call through the guards without running it (a composite
   * plans all its steps before it changes anything): the tool and its
   * checked arguments, or the refusal the call would get.
   */
  check(nested: NestedCall): Promise<{ tool: ToolDef; args: Record<string, unknown> }>;
}

/** What a dry run reports: the exact commands and the item as it would look. */
export interface DryRunResult {
  /** The command text the real call would send, in order. */
  commands: string[];
  /** The item as it would look afterwards (or the item that would be removed). */
  preview: Record<string, unknown>;
  /** Problems found while resolving references (the real call would fail). */
  problems: string[];
}

/** The verbs the engine makes tools for. */
export type Verb = "list" | "get" | "add" | "update" | "remove" | "enable" | "disable" | "move";

/** A tool, as the server and the guard chain see it. */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  toolset: Toolset;
  /** In the default (core) catalogue: what an operator reaches for first. */
  core?: boolean;
  /** Input object (without `device`, `dry_run` and `confirm`, which the server adds). */
  input: z.ZodObject;
  /** Output object. */
  output: z.ZodObject;
  annotations: Annotations;
  /** Acts on one device (and so takes `device` in fleet mode). */
  perDevice: boolean;
  /**
   * The least role that may call it (see lib/auth/principal.ts); default
   * `read` for a tool that only reads, `operate` for a write. `admin` marks
   * tools that run code on the router, restart or upgrade it, restore it,
   * or manage its accounts.
   */
  role?: Role;
  /**
   * Offered only when the operator opts in: `raw-commands`, with
   * `--allow-raw-commands` (the tool sends console text as written).
   */
  optIn?: "raw-commands";
  /**
   * A write that changes only this server's side (a download into
   * `--files-dir`): a device marked `read_only` in the inventory still
   * allows it, as it allows reads. `--read-only` still leaves it out.
   */
  localOnly?: boolean;
  /**
   * Its commands must not wait behind other callers' (the commit or
   * rollback of a change the router reverts by itself at a deadline): they
   * may use the SSH channel each device keeps for such.
   */
  urgent?: boolean;
  // deno-lint-ignore no-explicit-any
  handler(args: any, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Write tools: validate, resolve references with reads only, and report
   * the exact commands the call would send. Sends nothing that changes state.
   */
  // deno-lint-ignore no-explicit-any
  dryRun?(args: any, ctx: ToolContext): Promise<DryRunResult>;
  /** At least one of these arguments must be given (an item by `id` or by `name`). */
  requireOneOf?: readonly string[];
  /** Input arguments whose values are secret (masked in dry runs, errors and audit lines). */
  secretArgs?: readonly string[];
  /**
   * Input arguments that hold raw RouterOS console text: the value of each
   * secret `name=value` in them is masked (dry runs, errors, audit lines).
   */
  rawCommandArgs?: readonly string[];
  /**
   * Input arguments that grant more than the tool's role when set, with
   * what each grants and which values do (a field marked `privileged`: a
   * script the router runs such as `lease_script`, a community's
   * `write_access`, a RADIUS server's `service` with `login`): a call that
   * sets one to a value that grants it needs the admin role, whatever the
   * tool's own role.
   */
  privilegedArgs?: Readonly<Record<string, Privilege>>;
  /**
   * What the item this write acts on holds now of those privileges (what
   * each grants), read from the router: changing an item that holds one
   * (its name, addresses, secrets, or enabling it) takes it over, so it
   * needs the admin role too. Throws when the item cannot be read (the
   * guard then refuses: fail closed); an item not found holds none.
   */
  // deno-lint-ignore no-explicit-any
  heldPrivileges?(args: any, ctx: ToolContext): Promise<string[]>;
  /**
   * What this write's arguments grant through other items (a privilege by
   * reference: a User Manager user's `group` naming a group whose attributes
   * grant router logins; `/snmp` `enabled` opening a write community), read
   * from the router: each said as `<argument> (<what holds what>)`. Needs
   * the admin role like a privileged argument; throws when the items cannot
   * be read (the guard then refuses).
   */
  // deno-lint-ignore no-explicit-any
  grantsThrough?(args: any, ctx: ToolContext): Promise<string[]>;
  /**
   * Input arguments that may move the router's clock when set to anything
   * but "", false or null (a field marked `movesClock`): refused inside a
   * change and while a change waits for its commit, since revert jobs run
   * by that clock (`lib/tools/system/clock_guard.ts`).
   */
  clockArgs?: readonly string[];
  /**
   * Input arguments that may move the router's clock when turned on while
   * another property of the same settings menu is on (`ddns_enabled` while
   * `update-time` is, by its RouterOS name): the call's own value of that
   * property decides, else the router's. Refused as `clockArgs` are.
   */
  clockArgsWith?: Readonly<Record<string, string>>;
  /**
   * Composite tools: `args` with the arguments of each nested call replaced
   * by `mask(tool, arguments)`, so their secrets are masked in the
   * composite's own audit line and previews.
   */
  maskNested?(
    // deno-lint-ignore no-explicit-any
    args: any,
    mask: (tool: string, args: Record<string, unknown>) => Record<string, unknown>,
  ): Record<string, unknown>;
  /**
   * The call would show secrets the router holds (an export with
   * `show_sensitive`), or tell them (a filter on a secret, which answers
   * whether a guess is right): true, or a sentence saying how; the guard
   * chain then needs `--reveal-secrets`.
   */
  // deno-lint-ignore no-explicit-any
  revealsSecrets?(args: any): boolean | string;
  /**
   * What the call would cut of this server's own management access (its
   * interface, address, SSH service, user), or undefined: the guard chain
   * then asks for `confirm: true`.
   */
  // deno-lint-ignore no-explicit-any
  lockout?(args: any, ctx: ToolContext): Promise<string | undefined>;
  /** Valid example arguments against a default simulated router (docs, tests). */
  example?: Record<string, unknown>;
  /** Writes: the tool that reads back what this one changes (named when its outcome is unknown). */
  readBack?: string;
  /** Engine-made tools: the menu and verb (change inverses use them). */
  crud?: { menu: MenuSchema; verb: Verb };
}

/**
 * A lab of simulated routers wired together, described as data: routers
 * (identity, release, addresses, static routes, console commands), links
 * with the interface names at both ends and their subnet, and which links
 * are down. {@linkcode startLab} starts one simulator per router and seeds
 * each so that what the routers say agrees across the lab:
 *
 * - every router gets MAC addresses of its own (`02:00:00:<router>:00:<port>`,
 *   locally administered) instead of the simulator's shared ones;
 * - each end of a link holds the next host address of the link's subnet
 *   (the first end `.1` of a /30, the second `.2`), and a linked port
 *   leaves the default bridge;
 * - the ports of an up link are `running`, those of a down link are not;
 * - `/ip/neighbor` of each router lists the router at the other end of each
 *   up link as MNDP shows it (`real-output/print-ip-neighbor-detail-v6-ansible.txt`):
 *   interface, address, MAC, identity, platform `MikroTik`, version,
 *   board, and `interface-name` (the neighbour's own port); `discovered-by`
 *   on RouterOS 7;
 * - the default configuration's LAN address (192.168.88.1/24, the same on
 *   every simulator) and default route are removed, so that only the lab's
 *   addresses and routes are seen; `lan` gives the bridge an address of its
 *   own;
 * - static routes are added through the console, with the immediate gateway
 *   (`immediate-gw`, RouterOS 7) set to the interface that reaches it.
 *
 * The lab imports nothing from the product: tests turn
 * {@linkcode RunningLab.inventory} into the server's inventory.
 *
 * @module
 */
import { SimNetwork, type SimOptions, type SimRouter, startSimulator } from "./mod.ts";
import type { SimUser, SimVersion } from "./types.ts";

/** A static route of a lab router. */
export interface LabRoute {
  dst: string;
  /** An address or an interface name; absent for a blackhole. */
  gateway?: string;
  distance?: number;
  /** Routing table (RouterOS 6: the routing mark). */
  table?: string;
  blackhole?: boolean;
  comment?: string;
}

/** One router of a lab. */
export interface LabRouter {
  /** Its identity and inventory title. */
  name: string;
  version?: SimVersion;
  /** An address for the default bridge (`10.1.0.1/24`), the LAN behind the router. */
  lan?: string;
  /** Addresses beyond those of links (`{ address: "203.0.113.2/30", interface: "ether1" }`). */
  addresses?: { address: string; interface: string }[];
  routes?: LabRoute[];
  /** Ports that are up though no lab link ends there (an uplink to outside the lab). */
  up?: string[];
  /** Console commands run last (firewall rules, NAT, interface lists...). */
  commands?: string[];
  users?: SimUser[];
  /** Inventory tags. */
  tags?: string[];
}

/** A cable between two lab routers. */
export interface LabLink {
  /** `[router, interface]` of each end. */
  a: readonly [string, string];
  b: readonly [string, string];
  /** The link's subnet (`10.0.12.0/30`): `a` gets its first host address, `b` the second. */
  subnet?: string;
  /** The cable is unplugged: both ports down, no neighbour seen. */
  down?: boolean;
}

/** A lab: routers and the links between them. */
export interface Lab {
  routers: LabRouter[];
  links: LabLink[];
}

/** An inventory entry of a lab router (the product's inventory fields). */
export interface LabDevice {
  title: string;
  host: string;
  port: string;
  username: string;
  password: string;
  tags: string[];
}

/** A started lab. */
export interface RunningLab {
  /** Each router by name. */
  readonly routers: ReadonlyMap<string, SimRouter>;
  /** The routers as inventory entries (logging in as the first user, admin by default). */
  inventory(): LabDevice[];
  /** Each router's address on each of its lab ports: `name` -> `interface` -> `a.b.c.d/len`. */
  readonly addresses: ReadonlyMap<string, ReadonlyMap<string, string>>;
  close(): Promise<void>;
}

function ip4(text: string): number {
  const p = text.split(".").map(Number);
  if (p.length !== 4 || p.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) {
    throw new Error(`lab: ${text} is not an IPv4 address`);
  }
  return ((p[0] << 24) >>> 0) + (p[1] << 16) + (p[2] << 8) + p[3];
}

function fmt4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** The `n`th host address of a subnet, with its prefix length (`10.0.12.1/30`). */
export function hostOf(subnet: string, n: number): string {
  const [base, len] = subnet.split("/");
  const bits = Number(len);
  const size = 2 ** (32 - bits);
  const hosts = bits === 31 ? 2 : size - 2;
  if (!Number.isInteger(bits) || bits < 8 || bits > 31 || n < 1 || n > hosts) {
    throw new Error(`lab: subnet ${subnet} has no host number ${n}`);
  }
  const network = ip4(base) - (ip4(base) % size);
  return `${fmt4(network + n - (bits === 31 ? 1 : 0))}/${bits}`;
}

/** True when `ip` lies in `prefix`. */
function inPrefix(prefix: string, ip: string): boolean {
  const [base, len] = prefix.split("/");
  const size = 2 ** (32 - Number(len));
  return Math.floor(ip4(base) / size) === Math.floor(ip4(ip) / size);
}

function macOf(router: number, port: number): string {
  const h = (n: number) => n.toString(16).toUpperCase().padStart(2, "0");
  return `02:00:00:${h(router)}:00:${h(port)}`;
}

function quote(v: string): string {
  return `"${v.replace(/["\\$]/g, (c) => `\\${c}`)}"`;
}

function run(sim: SimRouter, name: string, command: string): void {
  const r = sim.run(command);
  if (r.exitCode !== 0) throw new Error(`lab: ${name}: ${command}: ${r.output.trim()}`);
}

function check(lab: Lab): void {
  const names = new Set<string>();
  for (const r of lab.routers) {
    if (names.has(r.name)) throw new Error(`lab: router ${r.name} twice`);
    names.add(r.name);
  }
  const ends = new Set<string>();
  for (const l of lab.links) {
    for (const [router, port] of [l.a, l.b]) {
      if (!names.has(router)) throw new Error(`lab: link end ${router} is not a router`);
      const end = `${router}:${port}`;
      if (ends.has(end)) throw new Error(`lab: ${end} ends two links`);
      ends.add(end);
    }
  }
}

/** Start every router of `lab` and seed it; `opts` apply to every simulator. */
export async function startLab(lab: Lab, opts: SimOptions = {}): Promise<RunningLab> {
  check(lab);
  const sims = new Map<string, SimRouter>();
  // The lab's routers reach each other by address (a bandwidth test between two of them).
  const network = opts.network ?? new SimNetwork();
  try {
    for (const r of lab.routers) {
      sims.set(
        r.name,
        await startSimulator({
          ...opts,
          network,
          port: 0,
          identity: r.name,
          ...(r.version ? { version: r.version } : {}),
          ...(r.users ? { users: r.users } : {}),
        }),
      );
    }
    const addresses = seed(lab, sims);
    return {
      routers: sims,
      addresses,
      inventory: () =>
        lab.routers.map((r) => {
          const sim = sims.get(r.name)!;
          const user = r.users?.[0] ?? { name: "admin", password: "" };
          return {
            title: r.name,
            host: sim.host,
            port: String(sim.port),
            username: user.name,
            password: user.password ?? "",
            tags: r.tags ?? [],
          };
        }),
      close: async () => {
        await Promise.all([...sims.values()].map((s) => s.close()));
      },
    };
  } catch (err) {
    await Promise.all([...sims.values()].map((s) => s.close()));
    throw err;
  }
}

/** One end of a link as its router sees it. */
interface End {
  router: string;
  port: string;
  address?: string;
  peer: { router: string; port: string; address?: string };
  up: boolean;
}

function seed(lab: Lab, sims: Map<string, SimRouter>): Map<string, Map<string, string>> {
  const index = new Map(lab.routers.map((r, i) => [r.name, i + 1]));
  const ends: End[] = [];
  const addresses = new Map<string, Map<string, string>>(
    lab.routers.map((r) => [r.name, new Map()]),
  );
  for (const l of lab.links) {
    const a = l.subnet ? hostOf(l.subnet, 1) : undefined;
    const b = l.subnet ? hostOf(l.subnet, 2) : undefined;
    if (a) addresses.get(l.a[0])!.set(l.a[1], a);
    if (b) addresses.get(l.b[0])!.set(l.b[1], b);
    ends.push({
      router: l.a[0],
      port: l.a[1],
      address: a,
      peer: { router: l.b[0], port: l.b[1], address: b },
      up: !l.down,
    });
    ends.push({
      router: l.b[0],
      port: l.b[1],
      address: b,
      peer: { router: l.a[0], port: l.a[1], address: a },
      up: !l.down,
    });
  }
  for (const r of lab.routers) {
    const sim = sims.get(r.name)!;
    const n = index.get(r.name)!;
    const mine = ends.filter((e) => e.router === r.name);
    // Own MACs, and link state: linked ports as the link is, `up` ports up.
    sim.seed("/interface", (items) => {
      for (const it of items) {
        if (it.type !== "ether") continue;
        const port = Number(/(\d+)$/.exec(it.name)?.[1] ?? 0);
        it["mac-address"] = macOf(n, port);
        it["orig-mac-address"] = macOf(n, port);
        const end = mine.find((e) => e.port === it.name);
        if (end) it.running = String(end.up);
        else if (r.up?.includes(it.name)) it.running = "true";
      }
    });
    run(sim, r.name, '/ip route remove [find dst-address="0.0.0.0/0"]');
    run(sim, r.name, '/ip address remove [find address="192.168.88.1/24"]');
    if (r.lan) run(sim, r.name, `/ip address add address=${r.lan} interface=bridge`);
    for (const e of mine) {
      run(sim, r.name, `/interface bridge port remove [find interface=${quote(e.port)}]`);
      if (e.address) {
        run(sim, r.name, `/ip address add address=${e.address} interface=${quote(e.port)}`);
      }
    }
    for (const a of r.addresses ?? []) {
      run(sim, r.name, `/ip address add address=${a.address} interface=${quote(a.interface)}`);
      addresses.get(r.name)!.set(a.interface, a.address);
    }
    const v6 = sim.version.startsWith("6.");
    for (const route of r.routes ?? []) addRoute(sim, r, route, v6, addresses.get(r.name)!);
    sim.seed("/ip/neighbor", (items, newId) => {
      items.length = 0;
      for (const e of mine.filter((x) => x.up)) {
        const peer = sims.get(e.peer.router)!;
        const port = Number(/(\d+)$/.exec(e.peer.port)?.[1] ?? 0);
        items.push({
          ".id": newId(),
          interface: e.port,
          ...(e.peer.address ? { address: e.peer.address.split("/")[0] } : {}),
          "mac-address": macOf(index.get(e.peer.router)!, port),
          identity: e.peer.router,
          platform: "MikroTik",
          version: `${peer.version} (stable)`,
          board: "CHR",
          uptime: "1d2h3m",
          "interface-name": e.peer.port,
          ...(v6 ? {} : { "discovered-by": "mndp" }),
        });
      }
    });
    for (const c of r.commands ?? []) run(sim, r.name, c);
  }
  return addresses;
}

/** Add a static route; on RouterOS 7 its immediate gateway names the port that reaches it. */
function addRoute(
  sim: SimRouter,
  r: LabRouter,
  route: LabRoute,
  v6: boolean,
  own: Map<string, string>,
): void {
  const args = [`dst-address=${route.dst}`];
  if (route.gateway) args.push(`gateway=${route.gateway}`);
  if (route.distance !== undefined) args.push(`distance=${route.distance}`);
  if (route.table) args.push(`${v6 ? "routing-mark" : "routing-table"}=${quote(route.table)}`);
  if (route.comment) args.push(`comment=${quote(route.comment)}`);
  if (route.blackhole) args.push(v6 ? "type=blackhole" : "blackhole");
  run(sim, r.name, `/ip route add ${args.join(" ")}`);
  if (v6 || !route.gateway || !/^\d+\.\d+\.\d+\.\d+$/.test(route.gateway)) return;
  const port = [...own].find(([, address]) => inPrefix(address, route.gateway!))?.[0];
  if (!port) return;
  sim.seed("/ip/route", (items) => {
    const it = items.findLast((i) => i["dst-address"] === route.dst && i.gateway === route.gateway);
    if (it) it["immediate-gw"] = `${route.gateway}%${port}`;
  });
}

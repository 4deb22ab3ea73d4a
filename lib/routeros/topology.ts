/**
 * One graph of a fleet from what each router prints: its identity,
 * interfaces (name, type, MAC, running), IPv4 addresses, the neighbours
 * discovery found (`/ip neighbor`: MNDP, LLDP, CDP) and its bridge ports and
 * VLANs.
 *
 * - A neighbour is matched to a fleet device by identity (when one device
 *   has it), else by MAC address (of one device's interface), else by
 *   address; one that matches none is an external device. The far end's
 *   port is the neighbour's `interface-name` (MNDP and LLDP say it), else
 *   the far device's own neighbour entry for this one, else its interface
 *   holding the neighbour's address.
 * - Each IPv4 subnet lists the device ports with an address in it. A subnet
 *   of exactly two devices is a link (when discovery did not already show
 *   that link); a subnet of more is a shared segment, a node of its own.
 * - A link is up when the ports at both ends are running and enabled (a
 *   port the graph does not know counts by the other end).
 *
 * @module
 */
import { isYes } from "./rule_match.ts";
import type { Row } from "./route_lookup.ts";
import { networkOf } from "./wan.ts";

/** What one device said, read for the graph (or why it could not be read). */
export interface DeviceFacts {
  /** Inventory title. */
  title: string;
  identity?: string;
  version?: string;
  interfaces: readonly Row[];
  addresses: readonly Row[];
  neighbors: readonly Row[];
  /** `/interface bridge port`: bridge, interface. */
  bridgePorts?: readonly Row[];
  /** `/interface vlan`: name, vlan-id, interface. */
  vlans?: readonly Row[];
  /** Why the device could not be read (it is in the graph, with no links). */
  error?: string;
}

/** A node: a fleet device or an external one discovery saw. */
export interface TopologyDevice {
  /** The inventory title, or `identity (MAC)` for an external device. */
  name: string;
  external: boolean;
  identity?: string;
  version?: string;
  platform?: string;
  board?: string;
  /** False when the device could not be read. */
  reachable: boolean;
  error?: string;
}

/** One end of a link. */
export interface LinkEnd {
  device: string;
  interface?: string;
  address?: string;
  running?: boolean;
  /** `vlan10 (VLAN 10 on ether2)`, `ether3 (port of bridge)`. */
  detail?: string;
}

/** A link between two devices. */
export interface TopologyLink {
  a: LinkEnd;
  b: LinkEnd;
  /** Both ends running (undefined when neither end's state is known). */
  up?: boolean;
  /** What showed the link: mndp, lldp, cdp, subnet. */
  via: string[];
  subnet?: string;
}

/** An IPv4 subnet and the device ports in it. */
export interface TopologySubnet {
  prefix: string;
  members: { device: string; interface: string; address: string; running?: boolean }[];
}

/** The fleet's graph. */
export interface Topology {
  devices: TopologyDevice[];
  links: TopologyLink[];
  subnets: TopologySubnet[];
}

/** The interface part of a neighbour's `interface` (`ether2,bridge` or `bridge/ether2` name the port). */
function portOf(text: string | undefined, bridges: ReadonlySet<string>): string | undefined {
  if (!text) return undefined;
  const parts = text.split(/[,/]/).map((s) => s.trim()).filter(Boolean);
  return parts.find((p) => !bridges.has(p)) ?? parts[0];
}

function normalMac(mac: string | undefined): string | undefined {
  return mac ? mac.toUpperCase() : undefined;
}

interface Indexed {
  facts: DeviceFacts;
  bridges: Set<string>;
  running: Map<string, boolean>;
}

function indexDevice(f: DeviceFacts): Indexed {
  const bridges = new Set(f.interfaces.filter((i) => i.type === "bridge").map((i) => i.name!));
  const running = new Map<string, boolean>();
  for (const i of f.interfaces) {
    if (i.name) running.set(i.name, isYes(i.running) && !isYes(i.disabled));
  }
  return { facts: f, bridges, running };
}

function detailOf(f: DeviceFacts, iface: string): string | undefined {
  const vlan = f.vlans?.find((v) => v.name === iface);
  if (vlan) return `VLAN ${vlan["vlan-id"]} on ${vlan.interface}`;
  const port = f.bridgePorts?.find((p) => p.interface === iface);
  if (port) return `port of ${port.bridge}`;
  return undefined;
}

function liveAddresses(f: DeviceFacts): Row[] {
  return f.addresses.filter((a) =>
    a.address && a.interface && !isYes(a.disabled) && !isYes(a.invalid)
  );
}

/** Build the graph of a fleet. */
export function buildTopology(all: readonly DeviceFacts[]): Topology {
  const devs = all.map(indexDevice);
  const byTitle = new Map(devs.map((d) => [d.facts.title, d]));
  // identity -> title (only identities one device has)
  const identities = new Map<string, string[]>();
  for (const d of devs) {
    const id = d.facts.identity;
    if (id) identities.set(id, [...(identities.get(id) ?? []), d.facts.title]);
  }
  const macs = new Map<string, { device: string; iface: string }[]>();
  for (const d of devs) {
    for (const i of d.facts.interfaces) {
      const mac = normalMac(i["mac-address"]);
      if (mac && i.name) {
        macs.set(mac, [...(macs.get(mac) ?? []), { device: d.facts.title, iface: i.name }]);
      }
    }
  }
  const owners = new Map<string, { device: string; iface: string }[]>();
  for (const d of devs) {
    for (const a of liveAddresses(d.facts)) {
      const ip = a.address!.split("/")[0];
      owners.set(ip, [...(owners.get(ip) ?? []), { device: d.facts.title, iface: a.interface! }]);
    }
  }
  const single = <T>(list: T[] | undefined): T | undefined =>
    list?.length === 1 ? list[0] : undefined;

  const devices: TopologyDevice[] = devs.map((d) => ({
    name: d.facts.title,
    external: false,
    ...(d.facts.identity ? { identity: d.facts.identity } : {}),
    ...(d.facts.version ? { version: d.facts.version } : {}),
    reachable: d.facts.error === undefined,
    ...(d.facts.error ? { error: d.facts.error } : {}),
  }));
  const links = new Map<string, TopologyLink>();
  const key = (a: LinkEnd, b: LinkEnd) =>
    [`${a.device}|${a.interface ?? ""}`, `${b.device}|${b.interface ?? ""}`].sort().join("~");
  const end = (device: string, iface: string | undefined, address?: string): LinkEnd => {
    const d = byTitle.get(device);
    const running = iface ? d?.running.get(iface) : undefined;
    const detail = d && iface ? detailOf(d.facts, iface) : undefined;
    return {
      device,
      ...(iface ? { interface: iface } : {}),
      ...(address ? { address } : {}),
      ...(running !== undefined ? { running } : {}),
      ...(detail ? { detail } : {}),
    };
  };
  const addLink = (a: LinkEnd, b: LinkEnd, via: string, subnet?: string) => {
    const k = key(a, b);
    const old = links.get(k);
    if (old) {
      if (!old.via.includes(via)) old.via.push(via);
      if (subnet && !old.subnet) old.subnet = subnet;
      for (const [mine, theirs] of [[old.a, a], [old.b, b], [old.a, b], [old.b, a]]) {
        if (mine.device === theirs.device && mine.interface === theirs.interface && !mine.address) {
          if (theirs.address) mine.address = theirs.address;
        }
      }
      return;
    }
    links.set(k, { a, b, via: [via], ...(subnet ? { subnet } : {}) });
  };

  // Discovery.
  const externals = new Map<string, TopologyDevice>();
  for (const d of devs) {
    for (const n of d.facts.neighbors) {
      const local = portOf(n.interface, d.bridges);
      const mac = normalMac(n["mac-address"]);
      const ip = n.address ? n.address.split(",")[0].trim() : undefined;
      let far = single(identities.get(n.identity ?? ""));
      let farPort: string | undefined;
      if (!far && mac) {
        const m = single(macs.get(mac));
        if (m) [far, farPort] = [m.device, m.iface];
      }
      if (!far && ip) {
        const o = single(owners.get(ip));
        if (o) [far, farPort] = [o.device, o.iface];
      }
      const via = (n["discovered-by"] ?? "mndp").split(/[,;]/)[0].trim() || "mndp";
      if (far === d.facts.title) continue;
      if (!far) {
        const name = `${n.identity || "unknown"}${mac ? ` (${mac})` : ""}`;
        if (!externals.has(name)) {
          externals.set(name, {
            name,
            external: true,
            ...(n.identity ? { identity: n.identity } : {}),
            ...(n.version ? { version: n.version } : {}),
            ...(n.platform ? { platform: n.platform } : {}),
            ...(n.board ? { board: n.board } : {}),
            reachable: false,
          });
        }
        addLink(end(d.facts.title, local), {
          device: name,
          ...(n["interface-name"] ? { interface: n["interface-name"] } : {}),
          ...(ip ? { address: ip } : {}),
        }, via);
        continue;
      }
      const fd = byTitle.get(far)!;
      farPort = n["interface-name"] ? portOf(n["interface-name"], fd.bridges) : farPort;
      if (!farPort) {
        const back = fd.facts.neighbors.find((x) =>
          x.identity === (d.facts.identity ?? d.facts.title) ||
          d.facts.interfaces.some((i) =>
            normalMac(i["mac-address"]) === normalMac(x["mac-address"])
          )
        );
        farPort = portOf(back?.interface, fd.bridges);
      }
      if (!farPort && ip) farPort = owners.get(ip)?.find((o) => o.device === far)?.iface;
      addLink(end(d.facts.title, local), end(far, farPort, ip), via);
    }
  }

  // Subnets.
  const nets = new Map<string, TopologySubnet>();
  for (const d of devs) {
    for (const a of liveAddresses(d.facts)) {
      if (!/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(a.address!)) continue;
      if (a.address!.endsWith("/32")) continue;
      const prefix = networkOf(a.address!);
      if (!nets.has(prefix)) nets.set(prefix, { prefix, members: [] });
      const running = d.running.get(a.interface!);
      nets.get(prefix)!.members.push({
        device: d.facts.title,
        interface: a.interface!,
        address: a.address!.split("/")[0],
        ...(running !== undefined ? { running } : {}),
      });
    }
  }
  for (const s of nets.values()) {
    const devicesIn = new Set(s.members.map((m) => m.device));
    if (devicesIn.size !== 2 || s.members.length !== 2) continue;
    const [x, y] = s.members;
    // A discovery link between the same devices on these ports (or a port of the bridge) is this one.
    const same = [...links.values()].find((l) =>
      [[l.a, l.b], [l.b, l.a]].some(([p, q]) =>
        p.device === x.device && q.device === y.device &&
        samePort(byTitle.get(x.device)!, p.interface, x.interface) &&
        samePort(byTitle.get(y.device)!, q.interface, y.interface)
      )
    );
    if (same) {
      if (!same.via.includes("subnet")) same.via.push("subnet");
      same.subnet = s.prefix;
      for (
        const [e, m] of [[same.a, same.a.device === x.device ? x : y], [
          same.b,
          same.b.device === x.device ? x : y,
        ]] as const
      ) {
        if (!e.address) e.address = m.address;
      }
      continue;
    }
    addLink(
      end(x.device, x.interface, x.address),
      end(y.device, y.interface, y.address),
      "subnet",
      s.prefix,
    );
  }

  const linkList = [...links.values()].map((l) => {
    const states = [l.a.running, l.b.running].filter((r) => r !== undefined);
    return states.length ? { ...l, up: states.every(Boolean) } : l;
  });
  return {
    devices: [...devices, ...externals.values()],
    links: linkList,
    subnets: [...nets.values()].filter((s) => s.members.length > 0).sort((a, b) =>
      a.prefix.localeCompare(b.prefix, undefined, { numeric: true })
    ),
  };
}

/** Whether `port` (seen by discovery) and `iface` (holding the address) are one: equal, or port of that bridge, or the VLAN's parent. */
function samePort(d: Indexed, port: string | undefined, iface: string): boolean {
  if (port === undefined || port === iface) return true;
  if (d.facts.bridgePorts?.some((p) => p.bridge === iface && p.interface === port)) return true;
  return d.facts.vlans?.some((v) => v.name === iface && v.interface === port) ?? false;
}

/** One step of a path: from a device, out of a port, to the next device's port. */
export interface PathStep {
  from: string;
  out?: string;
  to: string;
  in?: string;
  up?: boolean;
  /** The shared segment crossed (a subnet of more than two devices). */
  segment?: string;
}

/** The paths found between two devices. */
export interface TopologyPaths {
  /** Shortest paths over links that are up (or not known to be down). */
  paths: PathStep[][];
  /** Shortest paths when down links count too (only when no path is up). */
  downPaths: PathStep[][];
}

interface Edge {
  to: string;
  step: PathStep;
}

function adjacency(t: Topology, upOnly: boolean): Map<string, Edge[]> {
  const adj = new Map<string, Edge[]>();
  const add = (from: string, e: Edge) => adj.set(from, [...(adj.get(from) ?? []), e]);
  for (const l of t.links) {
    if (upOnly && l.up === false) continue;
    const up = l.up;
    add(l.a.device, {
      to: l.b.device,
      step: { from: l.a.device, out: l.a.interface, to: l.b.device, in: l.b.interface, up },
    });
    add(l.b.device, {
      to: l.a.device,
      step: { from: l.b.device, out: l.b.interface, to: l.a.device, in: l.a.interface, up },
    });
  }
  for (const s of t.subnets) {
    if (new Set(s.members.map((m) => m.device)).size < 3) continue;
    for (const x of s.members) {
      for (const y of s.members) {
        if (x.device === y.device) continue;
        const up = x.running !== false && y.running !== false;
        if (upOnly && !up) continue;
        add(x.device, {
          to: y.device,
          step: {
            from: x.device,
            out: x.interface,
            to: y.device,
            in: y.interface,
            up,
            segment: s.prefix,
          },
        });
      }
    }
  }
  return adj;
}

/** All shortest paths from `from` to `to` (at most `max`). */
function shortest(adj: Map<string, Edge[]>, from: string, to: string, max: number): PathStep[][] {
  const dist = new Map<string, number>([[from, 0]]);
  const queue = [from];
  while (queue.length) {
    const n = queue.shift()!;
    for (const e of adj.get(n) ?? []) {
      if (!dist.has(e.to)) {
        dist.set(e.to, dist.get(n)! + 1);
        queue.push(e.to);
      }
    }
  }
  if (!dist.has(to)) return [];
  const out: PathStep[][] = [];
  const walk = (node: string, path: PathStep[]) => {
    if (out.length >= max) return;
    if (node === to) {
      out.push(path);
      return;
    }
    for (const e of adj.get(node) ?? []) {
      if (dist.get(e.to) === dist.get(node)! + 1 && dist.get(e.to)! <= dist.get(to)!) {
        walk(e.to, [...path, e.step]);
      }
    }
  };
  walk(from, []);
  return out;
}

/** What lies between two devices: the shortest paths over up links, else over any. */
export function pathsBetween(t: Topology, from: string, to: string, max = 8): TopologyPaths {
  const paths = shortest(adjacency(t, true), from, to, max);
  return { paths, downPaths: paths.length ? [] : shortest(adjacency(t, false), from, to, max) };
}

/** Devices reachable from `from` over up links (its connected part). */
export function reachableFrom(t: Topology, from: string): Set<string> {
  const adj = adjacency(t, true);
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    for (const e of adj.get(queue.shift()!) ?? []) {
      if (!seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return seen;
}

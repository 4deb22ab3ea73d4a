/**
 * Commands that are not generic menu verbs: `/ping`, `/tool/traceroute`,
 * `/system/reboot`, `/system/shutdown`, `/system/backup/save|load`, and
 * the long-running tools of `tool_traffic.ts`, `tool_scan.ts` and
 * `tool_bandwidth.ts`.
 * The simulated network: the router's own and LAN addresses answer, the
 * documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24) time out,
 * and everything else answers as "the internet".
 *
 * @module
 */
import type { CommandCtx, CommandDef, LooseCommand } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { parseIp4 } from "../ipaddr.ts";
import { sortedMap, toStr, type Val } from "../values.ts";
import { CONSOLE_INSPECT } from "../console_inspect.ts";
import { TRAFFIC_COMMANDS } from "./tool_traffic.ts";
import { SCAN_COMMANDS } from "./tool_scan.ts";
import { BANDWIDTH_COMMANDS } from "./tool_bandwidth.ts";

type Hop = { ttl: number; ms: number } | null;

function resolveHost(st: RouterState, host: string): string {
  if (parseIp4(host) !== null) return host;
  const m = st.menus.byPath("/ip/dns/static", st.release)!;
  const hit = st.list(m).find((i) => i.name === host && i.address);
  if (hit) return hit.address;
  if (/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(host)) {
    let h = 0;
    for (const c of host) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return `93.184.${(h >>> 8) & 255}.${(h & 254) + 1}`;
  }
  throw fail("invalid value for argument address");
}

/** True for the router's own addresses (and loopback). */
function isOwn(st: RouterState, ip: string): boolean {
  return ip.startsWith("127.") ||
    st.list(st.menus.byPath("/ip/address", st.release)!).some((a) =>
      a.address.split("/")[0] === ip
    );
}

/** How the simulated network answers a ping to `ip`. */
function answer(st: RouterState, ip: string): Hop {
  if (/^(192\.0\.2|198\.51\.100|203\.0\.113)\./.test(ip)) return null;
  if (isOwn(st, ip)) return { ttl: 64, ms: 0.02 };
  if (ip.startsWith("192.168.88.")) return { ttl: 64, ms: 0.4 };
  return { ttl: 117, ms: 10.4 };
}

function rtt(ms: number, v6: boolean, seq: number): string {
  const us = Math.round(ms * 1000) + seq * 37;
  if (v6) return `${Math.max(1, Math.round(us / 1000))}ms`;
  const m = Math.floor(us / 1000);
  return `${m}ms${us % 1000}us`;
}

/** A script time value (`00:00:00.010437`) of a number of milliseconds. */
function timeValue(ms: number): string {
  const us = Math.round(ms * 1000);
  const sec = Math.floor(us / 1e6);
  const p2 = (n: number) => String(n).padStart(2, "0");
  return `${p2(Math.floor(sec / 3600))}:${p2(Math.floor(sec / 60) % 60)}:${p2(sec % 60)}.${
    String(us % 1e6).padStart(6, "0")
  }`;
}

/** `/ping ... as-value` (v7): one record per request, nothing printed. */
function pingValue(c: CommandCtx, ip: string, count: number, size: string, hop: Hop): Val {
  const out: Val[] = [];
  for (let seq = 0; seq < count; seq++) {
    if (!hop) {
      out.push(sortedMap([["seq", seq], ["host", ip], ["status", "timeout"]]));
      continue;
    }
    const us = Math.round(hop.ms * 1000) + seq * 37;
    out.push(sortedMap([
      ["seq", seq],
      ["host", ip],
      ["size", Number(size)],
      ["ttl", hop.ttl],
      ["time", timeValue(us / 1000)],
    ]));
  }
  void c;
  return out;
}

function pingRun(c: CommandCtx): Val {
  const st = c.st;
  const target = c.named.get("address") ??
    (c.positional[0] !== undefined ? toStr(c.positional[0]) : "");
  if (!target) throw fail("missing value(s) of argument(s) address");
  const ip = resolveHost(st, target);
  const count = Number(c.named.get("count") ?? "4");
  if (!Number.isInteger(count) || count < 1) throw fail("invalid value for argument count");
  const size = c.named.get("size") ?? "56";
  const hop = answer(st, ip);
  if (c.switches.has("as-value")) return pingValue(c, ip, count, size, hop);
  const header = "  SEQ " + "HOST".padEnd(40) + " SIZE TTL TIME" + (st.v6 ? "  " : "       ") +
    "STATUS";
  c.print(header);
  const times: number[] = [];
  for (let seq = 0; seq < count; seq++) {
    if (!hop) {
      c.print(
        `${String(seq).padStart(5)} ${ip.padEnd(40)}${"".padStart(5)} ${"".padStart(3)} ${
          "".padEnd(st.v6 ? 5 : 10)
        }timeout`,
      );
      continue;
    }
    const ms = hop.ms + seq * 0.037;
    times.push(ms);
    c.print(
      `${String(seq).padStart(5)} ${ip.padEnd(40)}${size.padStart(5)} ${
        String(hop.ttl).padStart(3)
      } ${rtt(hop.ms, st.v6, seq)}`,
    );
  }
  const recv = times.length;
  const loss = Math.round(((count - recv) / count) * 100);
  let stats = `    sent=${count} received=${recv} packet-loss=${loss}%`;
  if (recv) {
    const min = Math.min(...times), max = Math.max(...times);
    const avg = times.reduce((a, b) => a + b, 0) / recv;
    const f = (x: number) => rtt(x, st.v6, 0);
    stats += ` min-rtt=${f(min)} avg-rtt=${f(avg)} max-rtt=${f(max)}`;
  }
  c.print(stats);
  return recv;
}

const PING6: CommandDef = {
  args: [
    "address",
    "count",
    "interval",
    "size",
    "src-address",
    "interface",
    "routing-table",
    "ttl",
    "do-not-fragment",
    "arp-ping",
  ],
  positional: 1,
  positionalArg: "address",
  run: pingRun,
};

/**
 * v7 ping also returns its records with `as-value` (v6 refuses the word),
 * and takes `vrf` where v6 takes `routing-table` (every 7.x tree).
 */
const PING7: CommandDef = {
  ...PING6,
  args: [...PING6.args!.filter((a) => a !== "routing-table"), "vrf"],
  switches: ["as-value"],
};

const TRACEROUTE6: CommandDef = {
  args: [
    "address",
    "count",
    "max-hops",
    "src-address",
    "interface",
    "routing-table",
    "timeout",
    "use-dns",
    "protocol",
    "port",
    "size",
  ],
  positional: 1,
  positionalArg: "address",
  run: (c) => {
    const st = c.st;
    const target = c.named.get("address") ??
      (c.positional[0] !== undefined ? toStr(c.positional[0]) : "");
    if (!target) throw fail("missing value(s) of argument(s) address");
    const ip = resolveHost(st, target);
    const count = Number(c.named.get("count") ?? "1");
    const maxHops = Number(c.named.get("max-hops") ?? "30");
    if (!Number.isInteger(count) || count < 1) throw fail("invalid value for argument count");
    if (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > 255) {
      throw fail("invalid value for argument max-hops");
    }
    let hops: [string, Hop][] = [];
    if (!ip.startsWith("192.168.88.") && !isOwn(st, ip)) {
      hops.push(["192.168.88.254", { ttl: 64, ms: 0.3 }]);
    }
    hops.push([ip, answer(st, ip)]);
    hops = hops.slice(0, maxHops);
    if (c.switches.has("as-value")) {
      // one section per round, each with every hop so far
      const out: Val[] = [];
      for (let round = 0; round < count; round++) {
        for (const [addr, h] of hops) {
          const t = h ? timeValue(h.ms) : "";
          out.push(sortedMap([
            [".section", round],
            ["address", h ? addr : ""],
            ["loss", h ? 0 : 100],
            ["sent", round + 1],
            ...(h
              ? [["last", t], ["avg", t], ["best", t], ["worst", t], ["std-dev", timeValue(0)]] as [
                string,
                Val,
              ][]
              : []),
            ["status", h ? "" : "timeout"],
          ]));
        }
      }
      return out;
    }
    const rows = hops.map(([addr, h], i) => {
      const t = h ? (h.ms < 1 ? h.ms.toFixed(1) : h.ms.toFixed(0)) : "";
      return [
        String(i + 1),
        h ? addr : "",
        h ? "0%" : "100%",
        String(count),
        h ? t + "ms" : "timeout",
        t,
        t,
        t,
        h ? "0" : "",
      ];
    });
    const head = ["#", "ADDRESS", "LOSS", "SENT", "LAST", "AVG", "BEST", "WORST", "STD-DEV"];
    const w = head.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j].length)));
    if (!st.v6) c.print("Columns: " + head.slice(1).join(", "));
    const fmt = (r: string[]) =>
      r.map((x, j) => (j >= 2 && j !== 4 ? x.padStart(w[j]) : x.padEnd(w[j]))).join("  ").trimEnd();
    c.print(fmt(head));
    for (const r of rows) c.print(fmt(r));
  },
};

/** v7 traceroute also returns its records with `as-value` (v6 refuses the word). */
const TRACEROUTE7: CommandDef = {
  ...TRACEROUTE6,
  args: [...TRACEROUTE6.args!.filter((a) => a !== "routing-table"), "vrf"],
  switches: ["as-value"],
};

function confirm(c: CommandCtx, question: string, act: () => void): void {
  if (c.interactive) {
    c.print(`${question} [y/N]: `);
    c.print("action cancelled");
    return;
  }
  act();
}

function reboot(st: RouterState): void {
  st.bootMs = Date.now();
  st.globals.clear();
  st.log("system,info", "router rebooted");
  st.onReboot?.();
}

const REBOOT: CommandDef = {
  write: true,
  run: (c) => confirm(c, "Reboot, yes?", () => reboot(c.st)),
};

const SHUTDOWN: CommandDef = {
  write: true,
  run: (c) => confirm(c, "Shutdown, yes?", () => reboot(c.st)),
};

const BACKUP_SAVE: CommandDef = {
  args: ["name", "password", "dont-encrypt", "encryption"],
  write: true,
  run: (c) => {
    const st = c.st;
    const d = st.now();
    const p2 = (n: number) => String(n).padStart(2, "0");
    const base = c.named.get("name") ??
      `${st.list(st.menus.byPath("/system/identity", st.release)!)[0].name}-${d.getUTCFullYear()}${
        p2(d.getUTCMonth() + 1)
      }${p2(d.getUTCDate())}-${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}`;
    const name = base.endsWith(".backup") ? base : base + ".backup";
    const t = st.table("/file");
    const contents = JSON.stringify(st.toData());
    const item = {
      name,
      type: "backup",
      contents,
      [st.v6 ? "creation-time" : "last-modified"]: st.nowText(),
    };
    const old = t.items.find((f) => f.name === name);
    if (old) Object.assign(old, item);
    else t.items.push({ ".id": st.newId(t), ...item });
    st.touch();
    c.print("Saving system configuration");
    c.print("Configuration backup saved");
  },
};

const BACKUP_LOAD: CommandDef = {
  args: ["name", "password"],
  write: true,
  run: (c) => {
    const name = c.named.get("name") ?? "";
    const file = c.st.table("/file").items.find((f) =>
      f.name === name || f.name === name + ".backup"
    );
    if (!file) throw fail("failure: no such file");
    confirm(c, "Restore and reboot?", () => {
      // The router comes back with the saved configuration (a backup this simulator made).
      try {
        c.st.restoring = JSON.parse(file.contents ?? "");
      } catch {
        throw fail("failure: backup file is corrupted");
      }
      reboot(c.st);
    });
  },
};

/** Loose commands. */
export const LOOSE_COMMANDS: LooseCommand[] = [
  { path: "/", name: "ping", def: PING6, releases: V6 },
  { path: "/tool", name: "ping", def: PING6, releases: V6 },
  { path: "/tool", name: "traceroute", def: TRACEROUTE6, releases: V6 },
  // the 7.24 tree has no /ping, only /tool/ping (7.22.3 has both)
  { path: "/", name: "ping", def: PING7, releases: { from: "7.0", until: "7.22" } },
  { path: "/tool", name: "ping", def: PING7, releases: V7 },
  { path: "/tool", name: "traceroute", def: TRACEROUTE7, releases: V7 },
  { path: "/system", name: "reboot", def: REBOOT },
  { path: "/system", name: "shutdown", def: SHUTDOWN },
  { path: "/system/backup", name: "save", def: BACKUP_SAVE },
  { path: "/system/backup", name: "load", def: BACKUP_LOAD },
  { path: "/console", name: "inspect", def: CONSOLE_INSPECT, releases: V7 },
  // the diagnostic tools that run for a while: torch, sniffer, IP scan, bandwidth test, WoL
  ...TRAFFIC_COMMANDS,
  ...SCAN_COMMANDS,
  ...BANDWIDTH_COMMANDS,
];

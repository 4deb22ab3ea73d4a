/**
 * `/tool bandwidth-test` between simulated routers: the client reaches the
 * server at `address` (its own addresses and 127.0.0.0/8, or a router of
 * its `SimNetwork`), whose `/tool/bandwidth-server` must be enabled and,
 * with `authenticate`, must know `user` with that `password` in a group
 * with both the `test` and `winbox` policies (MikroTik's Bandwidth test
 * page: "the server checks both").
 *
 * Output is the monitor's `key: value` block, right-aligned on the colon,
 * once a second while it runs and a last one when it ends, as MikroTik's
 * Bandwidth Test pages print it (`status: done testing`, `tx-current:
 * 50.3Mbps`, ...): the lines of each direction tested, `lost-packets`,
 * `tx-size`/`rx-size` for UDP, and, on RouterOS 7, `connection-count` and
 * the two CPU loads. A failed test ends with the reason as its status
 * (`can not connect`, `authentication failed`). The 6.x block leaves out
 * the RouterOS 7 lines; no 6.x capture was found, so that is not backed by
 * one.
 *
 * The link carries 941.5 Mbit/s (TCP) or 957.3 Mbit/s (UDP) each way,
 * limited by `local-tx-speed` and `remote-tx-speed`: test data.
 *
 * @module
 */
import type { CommandCtx, CommandDef, LooseCommand } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { findUser, policiesOf } from "../auth.ts";
import { parseIp4 } from "../ipaddr.ts";
import { toStr } from "../values.ts";
import { durationArg, rateText, speedValue } from "../tool_tables.ts";

/**
 * The router answering a bandwidth test at `ip`, seen from `st`: itself at
 * its own addresses and on loopback, else the member of its network that
 * holds the address (which wins over loopback: simulators in one test all
 * listen on 127.0.0.0/8).
 */
function serverAt(st: RouterState, ip: string): RouterState | undefined {
  if (st.items("/ip/address").some((a) => a.address.split("/")[0] === ip)) return st;
  return st.peerAt(ip) ?? (ip.startsWith("127.") ? st : undefined);
}

/** Why the server refuses the client, or undefined when the test may run. */
function refusal(server: RouterState | undefined, user?: string, password?: string) {
  const settings = server?.items("/tool/bandwidth-server")[0];
  if (!server || settings?.enabled !== "true") return "can not connect";
  if (settings.authenticate !== "true") return undefined;
  const u = user === undefined ? undefined : findUser(server, user);
  const policies = user === undefined ? new Set<string>() : policiesOf(server, user);
  if (!u || (u.password ?? "") !== (password ?? "") || u.disabled === "true") {
    return "authentication failed";
  }
  if (!policies.has("test") || !policies.has("winbox")) return "authentication failed";
  return undefined;
}

function block(lines: [string, string][]): string[] {
  const w = Math.max(...lines.map(([k]) => k.length));
  return lines.map(([k, v]) => `${k.padStart(w)}: ${v}`);
}

function run(c: CommandCtx): void {
  const st = c.st;
  const n = c.named;
  const address = n.get("address") ?? (c.positional[0] !== undefined ? toStr(c.positional[0]) : "");
  if (!address) throw fail("missing value(s) of argument(s) address");
  if (parseIp4(address) === null) throw fail("invalid value for argument address");
  const protocol = n.get("protocol") ?? "udp";
  if (!["udp", "tcp"].includes(protocol)) throw fail("input does not match any value of protocol");
  const direction = n.get("direction") ?? "receive";
  if (!["receive", "transmit", "both"].includes(direction)) {
    throw fail("input does not match any value of direction");
  }
  const duration = durationArg(n.get("duration"));
  if (n.has("duration") && duration === undefined) {
    throw fail("invalid value for argument duration");
  }
  const speed = (name: string) => {
    if (!n.has(name)) return Infinity;
    const v = speedValue(n.get(name));
    if (v === undefined) throw fail(`invalid value for argument ${name}`);
    return v || Infinity;
  };
  const localCap = speed("local-tx-speed");
  const remoteCap = speed("remote-tx-speed");
  const count = Number(n.get("connection-count") ?? "20");
  const why = refusal(serverAt(st, address), n.get("user"), n.get("password"));
  const head = (status: string): [string, string][] => [["status", status]];
  if (why) {
    c.runFor(1000);
    for (const l of block([...head("connecting")])) c.print(l);
    for (const l of block(head(why))) c.print(l);
    return;
  }
  c.runFor(duration ?? Infinity);
  if (duration === undefined) return;
  const capacity = protocol === "tcp" ? 941_500_000 : 957_300_000;
  const tx = direction !== "receive" ? Math.min(capacity, localCap) : undefined;
  const rx = direction !== "transmit" ? Math.min(capacity, remoteCap) : undefined;
  const seconds = Math.max(1, Math.round(duration / 1000));
  for (let s = 1; s <= seconds; s++) {
    const lines: [string, string][] = [
      ...head(s === seconds ? "done testing" : "running"),
      ["duration", `${s}s`],
    ];
    if (tx !== undefined) {
      lines.push(["tx-current", rateText(tx)], ["tx-10-second-average", rateText(tx)], [
        "tx-total-average",
        rateText(tx),
      ]);
    }
    if (rx !== undefined) {
      lines.push(["rx-current", rateText(rx)], ["rx-10-second-average", rateText(rx)], [
        "rx-total-average",
        rateText(rx),
      ]);
      if (protocol === "udp") lines.push(["lost-packets", "0"]);
    }
    lines.push(["random-data", n.get("random-data") ?? "no"], ["direction", direction]);
    if (protocol === "udp") {
      if (tx !== undefined) lines.push(["tx-size", n.get("local-udp-tx-size") ?? "1500"]);
      if (rx !== undefined) lines.push(["rx-size", n.get("remote-udp-tx-size") ?? "1500"]);
    }
    if (!st.v6) {
      lines.push(["connection-count", String(count)], ["local-cpu-load", "9%"], [
        "remote-cpu-load",
        "4%",
      ]);
    }
    for (const l of block(lines)) c.print(l);
    c.print("");
  }
}

const ARGS = [
  "address",
  "protocol",
  "direction",
  "duration",
  "local-tx-speed",
  "remote-tx-speed",
  "user",
  "password",
  "connection-count",
  "random-data",
  "local-udp-tx-size",
  "remote-udp-tx-size",
  "interval",
];

const BTEST6: CommandDef = {
  args: ARGS,
  positional: 1,
  positionalArg: "address",
  policy: "test",
  run,
};
const BTEST7: CommandDef = {
  ...BTEST6,
  args: [...ARGS, "freeze-frame-interval"],
  argReleases: { "freeze-frame-interval": { from: "7.22" } },
  switches: ["as-value", "once", "without-paging"],
};

/** The bandwidth test client. */
export const BANDWIDTH_COMMANDS: LooseCommand[] = [
  { path: "/tool", name: "bandwidth-test", def: BTEST6, releases: V6 },
  { path: "/tool", name: "bandwidth-test", def: BTEST7, releases: V7 },
];

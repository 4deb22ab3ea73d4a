/**
 * The Host and Origin allow-lists of a server from its settings: the local
 * defaults when a list is empty, errors that name the setting, and the
 * start-up notices (a check turned off with `*`, or a network address with
 * only local names allowed). The MCP transports and the REST proxy both
 * configure their guards here, so they follow the same rules.
 *
 * @module
 */
import { ConfigError } from "../config/errors.ts";
import { log } from "../log.ts";
import type { Middleware } from "./app.ts";
import {
  type AllowList,
  isLoopback,
  LOCAL_HOSTS,
  LOCAL_ORIGINS,
  parseHosts,
  parseOrigins,
} from "./allow_list.ts";
import { hostGuard } from "./host_guard.ts";
import { originGuard } from "./origin_guard.ts";

/** How people set the two lists: the flags, and the names used in notices (a variable, or the flag). */
export interface GuardSettingNames {
  /** e.g. `--allowed-hosts` or `--mcp.allowed-hosts`. */
  hostsFlag: string;
  /** e.g. `--allowed-origins` or `--mcp.allowed-origins`. */
  originsFlag: string;
  /** Named in notices, e.g. `ROUTER_MCP__ALLOWED_HOSTS`. */
  hosts: string;
  /** Named in notices, e.g. `ROUTER_MCP__ALLOWED_ORIGINS`. */
  origins: string;
}

/** The parsed lists a server guards with. */
export interface GuardLists {
  hosts: AllowList;
  origins: AllowList;
}

/** Parse the configured entries (empty: local access only); throws `ConfigError` naming the setting. */
export function guardLists(
  hosts: readonly string[],
  origins: readonly string[],
  names: GuardSettingNames,
): GuardLists {
  const parse = (
    entries: readonly string[],
    local: readonly string[],
    name: string,
    flag: string,
    parser: (entries: readonly string[]) => AllowList,
  ) => {
    try {
      return parser(entries.length > 0 ? entries : local);
    } catch (err) {
      const both = name === flag ? name : `${name} (${flag})`;
      throw new ConfigError(`invalid value for ${both}: ${(err as Error).message}`);
    }
  };
  return {
    hosts: parse(hosts, LOCAL_HOSTS, names.hosts, names.hostsFlag, parseHosts),
    origins: parse(origins, LOCAL_ORIGINS, names.origins, names.originsFlag, parseOrigins),
  };
}

/** Log what an operator should know about the lists of a server listening on `listenHost`. */
export function guardNotices(
  listenHost: string,
  configuredHosts: readonly string[],
  lists: GuardLists,
  names: GuardSettingNames,
  prefix = "",
): void {
  if (lists.hosts.any) {
    log(
      "warning",
      `${prefix}${names.hosts} contains *: the Host check is off, so DNS rebinding protection ` +
        "is disabled; list the host names clients use instead",
    );
  }
  if (lists.origins.any) {
    log(
      "warning",
      `${prefix}${names.origins} contains *: every web page may call this server from a browser`,
    );
  }
  if (configuredHosts.length === 0 && !isLoopback(listenHost)) {
    log(
      "info",
      `${prefix}listening on ${listenHost} but only local clients are allowed (Host localhost, ` +
        `127.0.0.1 or [::1]); remote clients and reverse proxies need ${names.hosts} ` +
        "(such as mcp.example.com:*)",
    );
  }
}

/** The guard chain every entry point of a server starts with: Host, then Origin. */
export function guardChain(lists: GuardLists, names: GuardSettingNames): Middleware[] {
  return [
    hostGuard(lists.hosts, names.hostsFlag),
    originGuard(lists.origins, lists.hosts, names.originsFlag),
  ];
}

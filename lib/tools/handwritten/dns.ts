/**
 * DNS: cache statistics, cache flush and name resolution through the
 * router's resolver.
 *
 * @module
 */
import * as z from "zod";
import { RouterOsError } from "../../routeros/errors.ts";
import { quoteValue } from "../../routeros/quote.ts";
import { leadingNumber, outputLines, parseScalars, raiseIfError } from "../../routeros/records.ts";
import { getExpression, putScalars } from "../../routeros/scripts.ts";
import { outputError } from "../../routeros/parse_json.ts";
import { READ, type ToolDef, type ToolResult } from "../tool.ts";
import { planned, PROBE } from "./views.ts";

const STAT_KEYS = ["cache-size", "cache-used", "entries"] as const;

/** The statement printing cache size, use and entry count as `key=value` lines. */
function statsScript(): string {
  return putScalars({
    "cache-size": getExpression("/ip/dns", "cache-size"),
    "cache-used": getExpression("/ip/dns", "cache-used"),
    entries: "[/ip dns cache print count-only]",
  });
}

const STATS_OUTPUT = {
  cache_size_kib: z.number().describe("Configured cache size in KiB"),
  cache_used_kib: z.number().describe("Cache memory in use in KiB"),
  entries: z.number().describe("Records in the cache"),
};

function statsResult(output: string): ToolResult {
  raiseIfError(output);
  const s = parseScalars(output, STAT_KEYS);
  const structured = {
    cache_size_kib: leadingNumber(s["cache-size"]),
    cache_used_kib: leadingNumber(s["cache-used"]),
    entries: leadingNumber(s.entries),
  };
  if (Object.values(structured).some((v) => v === undefined)) throw outputError(output);
  return {
    structured,
    text:
      `cache ${structured.cache_used_kib} of ${structured.cache_size_kib} KiB used, ${structured.entries} entries`,
  };
}

/** `router_dns_cache_stats`. */
export const dnsCacheStats: ToolDef = {
  name: "router_dns_cache_stats",
  title: "DNS cache statistics",
  description: "Show the DNS cache size, how much of it is used, and how many records it holds.",
  toolset: "dns",
  input: {},
  output: STATS_OUTPUT,
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(_args, { client }) {
    return statsResult(await client.run(statsScript(), "/ip/dns", true));
  },
};

const FLUSH = "/ip dns cache flush";

/** `router_flush_dns_cache`. */
export const flushDnsCache: ToolDef = {
  name: "router_flush_dns_cache",
  title: "Flush the DNS cache",
  description:
    "Empty the router's DNS cache (clients then get fresh answers). Returns the cache statistics afterwards.",
  toolset: "dns",
  input: {},
  output: STATS_OUTPUT,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  perDevice: true,
  example: {},
  async handler(_args, { client }) {
    return statsResult(await client.run(`${FLUSH}; ${statsScript()}`, "/ip/dns/cache", false));
  },
  async dryRun(_args, { client }) {
    const before = statsResult(await client.run(statsScript(), "/ip/dns", true));
    return planned([`${FLUSH}; ${statsScript()}`], { ...before.structured, entries: 0 });
  },
};

/** `router_resolve_dns`. */
export const resolveDns: ToolDef = {
  name: "router_resolve_dns",
  title: "Resolve a name",
  description:
    "Resolve a host name with the router's DNS resolver (static entries, cache, then upstream " +
    "servers), or with a given server. Returns the address.",
  toolset: "dns",
  input: {
    name: z.string().min(1).max(255).regex(/^[A-Za-z0-9._-]+$/, "a host name").describe(
      "Host name to resolve, e.g. example.com",
    ),
    server: z.string().max(64).regex(/^[0-9A-Fa-f.:]+$/, "an IP address").optional().describe(
      "Ask this DNS server instead of the router's resolver",
    ),
  },
  output: { name: z.string(), address: z.string() },
  annotations: PROBE,
  perDevice: true,
  example: { name: "localhost" },
  async handler(args, { client }) {
    const name = String(args.name);
    const server = args.server === undefined ? "" : ` server=${quoteValue(String(args.server))}`;
    const output = await client.run(
      `:put [:resolve ${quoteValue(name)}${server}]`,
      "/ip/dns",
      true,
    );
    raiseIfError(output);
    const lines = outputLines(output);
    if (lines.length !== 1 || !/^[0-9A-Fa-f.:]+$/.test(lines[0].trim())) {
      if (lines.length === 0) {
        throw new RouterOsError("failure", `${name} did not resolve`, "");
      }
      throw outputError(output);
    }
    const address = lines[0].trim();
    return { structured: { name, address }, text: `${name} -> ${address}` };
  },
};

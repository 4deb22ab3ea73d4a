/**
 * DNS: cache statistics, cache flush and name resolution through the
 * router's resolver.
 *
 * @module
 */
import * as z from "zod";
import { cmd, countExpr, getExpr } from "../../routeros/command.ts";
import { RouterOsError, unparsable } from "../../routeros/errors.ts";
import { quoteValue } from "../../routeros/quote.ts";
import { Script } from "../../routeros/script.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { leadingNumber } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { PROBE, READ, WRITE_IDEMPOTENT } from "../tool.ts";

const STATS_OUTPUT = {
  cache_size_kib: z.number().describe("Configured cache size in KiB"),
  cache_used_kib: z.number().describe("Cache memory in use in KiB"),
  entries: z.number().describe("Records in the cache"),
};

/** A script that prints the cache statistics (after `flush`, when asked). */
function statsScript(dialect: Dialect, flush: boolean) {
  const script = new Script(dialect);
  if (flush) script.do(cmd("/ip/dns/cache", "flush"));
  const stats = script.scalars({
    "cache-size": getExpr("/ip/dns", "cache-size"),
    "cache-used": getExpr("/ip/dns", "cache-used"),
    entries: countExpr("/ip/dns/cache"),
  });
  return { script, stats };
}

function statsOf(s: Record<string, string>) {
  const structured = {
    cache_size_kib: leadingNumber(s["cache-size"]),
    cache_used_kib: leadingNumber(s["cache-used"]),
    entries: leadingNumber(s.entries),
  };
  if (Object.values(structured).some((v) => v === undefined)) {
    throw unparsable(JSON.stringify(s), "the DNS cache statistics were not understood");
  }
  const st = structured as { cache_size_kib: number; cache_used_kib: number; entries: number };
  return {
    structured: st,
    text: `cache ${st.cache_used_kib} of ${st.cache_size_kib} KiB used, ${st.entries} entries`,
  };
}

/** `router_dns_cache_stats`. */
export const dnsCacheStats = defineTool({
  name: "router_dns_cache_stats",
  title: "DNS cache statistics",
  description: "Show the DNS cache size, how much of it is used, and how many records it holds.",
  toolset: "dns",
  input: {},
  output: STATS_OUTPUT,
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const { script, stats } = statsScript(await ctx.client.dialect(), false);
    return statsOf(
      (await ctx.client.run(script, { idempotent: true, what: "/ip/dns" })).get(stats),
    );
  },
});

/** `router_flush_dns_cache`. */
export const flushDnsCache = defineTool({
  name: "router_flush_dns_cache",
  title: "Flush the DNS cache",
  description:
    "Empty the router's DNS cache (clients then get fresh answers). Returns the cache statistics afterwards.",
  toolset: "dns",
  input: {},
  output: STATS_OUTPUT,
  annotations: WRITE_IDEMPOTENT,
  perDevice: true,
  example: {},
  async handler(_args, ctx) {
    const { script, stats } = statsScript(await ctx.client.dialect(), true);
    const out = await ctx.client.run(script, { idempotent: false, what: "/ip/dns/cache" });
    return statsOf(out.get(stats));
  },
  async dryRun(_args, ctx) {
    const dialect = await ctx.client.dialect();
    const now = statsScript(dialect, false);
    const before = statsOf(
      (await ctx.client.run(now.script, { idempotent: true, what: "/ip/dns" })).get(now.stats),
    );
    return {
      commands: [statsScript(dialect, true).script.toString()],
      preview: { ...before.structured, entries: 0 },
      problems: [],
    };
  },
});

/** `router_resolve_dns`. */
export const resolveDns = defineTool({
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
    server: z.union([z.ipv4(), z.ipv6()]).optional().describe(
      "Ask this DNS server instead of the router's resolver",
    ),
  },
  output: { name: z.string(), address: z.string() },
  annotations: PROBE,
  perDevice: true,
  example: { name: "localhost" },
  async handler(args, ctx) {
    const script = await ctx.client.script();
    const server = args.server === undefined ? "" : ` server=${quoteValue(args.server)}`;
    const answer = script.lines(`:put [:resolve ${quoteValue(args.name)}${server}]`);
    const lines = (await ctx.client.run(script, { idempotent: true, what: "/ip/dns" })).get(answer)
      .filter((l) => l.trim() !== "");
    if (lines.length === 0) throw new RouterOsError("failure", `${args.name} did not resolve`, "");
    if (lines.length !== 1 || !/^[0-9A-Fa-f.:]+$/.test(lines[0].trim())) {
      throw unparsable(lines.join("\n"));
    }
    const address = lines[0].trim();
    return { structured: { name: args.name, address }, text: `${args.name} -> ${address}` };
  },
});

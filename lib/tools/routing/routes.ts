/**
 * Routing helpers beyond CRUD: the default route, blackhole routes, and
 * which route a destination uses. They read the route menus of the schema.
 *
 * @module
 */
import * as z from "zod";
import { bracket, cmd, local, variable } from "../../routeros/command.ts";
import { quoteValue } from "../../routeros/quote.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { unparsable } from "../../routeros/errors.ts";
import { type MenuSchema, readSpecOf } from "../../routeros/schema/menu.ts";
import { ipRoutes, ipv6Routes } from "../../routeros/schema/menus/routing.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";
import { Script } from "../../routeros/script.ts";
import { defineTool } from "../define.ts";
import { itemObject, menuDialect } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, WRITE } from "../tool.ts";
import { routeBackCut } from "../guard/lockout_routes.ts";

const ROUTE = itemObject(ipRoutes);
const COLUMNS = ["id", "dst_address", "gateway", "distance", "routing_table", "active", "comment"];

function isBlackhole(item: Record<string, unknown>): boolean {
  return item.blackhole === true || item.type === "blackhole";
}

/** `router_get_default_route`. */
export const getDefaultRoute = defineTool({
  name: "router_get_default_route",
  title: "Get the default route",
  description:
    "Show the default routes (0.0.0.0/0, or ::/0 for IPv6) with their gateways, distances and " +
    "which one is active. `gateway` is the active one's gateway, absent when there is no active default route.",
  toolset: "routing",
  core: true,
  input: { family: z.enum(["ipv4", "ipv6"]).optional().describe("Address family (default ipv4)") },
  output: {
    gateway: z.string().optional().describe("Gateway of the active default route"),
    routes: z.array(ROUTE),
  },
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(args, ctx) {
    const v6 = args.family === "ipv6";
    const menu = v6 ? ipv6Routes : ipRoutes;
    const dialect = await menuDialect(menu, ctx);
    const routes = (await ctx.client.read(readSpecOf(menu, dialect.release), [
      { key: "dst-address", value: v6 ? "::/0" : "0.0.0.0/0" },
    ])).map((r) => toItem(menu, dialect.release, r));
    const active = routes.find((r) => r.active === true);
    return {
      structured: { ...(active ? { gateway: String(active.gateway ?? "") } : {}), routes },
      text: routes.length ? renderTable(routes, COLUMNS) : "no default route",
    };
  },
});

interface BlackholeArgs {
  dst_address: string;
  distance?: number;
  routing_table?: string;
  comment?: string;
}

/**
 * Add, then read back by id. RouterOS 7 takes `blackhole` (a switch) and
 * `routing-table`; 6 takes `type=blackhole` and `routing-mark`.
 */
function blackholeScript(dialect: Dialect, args: BlackholeArgs) {
  const v6 = dialect.major < 7;
  const script = new Script(dialect);
  const add = cmd(ipRoutes.path, "add", {
    args: {
      "dst-address": args.dst_address,
      distance: args.distance,
      comment: args.comment,
      ...(v6 ? { type: "blackhole", "routing-mark": args.routing_table } : {
        "routing-table": args.routing_table,
      }),
    },
    switches: v6 ? [] : ["blackhole"],
  });
  script.do(local("id", bracket(add)));
  const read = script.readVar(readSpecOf(ipRoutes, dialect.release), "id");
  return { script, read };
}

/** `router_add_blackhole_route`. */
export const addBlackholeRoute = defineTool({
  name: "router_add_blackhole_route",
  title: "Add a blackhole route",
  description:
    "Add an IPv4 blackhole route: packets to the prefix are silently dropped (null-routing, e.g. " +
    "to stop an attack or to anchor an aggregate). Returns the route as stored.",
  toolset: "routing",
  input: {
    dst_address: z.cidrv4().describe("Prefix to drop, e.g. 203.0.113.0/24"),
    distance: z.number().int().min(1).max(255).optional().describe("Administrative distance"),
    routing_table: z.string().max(255).optional().describe(
      "Routing table (routing-mark on RouterOS 6)",
    ),
    comment: z.string().max(4096).optional().describe("Free-text comment"),
  },
  output: { item: ROUTE },
  annotations: WRITE,
  perDevice: true,
  example: { dst_address: "203.0.113.0/24", comment: "example blackhole" },
  lockout: (args, ctx) =>
    routeBackCut(ctx, 4, {
      added: {
        ".id": "(new)",
        "dst-address": args.dst_address,
        blackhole: "true",
        distance: String(args.distance ?? 1),
        ...(args.routing_table ? { "routing-table": args.routing_table } : {}),
      },
    }),
  async handler(args, ctx) {
    const dialect = await menuDialect(ipRoutes, ctx);
    const { script, read } = blackholeScript(dialect, args);
    const items = (await ctx.client.run(script, { idempotent: false, what: ipRoutes.path }))
      .get(read).items;
    if (items.length !== 1) throw unparsable("", "the added route could not be read back");
    const item = toItem(ipRoutes, dialect.release, items[0]);
    return { structured: { item }, text: renderTable([item], COLUMNS) };
  },
  async dryRun(args, ctx) {
    const dialect = await menuDialect(ipRoutes, ctx);
    const same = (await ctx.client.read(readSpecOf(ipRoutes, dialect.release), [
      { key: "dst-address", value: args.dst_address },
    ])).map((r) => toItem(ipRoutes, dialect.release, r));
    const problems = same.filter(isBlackhole).map((r) =>
      `a blackhole route to ${args.dst_address} already exists (${String(r.id)})`
    );
    return {
      commands: [blackholeScript(dialect, args).script.toString()],
      preview: {
        id: "(new)",
        dst_address: args.dst_address,
        blackhole: true,
        ...(args.comment !== undefined ? { comment: args.comment } : {}),
      },
      problems,
    };
  },
});

function prefixLength(dst: unknown): number {
  const m = /\/(\d+)$/.exec(String(dst ?? ""));
  return m ? Number(m[1]) : -1;
}

/**
 * The active routes whose prefix holds `destination` (made an address with
 * `:toip`/`:toip6` from a quoted value), optionally in one routing table.
 */
async function lookup(
  ctx: ToolContext,
  destination: string,
  table?: string,
) {
  const v6 = destination.includes(":");
  const menu: MenuSchema = v6 ? ipv6Routes : ipRoutes;
  const dialect = await menuDialect(menu, ctx);
  const script = new Script(dialect);
  script.do(local("d", bracket(`${v6 ? ":toip6" : ":toip"} ${quoteValue(destination)}`)));
  const read = script.read(readSpecOf(menu, dialect.release), [
    { key: "dst-address", contains: variable("d") },
    { key: "active", value: true },
    ...(table === undefined ? [] : [{
      key: dialect.major < 7 ? "routing-mark" : "routing-table",
      value: table,
    }]),
  ]);
  const raws =
    (await ctx.client.run(script, { idempotent: true, what: menu.path })).get(read).items;
  return raws.map((r) => toItem(menu, dialect.release, r))
    .filter((r) => r.active === true && r.disabled !== true);
}

/** `router_check_route`. */
export const checkRoute = defineTool({
  name: "router_check_route",
  title: "Which route does a destination use",
  description:
    "Find the route the router uses for a destination address: the active route with the longest " +
    "matching prefix (then the lowest distance). Also lists the other active routes that contain the address.",
  toolset: "routing",
  core: true,
  input: {
    destination: z.string().max(64).refine((v) => isIpv4(v) || isIpv6(v), {
      message: "an IPv4 or IPv6 address such as 8.8.8.8",
    }).describe("Destination address, e.g. 8.8.8.8"),
    routing_table: z.string().max(255).optional().describe(
      "Look in this routing table (default: all)",
    ),
  },
  output: {
    destination: z.string(),
    route: ROUTE.optional().describe("The route used; absent when no active route matches"),
    candidates: z.array(ROUTE).describe(
      "Every active route containing the destination, best first",
    ),
  },
  annotations: READ,
  perDevice: true,
  example: { destination: "192.168.88.10" },
  async handler(args, ctx) {
    const routes = await lookup(ctx, args.destination, args.routing_table);
    routes.sort((a, b) =>
      prefixLength(b.dst_address) - prefixLength(a.dst_address) ||
      Number(a.distance ?? 0) - Number(b.distance ?? 0)
    );
    const [route] = routes;
    return {
      structured: {
        destination: args.destination,
        ...(route ? { route } : {}),
        candidates: routes,
      },
      text: route
        ? `${args.destination} uses ${String(route.dst_address)} via ${
          String(route.gateway ?? "")
        }${isBlackhole(route) ? " (blackhole)" : ""}\n${renderTable(routes, COLUMNS)}`
        : `no active route to ${args.destination}`,
    };
  },
});

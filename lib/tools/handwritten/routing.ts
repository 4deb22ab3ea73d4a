/**
 * Routing helpers beyond CRUD: the default route, blackhole routes, and
 * which route a destination uses.
 *
 * @module
 */
import * as z from "zod";
import { type RouterOsClient, SECTION_MARK } from "../../routeros/client.ts";
import { menuPath, renderArgs } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { printByVariable, routeLookupStatement } from "../../routeros/scripts.ts";
import { flag, num, text } from "../fields.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";
import { itemSchema, planned, readView, typed, view, viewSpec, WRITE } from "./views.ts";

const ROUTE_FIELDS = {
  "dst-address": text("Destination prefix, e.g. 0.0.0.0/0"),
  gateway: text("Gateway address or interface"),
  "immediate-gw": text("Resolved next hop (gateway%interface)"),
  distance: num("Administrative distance; lower wins"),
  "routing-table": text("Routing table (routing-mark on RouterOS 6)"),
  active: flag("Whether the route is active (used for forwarding)"),
  disabled: flag("Whether the route is disabled"),
  dynamic: flag("Whether the route was added by a protocol or service"),
  blackhole: flag("Whether matching packets are silently dropped"),
  type: text("RouterOS 6 route type (unicast, blackhole, prohibit, unreachable)"),
  "pref-src": text("Preferred source address"),
  scope: num("Scope"),
  "target-scope": num("Target scope for recursive next hops"),
  "check-gateway": text("Gateway check: ping, arp, bfd or none"),
  "vrf-interface": text("VRF interface"),
  connect: flag("Whether the route is a connected network"),
  static: flag("Whether the route is static"),
  "suppress-hw-offload": flag("Whether hardware offload is suppressed"),
  comment: text("Free-text comment"),
};

/** IPv4 routes, as the routing tools read them. */
export const routeView = {
  ...view("/ip/route", "routing", "IPv4 routes", ROUTE_FIELDS, {
    flags: {
      X: "disabled",
      A: "active",
      D: "dynamic",
      B: "blackhole",
      C: "connect",
      S: "static",
      c: "connect",
      s: "static",
    },
    columns: ["dst-address", "gateway", "distance", "routing-table", "active", "comment"],
  }),
  v6Names: { "routing-table": "routing-mark" },
};

const IPV6_ROUTES = { ...routeView, path: "/ipv6/route", noun: "IPv6 routes" };

const ROUTE = itemSchema(routeView);
const COLUMNS = ["id", "dst_address", "gateway", "distance", "routing_table", "active", "comment"];

function isBlackhole(item: Record<string, unknown>): boolean {
  return item.blackhole === true || item.type === "blackhole";
}

/** `router_get_default_route`. */
export const getDefaultRoute: ToolDef = {
  name: "router_get_default_route",
  title: "Get the default route",
  description:
    "Show the default routes (0.0.0.0/0, or ::/0 for IPv6) with their gateways, distances and " +
    "which one is active. `gateway` is the active one's gateway, absent when there is no active default route.",
  toolset: "routing",
  input: {
    family: z.enum(["ipv4", "ipv6"]).default("ipv4").describe("Address family"),
  },
  output: {
    gateway: z.string().optional().describe("Gateway of the active default route"),
    routes: z.array(ROUTE),
  },
  annotations: READ,
  perDevice: true,
  example: {},
  async handler(args, { client }) {
    const v6 = args.family === "ipv6";
    const routes = await readView(client, v6 ? IPV6_ROUTES : routeView, [
      { key: "dst-address", value: v6 ? "::/0" : "0.0.0.0/0" },
    ]);
    const active = routes.find((r) => r.active === true);
    return {
      structured: { ...(active ? { gateway: String(active.gateway ?? "") } : {}), routes },
      text: routes.length ? renderTable(routes, COLUMNS) : "no default route",
    };
  },
};

const PREFIX = z.string().max(64).regex(/^[0-9A-Fa-f.:]+\/\d{1,3}$/, "a prefix such as 10.0.0.0/8");

function blackholeScript(dialect: Dialect, args: Record<string, unknown>): string {
  const table = args.routing_table as string | undefined;
  const props = renderArgs({
    "dst-address": String(args.dst_address),
    distance: args.distance as number | undefined,
    comment: args.comment as string | undefined,
    ...(dialect.major < 7
      ? { type: "blackhole", "routing-mark": table }
      : { "routing-table": table }),
  });
  const add = `${menuPath("/ip/route")} add ${props}${dialect.major < 7 ? "" : " blackhole"}`;
  const read = printByVariable(dialect, "/ip/route", "id", viewSpec(routeView).keys);
  return `:local id [${add}]; ${dialect.json ? read : `${read}; :put "${SECTION_MARK}"`}`;
}

/** `router_add_blackhole_route`. */
export const addBlackholeRoute: ToolDef = {
  name: "router_add_blackhole_route",
  title: "Add a blackhole route",
  description:
    "Add an IPv4 blackhole route: packets to the prefix are silently dropped (null-routing, e.g. " +
    "to stop an attack or to anchor an aggregate). Returns the route as stored. Remove it with the " +
    "route remove tool.",
  toolset: "routing",
  input: {
    dst_address: PREFIX.describe("Prefix to drop, e.g. 203.0.113.0/24"),
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
  async handler(args, { client }) {
    const dialect = await client.dialect();
    const [items] = await client.write(
      dialect,
      viewSpec(routeView),
      blackholeScript(dialect, args),
      1,
    );
    if (items.length !== 1) {
      throw new RouterOsError("unparsable", "the added route could not be read back", "");
    }
    const [item] = typed(routeView, dialect, items);
    return { structured: { item }, text: renderTable([item], COLUMNS) };
  },
  async dryRun(args, { client }) {
    const dialect = await client.dialect();
    const same = await readView(client, routeView, [{
      key: "dst-address",
      value: String(args.dst_address),
    }]);
    const problems = same.filter(isBlackhole).map((r) =>
      `a blackhole route to ${String(args.dst_address)} already exists (${String(r.id)})`
    );
    return planned([blackholeScript(dialect, args)], {
      id: "(new)",
      dst_address: args.dst_address,
      blackhole: true,
      ...(args.comment !== undefined ? { comment: args.comment } : {}),
    }, problems);
  },
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:]+(:\d+\.\d+\.\d+\.\d+)?$/;

function prefixLength(dst: unknown): number {
  const m = /\/(\d+)$/.exec(String(dst ?? ""));
  return m ? Number(m[1]) : -1;
}

async function lookup(client: RouterOsClient, destination: string, table?: string) {
  const dialect = await client.dialect();
  const menu = destination.includes(":") ? IPV6_ROUTES : routeView;
  const output = await client.run(
    routeLookupStatement(dialect, destination, table),
    menu.path,
    true,
  );
  const raws = client.parseRead(dialect, viewSpec(menu), output);
  return typed(menu, dialect, raws).filter((r) => r.active === true && r.disabled !== true);
}

/** `router_check_route`. */
export const checkRoute: ToolDef = {
  name: "router_check_route",
  title: "Which route does a destination use",
  description:
    "Find the route the router uses for a destination address: the active route with the longest " +
    "matching prefix (then the lowest distance). Also lists the other active routes that contain the address.",
  toolset: "routing",
  input: {
    destination: z.string().max(64).refine(
      (v) => IPV4.test(v) || (v.includes(":") && IPV6.test(v)),
      {
        message: "an IPv4 or IPv6 address such as 8.8.8.8",
      },
    ).describe("Destination address, e.g. 8.8.8.8"),
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
  async handler(args, { client }) {
    const destination = String(args.destination);
    const routes = await lookup(client, destination, args.routing_table as string | undefined);
    routes.sort((a, b) =>
      prefixLength(b.dst_address) - prefixLength(a.dst_address) ||
      Number(a.distance ?? 0) - Number(b.distance ?? 0)
    );
    const [route] = routes;
    return {
      structured: { destination, ...(route ? { route } : {}), candidates: routes },
      text: route
        ? `${destination} uses ${String(route.dst_address)} via ${String(route.gateway ?? "")}${
          isBlackhole(route) ? " (blackhole)" : ""
        }\n${renderTable(routes, COLUMNS)}`
        : `no active route to ${destination}`,
    };
  },
};

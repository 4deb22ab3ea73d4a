/**
 * DHCP: turn a dynamic lease into a static one.
 *
 * @module
 */
import * as z from "zod";
import { itemRef, menuPath } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { checkId } from "../../routeros/quote.ts";
import type { Filter } from "../../routeros/scripts.ts";
import { flag, text } from "../fields.ts";
import { renderTable } from "../render.ts";
import type { ToolDef } from "../tool.ts";
import {
  ID,
  itemSchema,
  planned,
  readViewOrNone,
  typed,
  view,
  viewSection,
  viewSpec,
} from "./views.ts";

/** DHCP leases, as this tool reads them. */
export const leaseView = view("/ip/dhcp-server/lease", "dhcp", "DHCP leases", {
  address: text("Leased IPv4 address"),
  "mac-address": text("Client MAC address"),
  "client-id": text("DHCP client identifier"),
  "host-name": text("Host name the client sent"),
  server: text("DHCP server name"),
  status: text("bound, waiting, offered, ..."),
  "active-address": text("Address the client uses now"),
  dynamic: flag("Whether the lease is dynamic (not static)"),
  disabled: flag("Whether the lease is disabled"),
  comment: text("Free-text comment"),
}, {
  flags: { X: "disabled", D: "dynamic", B: "blocked", R: "radius" },
  columns: ["address", "mac-address", "host-name", "server", "status", "dynamic"],
});

const COLUMNS = ["id", "address", "mac_address", "host_name", "server", "status", "dynamic"];

function leaseRef(
  args: Record<string, unknown>,
): { id?: string; key?: { key: string; value: string } } {
  if (typeof args.id === "string") return { id: checkId(args.id) };
  if (typeof args.mac_address === "string") {
    return { key: { key: "mac-address", value: args.mac_address.toUpperCase() } };
  }
  if (typeof args.address === "string") return { key: { key: "address", value: args.address } };
  throw new RouterOsError(
    "invalid-value",
    "give id, mac_address or address to say which lease",
    "",
  );
}

function refFilter(ref: ReturnType<typeof leaseRef>): Filter {
  return ref.id ? { key: ".id", value: ref.id } : ref.key!;
}

function makeStaticScript(dialect: Dialect, args: Record<string, unknown>): string {
  const ref = leaseRef(args);
  return `${menuPath(leaseView.path)} make-static numbers=${itemRef(ref)}; ${
    viewSection(dialect, leaseView, [refFilter(ref)])
  }`;
}

/** `router_make_static_dhcp_lease`. */
export const makeStaticLease: ToolDef = {
  name: "router_make_static_dhcp_lease",
  title: "Make a DHCP lease static",
  description:
    "Convert a dynamic DHCP lease into a static one, so the client keeps its address. Identify " +
    "the lease by id, MAC address or leased address. Returns the lease afterwards (dynamic=false).",
  toolset: "dhcp",
  input: {
    id: ID.optional().describe("Lease id (.id), such as *1A"),
    mac_address: z.string().regex(/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/, "a MAC address")
      .optional().describe("Client MAC address, e.g. AA:BB:CC:00:11:22"),
    address: z.string().max(64).optional().describe("Leased address, e.g. 192.168.88.254"),
  },
  output: { item: itemSchema(leaseView) },
  example: { mac_address: "A4:83:E7:44:55:66" },
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  perDevice: true,
  async handler(args, { client }) {
    const dialect = await client.dialect();
    const [items] = await client.write(
      dialect,
      viewSpec(leaseView),
      makeStaticScript(dialect, args),
      1,
    );
    if (items.length === 0) {
      throw new RouterOsError("not-found", "no such DHCP lease", "no such item");
    }
    const [item] = typed(leaseView, dialect, items);
    return { structured: { item }, text: renderTable([item], COLUMNS) };
  },
  async dryRun(args, { client }) {
    const dialect = await client.dialect();
    const script = makeStaticScript(dialect, args);
    const [lease] = await readViewOrNone(client, leaseView, [refFilter(leaseRef(args))]);
    const problems: string[] = [];
    if (!lease) problems.push("no such DHCP lease");
    else if (lease.dynamic === false) problems.push(`lease ${String(lease.id)} is already static`);
    return planned([script], lease ? { ...lease, dynamic: false } : {}, problems);
  },
};

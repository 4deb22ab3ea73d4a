/**
 * DHCP: turn a dynamic lease into a static one.
 *
 * @module
 */
import * as z from "zod";
import { cmd, type ItemRef, refCondition } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { dhcpLeases } from "../../routeros/schema/menus/dhcp.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, itemObject, menuDialect } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { WRITE_IDEMPOTENT } from "../tool.ts";

const COLUMNS = ["id", "address", "mac_address", "host_name", "server", "status", "dynamic"];

/** How the call names the lease. */
function leaseRef(args: { id?: string; mac_address?: string; address?: string }): ItemRef {
  if (args.id !== undefined) return { id: args.id };
  if (args.mac_address !== undefined) {
    return { key: "mac-address", value: args.mac_address.toUpperCase() };
  }
  if (args.address !== undefined) return { key: "address", value: args.address };
  throw new ArgumentError("give id, mac_address or address to say which lease");
}

/** The script: make the lease static, then read it back. */
function makeStatic(dialect: Dialect, ref: ItemRef) {
  const script = new Script(dialect);
  script.do(cmd(dhcpLeases.path, "make-static", { numbers: ref }));
  const read = script.read(readSpecOf(dhcpLeases, dialect.release), [refCondition(ref)]);
  return { script, read };
}

/** `router_make_static_dhcp_lease`. */
export const makeStaticLease = defineTool({
  name: "router_make_static_dhcp_lease",
  title: "Make a DHCP lease static",
  description:
    "Convert a dynamic DHCP lease into a static one, so the client keeps its address. Identify " +
    "the lease by id, MAC address or leased address. Returns the lease afterwards (dynamic=false).",
  toolset: "dhcp",
  input: {
    id: ID_SCHEMA.optional().describe("Lease id (.id), such as *1A"),
    mac_address: z.string().regex(/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/, "a MAC address")
      .optional().describe("Or the client MAC address, e.g. AA:BB:CC:00:11:22"),
    address: z.ipv4().optional().describe("Or the leased address, e.g. 192.168.88.254"),
  },
  output: { item: itemObject(dhcpLeases) },
  example: { mac_address: "A4:83:E7:44:55:66" },
  annotations: WRITE_IDEMPOTENT,
  perDevice: true,
  async handler(args, ctx) {
    const dialect = await menuDialect(dhcpLeases, ctx);
    const { script, read } = makeStatic(dialect, leaseRef(args));
    const [raw] = (await ctx.client.run(script, { idempotent: false, what: dhcpLeases.path }))
      .get(read).items;
    if (!raw) throw new RouterOsError("not-found", "no such DHCP lease", "no such item");
    const item = toItem(dhcpLeases, dialect.release, raw);
    return { structured: { item }, text: renderTable([item], COLUMNS) };
  },
  async dryRun(args, ctx) {
    const dialect = await menuDialect(dhcpLeases, ctx);
    const ref = leaseRef(args);
    const [raw] = await ctx.client.read(readSpecOf(dhcpLeases, dialect.release), [
      refCondition(ref),
    ]).catch(() => []);
    const lease = raw ? toItem(dhcpLeases, dialect.release, raw) : undefined;
    const problems: string[] = [];
    if (!lease) problems.push("no such DHCP lease");
    else if (lease.dynamic === false) problems.push(`lease ${String(lease.id)} is already static`);
    return {
      commands: [makeStatic(dialect, ref).script.toString()],
      preview: lease ? { ...lease, dynamic: false } : {},
      problems,
    };
  },
});

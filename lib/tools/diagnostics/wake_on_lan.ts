/**
 * `router_wake_on_lan`: `/tool wol` sends a magic packet for a MAC address
 * out of an interface.
 *
 * It changes nothing on the router but acts on the network (a machine
 * powers on): not read-only, not destructive, idempotent (a second packet
 * wakes nothing more), open world; role `operate`; audited like any write,
 * with a dry run. `interface` is required: without one RouterOS sends the
 * packet to 255.255.255.255 through the default route, on most routers
 * the internet (MikroTik's Wake on LAN page and CLI reference). RouterOS
 * prints nothing when it is sent.
 *
 * @module
 */
import { cmd } from "../../routeros/command.ts";
import { expectOnly } from "../../routeros/values.ts";
import type { Annotations } from "../tool.ts";
import { defineTool } from "../define.ts";
import { noteOutcome } from "../errors.ts";
import { IFACE, MAC } from "./diagnostic_args.ts";
import * as z from "zod";

/** Acts on the network, changes nothing on the router, the same when repeated. */
const ACT: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

function wolCommand(args: { mac: string; interface: string }): string {
  return cmd("/tool", "wol", { args: { mac: args.mac.toUpperCase(), interface: args.interface } });
}

/** `router_wake_on_lan`. */
export const wakeOnLan = defineTool({
  name: "router_wake_on_lan",
  title: "Wake a machine (wake-on-LAN)",
  description:
    "Send a wake-on-LAN magic packet for a MAC address out of one interface of the router " +
    "(e.g. the LAN bridge). Changes nothing on the router; the machine must support WoL.",
  toolset: "diagnostics",
  input: {
    mac: MAC.describe("MAC address of the machine to wake"),
    interface: IFACE.describe("Interface to send it out of, e.g. bridge"),
  },
  output: {
    mac: z.string(),
    interface: z.string(),
    sent: z.boolean(),
  },
  annotations: ACT,
  perDevice: true,
  example: { mac: "3C:22:FB:11:22:33", interface: "bridge" },
  dryRun(args) {
    return Promise.resolve({ commands: [wolCommand(args)], preview: { ...args }, problems: [] });
  },
  async handler(args, ctx) {
    const mac = args.mac.toUpperCase();
    const output = await ctx.client.exec(wolCommand(args), {
      idempotent: false,
      what: "/tool/wol",
    });
    try {
      // Any text is RouterOS saying why it sent nothing.
      expectOnly(output, []);
    } catch (err) {
      if (err instanceof Error) {
        err.message += ". No packet was sent; nothing was changed on the router.";
        noteOutcome(err, { kind: "stated" });
      }
      throw err;
    }
    return {
      structured: { mac, interface: args.interface, sent: true },
      text: `magic packet for ${mac} sent out of ${args.interface}`,
    };
  },
});

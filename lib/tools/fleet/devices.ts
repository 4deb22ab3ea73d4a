/**
 * `router_list_devices`: the configured devices and whether each is
 * connected now. Never shows secrets.
 *
 * @module
 */
import * as z from "zod";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

/** The `router_list_devices` tool. */
export const listDevices = defineTool({
  name: "router_list_devices",
  title: "List devices",
  description:
    "List the routers this server manages (title, host, port, username, region, tags, via: " +
    "the SSH bastions on the way) and " +
    "whether each has an open SSH connection now. Use a title as the `device` argument of other tools.",
  toolset: "fleet",
  core: true,
  input: {},
  output: {
    items: z.array(z.object({
      title: z.string(),
      host: z.string(),
      port: z.number(),
      username: z.string(),
      region: z.string().optional(),
      tags: z.array(z.string()),
      via: z.array(z.string()).optional(),
      connected: z.boolean(),
    })),
    count: z.number(),
  },
  annotations: READ,
  perDevice: false,
  handler(_args, { fleet }) {
    const items = fleet.summaries();
    return Promise.resolve({
      structured: { items, count: items.length },
      text: renderTable(items, [
        "title",
        "host",
        "port",
        "username",
        "region",
        "tags",
        // Only in fleets that reach some device through a bastion.
        ...(items.some((d) => d.via) ? ["via"] : []),
        "connected",
      ]),
    });
  },
});

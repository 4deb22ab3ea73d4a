/**
 * MCP assembly: registers the catalogue's tools on an SDK `McpServer`, adds
 * the `device` argument in fleet mode, and turns failures into tool errors.
 *
 * @module
 */
import { McpServer, type RegisteredTool } from "../mcp_sdk/server.ts";
import type { RequestHandlerExtra } from "../mcp_sdk/types.ts";
import type { ServerNotification, ServerRequest } from "../mcp_sdk/types.ts";
import * as z from "zod";
import type { ToolDef } from "../tools/tool.ts";
import { type ToolsetControl, toolsetTools } from "../tools/toolsets.ts";
import type { Devices } from "./devices.ts";
import { guardedCall, safetyInput, type SafetyOptions, safetyOutput } from "./safety/guards.ts";
import { toolErrorMessage } from "../tools/tool_errors.ts";
import { ToolLog } from "./tool_log.ts";

/** Server name and version, for `serverInfo`. */
export interface ServerInfo {
  name: string;
  version: string;
}

const deviceArguments = new WeakMap<Devices, z.ZodType>();

/** The `device` argument: an enum of titles, optional with one device. */
export function deviceArgument(devices: Devices): z.ZodType | undefined {
  if (!devices.fleet) return undefined;
  const cached = deviceArguments.get(devices);
  if (cached) return cached;
  const titles = devices.titles as [string, ...string[]];
  const schema = z.enum(titles).describe(
    "Which router to act on: the title of one inventory device (see router_list_devices)",
  );
  const argument = titles.length === 1 ? schema.optional() : schema;
  deviceArguments.set(devices, argument);
  return argument;
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How the server presents its tools. */
export interface ServerOptions {
  /** Start with only the toolset discovery tools; enable toolsets on request. */
  dynamicToolsets?: boolean;
  /** Change safety (audit log). */
  safety?: SafetyOptions;
}

/** Build an MCP server exposing `tools` for `devices`. */
export function buildServer(
  info: ServerInfo,
  tools: ToolDef[],
  devices: Devices,
  options: ServerOptions = {},
): McpServer {
  const server = new McpServer(info, {
    capabilities: { logging: {}, tools: { listChanged: true } },
    instructions:
      "Tools named router_* manage MikroTik RouterOS routers over SSH. List tools return typed records; " +
      "address items by their `id` (such as *1A) from a list, never by position.",
  });
  ToolLog.of(server); // logging/setLevel for this session's tool-call log
  const device = deviceArgument(devices);
  const registered = tools.map((tool) => ({
    tool,
    handle: registerTool(server, tool, devices, device, options.safety ?? {}),
  }));
  if (options.dynamicToolsets) {
    for (const r of registered) r.handle.disable();
    const control: ToolsetControl = {
      list: () =>
        [...new Set(registered.map((r) => r.tool.toolset))].map((name) => {
          const members = registered.filter((r) => r.tool.toolset === name);
          return {
            name,
            tools: members.length,
            enabled: members.every((r) => r.handle.enabled),
          };
        }),
      enable: (name) => {
        const members = registered.filter((r) => r.tool.toolset === name);
        if (members.length === 0) return null;
        for (const r of members) if (!r.handle.enabled) r.handle.enable();
        return members.map((r) => r.tool.name);
      },
    };
    for (const tool of toolsetTools(control)) registerTool(server, tool, devices, device, {});
  }
  return server;
}

/** Schemas per tool and `device` argument, built once and shared by every session. */
const schemaCache = new WeakMap<ToolDef, Map<z.ZodType | undefined, ToolSchemas>>();

interface ToolSchemas {
  input: z.ZodObject;
  output: z.ZodObject;
}

function toolSchemas(tool: ToolDef, device: z.ZodType | undefined): ToolSchemas {
  let byDevice = schemaCache.get(tool);
  if (!byDevice) schemaCache.set(tool, byDevice = new Map());
  let schemas = byDevice.get(device);
  if (!schemas) {
    const input = { ...tool.input, ...safetyInput(tool) };
    const shape = tool.perDevice && device ? { device, ...input } : input;
    schemas = { input: z.object(shape).strict(), output: z.object(safetyOutput(tool)) };
    byDevice.set(device, schemas);
  }
  return schemas;
}

function registerTool(
  server: McpServer,
  tool: ToolDef,
  devices: Devices,
  device: z.ZodType | undefined,
  safety: SafetyOptions,
): RegisteredTool {
  const schemas = toolSchemas(tool, device);
  return server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: schemas.input,
      outputSchema: schemas.output,
      annotations: { title: tool.title, ...tool.annotations },
    },
    async (args: Record<string, unknown>, extra: ToolExtra) => {
      let title: string | undefined;
      const toolLog = ToolLog.of(server);
      const startedAt = performance.now();
      try {
        let client;
        let config;
        if (tool.perDevice) {
          config = resolveDevice(devices, args.device as string | undefined);
          title = config.title;
          client = devices.client(config);
          toolLog.started(extra, tool.name, title);
        }
        const { device: _, ...rest } = args;
        const token = extra._meta?.progressToken;
        const caller = { client: server.server.getClientVersion(), session: extra.sessionId };
        const result = await guardedCall(
          tool,
          rest,
          {
            client: client as NonNullable<typeof client>,
            fleet: devices,
            signal: extra.signal,
            progress: token === undefined
              ? undefined
              : (progress, total, message) =>
                extra.sendNotification({
                  method: "notifications/progress",
                  params: { progressToken: token, progress, total, message },
                }),
          },
          config,
          caller,
          safety,
        );
        toolLog.finished(extra, tool.name, title, startedAt);
        return {
          content: [{ type: "text" as const, text: result.text }],
          structuredContent: result.structured,
        };
      } catch (err) {
        const text = toolErrorMessage(err, tool.name, title);
        toolLog.finished(extra, tool.name, title, startedAt, text);
        return { content: [{ type: "text" as const, text }], isError: true };
      }
    },
  );
}

/** Thrown when `device` names no inventory entry. */
class UnknownDeviceError extends Error {}

function resolveDevice(devices: Devices, title: string | undefined) {
  const titles = devices.titles;
  if (title === undefined) {
    if (titles.length === 1) return devices.config(titles[0])!;
    throw new UnknownDeviceError(`give device: one of ${titles.join(", ")}`);
  }
  const config = devices.config(title);
  if (!config) {
    throw new UnknownDeviceError(`unknown device "${title}"; valid devices: ${titles.join(", ")}`);
  }
  return config;
}

/**
 * A child's tools as one caller of the proxy may see them: the `device`
 * enum of each input schema narrowed to the devices of the caller's scope.
 * The proxy lists a child's tools as the child's owner, so their enum names
 * the whole inventory, and device titles often name sites and customers;
 * the MCP server tells a scoped principal only its own devices, and so
 * does the proxy, in its tool lists, its OpenAPI documents and the 422 of
 * a refused `device` (arguments are checked against the narrowed schema).
 *
 * Which devices a scope admits is decided as the child decides it
 * ({@linkcode inScope}, by title and tag), on the titles and tags the
 * child's `router_list_devices` tells its owner, asked once per tool list.
 * A caller with no principal (a reader of the docs without a key, when
 * keys are configured and `--strict-auth` is off) sees no titles at all; a
 * principal without a scope sees them all. When the devices cannot be
 * learnt (the child is down, has no `router_list_devices`), a scoped
 * caller sees no titles (fail closed). A child that is not this product
 * is left as it is: device scopes are this product's.
 *
 * The narrowed lists are kept per scope (a handful: one per scope of the
 * keys file), so the validators compiled for them are reused.
 *
 * @module
 */
import { inScope, type Principal } from "../auth/principal.ts";
import type { Tool } from "../mcp_sdk/types.ts";
import { log } from "../log.ts";
import type { McpChild } from "./children.ts";

/** The tool of this product that lists its devices with their tags. */
const LIST_DEVICES = "router_list_devices";

/** How long the proxy waits for that list. */
const LIST_TIMEOUT_MS = 10_000;

/** Narrowed lists kept per tool list; past it the cache starts again. */
const MAX_SCOPES = 256;

/** A device as far as scopes look at it. */
interface DeviceTags {
  title: string;
  tags: readonly string[];
}

/** What is known for one tool list of a child. */
interface Known {
  /** The child's devices, once learnt (undefined while not). */
  devices?: readonly DeviceTags[];
  learning?: Promise<void>;
  /** Narrowed tool lists by scope. */
  byScope: Map<string, Tool[]>;
}

const known = new WeakMap<Tool[], Known>();

/** `child`'s tools as `principal` may see them (undefined: a caller with no key). */
export async function toolsFor(
  child: McpChild,
  principal: Principal | undefined,
): Promise<Tool[]> {
  const tools = child.tools;
  if (principal && !principal.scopes?.length) return tools;
  if (!child.isProduct || !tools.some(hasDeviceEnum)) return tools;
  let entry = known.get(tools);
  if (!entry) known.set(tools, entry = { byScope: new Map() });
  if (principal && !entry.devices) await learn(child, entry);
  const key = principal ? JSON.stringify(principal.scopes) : "";
  let narrowed = entry.byScope.get(key);
  if (!narrowed) {
    const visible = principal && entry.devices
      ? new Set(entry.devices.filter((d) => inScope(principal, d)).map((d) => d.title))
      : new Set<string>();
    narrowed = tools.map((t) => hasDeviceEnum(t) ? withDevices(t, visible) : t);
    // An unlearnt list is not kept: the next call tries again.
    if (!principal || entry.devices) {
      if (entry.byScope.size >= MAX_SCOPES) entry.byScope.clear();
      entry.byScope.set(key, narrowed);
    }
  }
  return narrowed;
}

/** One tool of `child` as `principal` may see it (undefined when it has none of that name). */
export async function toolFor(
  child: McpChild,
  name: string,
  principal: Principal | undefined,
): Promise<Tool | undefined> {
  return (await toolsFor(child, principal)).find((t) => t.name === name);
}

/** Ask the child, as its owner, for its devices' titles and tags (once at a time). */
function learn(child: McpChild, entry: Known): Promise<void> {
  entry.learning ??= (async () => {
    try {
      const result = await child.callTool(LIST_DEVICES, {}, LIST_TIMEOUT_MS);
      const items = (result.structuredContent as { items?: unknown } | undefined)?.items;
      if (result.isError || !Array.isArray(items)) throw new Error("no device list in its answer");
      entry.devices = items.filter(isDevice).map((d) => ({ title: d.title, tags: d.tags }));
    } catch (err) {
      log(
        "warning",
        `proxy: ${child.name}: cannot list its devices (${
          err instanceof Error ? err.message : String(err)
        }); a scoped caller is shown none`,
      );
    } finally {
      entry.learning = undefined;
    }
  })();
  return entry.learning;
}

function isDevice(x: unknown): x is DeviceTags {
  const d = x as Partial<DeviceTags> | null;
  return typeof d?.title === "string" && Array.isArray(d.tags) &&
    d.tags.every((t) => typeof t === "string");
}

type Json = Record<string, unknown>;

function deviceProperty(tool: Tool): Json | undefined {
  const properties = tool.inputSchema?.properties as Json | undefined;
  const device = properties?.device;
  return typeof device === "object" && device !== null ? device as Json : undefined;
}

function hasDeviceEnum(tool: Tool): boolean {
  return Array.isArray(deviceProperty(tool)?.enum);
}

/** `tool` with only the `visible` titles in its `device` enum (none: no enum, as the server does). */
function withDevices(tool: Tool, visible: ReadonlySet<string>): Tool {
  const { enum: all, ...device } = deviceProperty(tool)!;
  const titles = (all as unknown[]).filter((t) => typeof t === "string" && visible.has(t));
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...tool.inputSchema.properties,
        device: titles.length ? { ...device, enum: titles } : device,
      },
    },
  };
}

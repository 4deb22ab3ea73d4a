/**
 * `completion/complete` for prompt arguments and resource template
 * variables: device titles, interface names (read from the router with
 * `router_list_interfaces` through the guard chain, kept for a few
 * seconds), the menu paths `router_print` reads and the sections
 * `router_export_config` exports. An argument with nothing to offer gets an
 * empty list, never an error. Device titles are the caller's: a principal
 * with a device scope is offered only the devices in it. A source that
 * stands for a tool answers only a caller that `tools/list` shows the tool
 * (the session's toolsets, the principal's role), checked before anything
 * else, the interface cache included.
 *
 * @module
 */
import { argumentSource } from "./prompts.ts";
import type { Reads, ReadSite } from "./reads.ts";

/** What a completion request refers to. */
export type CompletionRef = { type: "ref/prompt"; name: string } | {
  type: "ref/resource";
  uri: string;
};

/** The answer of `completion/complete`. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** At most this many values in one answer (the MCP limit). */
export const MAX_VALUES = 100;

/** The tool each completion source stands for: a caller that may not call it is offered nothing. */
const SOURCE_TOOL: Readonly<Record<string, string>> = {
  interface: "router_list_interfaces",
  "export-section": "router_export_config",
  "print-path": "router_print",
};

/** How long interface names read from a router are reused, in milliseconds. */
export const INTERFACE_TTL_MS = 15_000;

/** Values that start with `typed`, then values that contain it (case-insensitive). */
export function matching(values: readonly string[], typed: string): Completion {
  const t = typed.toLowerCase().replace(/^\//, "");
  const bare = (v: string) => v.toLowerCase().replace(/^\//, "");
  const first = values.filter((v) => bare(v).startsWith(t));
  const then = values.filter((v) => !bare(v).startsWith(t) && bare(v).includes(t));
  const all = [...first, ...then];
  return {
    values: all.slice(0, MAX_VALUES),
    total: all.length,
    hasMore: all.length > MAX_VALUES,
  };
}

/** The completions of one server (shared by its sessions: the interface cache is per device). */
export class Completer {
  readonly #reads: Reads;
  readonly #interfaces = new Map<string, { at: number; names: Promise<string[]> }>();

  constructor(reads: Reads) {
    this.#reads = reads;
  }

  /** Complete `argument` of a prompt or resource template. */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string> | undefined,
    site: ReadSite,
  ): Promise<Completion> {
    const values = await this.#values(ref, argument.name, context ?? {}, site);
    return matching(values, argument.value);
  }

  #values(
    ref: CompletionRef,
    name: string,
    context: Record<string, string>,
    site: ReadSite,
  ): Promise<string[]> | string[] {
    const reads = this.#reads;
    const titles = reads.visibleTitles(site.caller.principal);
    const source = ref.type === "ref/prompt"
      ? argumentSource(reads, ref.name, name)
      : ref.uri.startsWith("routeros://{device}/")
      ? name === "device" ? "device" : name === "path" ? "print-path" : undefined
      : undefined;
    const tool = source && SOURCE_TOOL[source];
    if (tool && !reads.enabledFor(site, tool)) return [];
    switch (source) {
      case "device":
        return [...titles];
      case "interface": {
        const device = context.device ?? (reads.titles.length === 1 ? reads.titles[0] : undefined);
        return device && titles.includes(device) ? this.#interfaceNames(device, site) : [];
      }
      case "export-section":
        return reads.allowed("router_export_config", "section");
      case "print-path":
        return reads.allowed("router_print", "path");
      default:
        return [];
    }
  }

  /** The router's interface names, read at most once per {@linkcode INTERFACE_TTL_MS}. */
  #interfaceNames(device: string, site: ReadSite): Promise<string[]> {
    const hit = this.#interfaces.get(device);
    // The caller may call router_list_interfaces (#values checked it before the cache).
    if (hit && performance.now() - hit.at < INTERFACE_TTL_MS) return hit.names;
    // Shared by every request that comes within the TTL, so no one request's cancellation.
    const names = this.#reads.call("router_list_interfaces", device, {}, {
      caller: site.caller,
      enabled: site.enabled,
    })
      .then(
        (r) =>
          ((r.structured.items ?? []) as { name?: unknown }[])
            .map((i) => i.name).filter((n): n is string => typeof n === "string"),
        () => {
          // A failed read is not kept: the next request tries again.
          this.#interfaces.delete(device);
          return [];
        },
      );
    this.#interfaces.set(device, { at: performance.now(), names });
    return names;
  }
}

/**
 * Reads for the MCP surface beside tools (resources, prompt listings,
 * completions): each is a call of a read-only tool through the same guard
 * chain as a direct call ({@linkcode ToolRunner.call}), so selection,
 * device resolution, argument checks and secret masking apply unchanged.
 * A failure becomes a JSON-RPC error carrying the tool error's sentence.
 *
 * The device titles these surfaces offer or name (completions, resource
 * lists, "unknown device" errors) are the caller's: a principal with a
 * device scope sees only the devices in it ({@linkcode Reads.visibleTitles}).
 *
 * @module
 */
import { inScope, type Principal } from "../auth/principal.ts";
import { ArgumentError, UnsupportedError } from "../routeros/errors.ts";
import { UnsafeInputError } from "../routeros/quote.ts";
import { errorText } from "../tools/errors.ts";
import { RefusedError } from "../tools/guard/refusals.ts";
import { mayCall } from "../tools/guard/roles.ts";
import type { Caller, ToolRunner } from "../tools/guard/runner.ts";
import type { FleetView, ToolDef, ToolResult } from "../tools/tool.ts";
import { UnknownDeviceError } from "./unknown_device.ts";
import type { ToolList } from "./tool_list.ts";

/** JSON-RPC "invalid params". */
export const INVALID_PARAMS = -32602;
/** JSON-RPC "internal error". */
export const INTERNAL_ERROR = -32603;

/**
 * A JSON-RPC error answer: the SDK sends `code` and `message` as they are
 * (its own McpError would prefix the message with the code).
 */
export class RequestError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RequestError";
    this.code = code;
    this.data = data;
  }
}

/** Who reads, the request's cancellation, and the tools its session has enabled. */
export interface ReadSite {
  caller: Caller;
  signal?: AbortSignal;
  /**
   * Tools enabled in the session (dynamic toolsets), checked like a tool
   * call's: a resource runs no tool of a toolset the session has not enabled.
   */
  enabled?(tool: ToolDef): boolean;
}

/** A server's read-only tools, as the resources, prompts and completions use them. */
export class Reads {
  readonly #runner: ToolRunner;
  readonly #list: ToolList;

  readonly #fleet: FleetView | undefined;

  /** Every device title, in inventory order (one in single-device mode). */
  readonly titles: readonly string[];

  /** `fleet` tells each device's tags, for scoped principals (none: every title is visible). */
  constructor(runner: ToolRunner, list: ToolList, titles: readonly string[], fleet?: FleetView) {
    this.#runner = runner;
    this.#list = list;
    this.titles = titles;
    this.#fleet = fleet;
  }

  /** The titles `principal` may see, in inventory order: those of its scope (no principal: all). */
  visibleTitles(principal: Principal | undefined): readonly string[] {
    if (!principal?.scopes?.length) return this.titles;
    if (!this.#fleet) return [];
    return this.#fleet.summaries().filter((d) => inScope(principal, d)).map((d) => d.title);
  }

  /**
   * `err` as `principal` may read it: an unknown-device error names only the
   * devices of its scope.
   */
  forCaller(err: unknown, principal: Principal | undefined): unknown {
    return err instanceof UnknownDeviceError ? err.within(this.visibleTitles(principal)) : err;
  }

  /** Whether this server offers every one of these tools (toolsets, read-only mode). */
  offers(...tools: string[]): boolean {
    return tools.every((t) => this.#runner.tool(t) !== undefined);
  }

  /**
   * Whether the reader may call `tool`, as `tools/list` would show it: this
   * server offers it, the session has it enabled, the principal's role
   * allows it.
   */
  enabledFor(site: ReadSite, tool: string): boolean {
    const def = this.#runner.tool(tool);
    return def !== undefined && (!site.enabled || site.enabled(def)) &&
      mayCall(site.caller.principal, def);
  }

  /** The toolset of a tool this server offers. */
  toolsetOf(tool: string): string | undefined {
    return this.#runner.tool(tool)?.toolset;
  }

  /** The values a tool's input schema allows for one argument (its enum), or none. */
  allowed(tool: string, argument: string): string[] {
    const def = this.#runner.tool(tool);
    if (!def) return [];
    const props = this.#list.entry(def).inputSchema.properties as
      | Record<string, { enum?: unknown[] }>
      | undefined;
    return (props?.[argument]?.enum ?? []).map(String);
  }

  /**
   * Call a tool through the guard chain on a device, with the session's
   * toolset check as a tool call has it (`site.enabled`).
   */
  async call(
    tool: string,
    device: string | undefined,
    args: Record<string, unknown>,
    site: ReadSite,
  ): Promise<ToolResult> {
    try {
      return await this.#runner.call(
        tool,
        device === undefined ? args : { ...args, device },
        { caller: site.caller, signal: site.signal, enabled: site.enabled },
      );
    } catch (caught) {
      const err = this.forCaller(caught, site.caller.principal);
      const usage = err instanceof ArgumentError || err instanceof UnsafeInputError ||
        err instanceof UnsupportedError || err instanceof RefusedError;
      throw new RequestError(usage ? INVALID_PARAMS : INTERNAL_ERROR, errorText(err, tool, device));
    }
  }
}

/**
 * The guard chain: every tool call, direct or nested in a composite tool or
 * a fleet job, runs through {@linkcode ToolRunner.call}, in this order:
 *
 * 1. selection: the tool is in this server's catalogue (toolsets,
 *    read-only mode) and enabled in the session;
 * 2. device: the `device` names an inventory entry; a write on a device
 *    marked `read_only` is refused;
 * 3. arguments: the input schema, with local value checks;
 * 4. secrets: a call that would show secrets needs the operator's
 *    `--reveal-secrets`;
 * 5. confirmation: a destructive call, or one that would cut this server's
 *    own access (lock-out), needs `confirm: true` (or the user's yes
 *    through MCP elicitation);
 * 6. dry run or the handler, with every command recorded: a write's
 *    intent line reaches the audit log's disk before each command that may
 *    change the router is sent (fail closed: no line, no command);
 * 7. masking: secret arguments never reach an error, a dry run or the log;
 * 8. audit: the write's outcome line, linked to its intent.
 *
 * @module
 */
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { SshError } from "../../ssh/errors.ts";
import type { RouterOsClient } from "../../routeros/client.ts";
import type {
  DeviceInfo,
  FleetView,
  NestedCall,
  ToolContext,
  ToolDef,
  ToolResult,
} from "../tool.ts";
import { type AuditOutcomeKind, type AuditSink, CallAudit } from "./audit.ts";
import { maskArgs, maskCommand, maskText } from "./masking.ts";
import { SECRET_MASK } from "../../secret_mask.ts";
import { echo } from "../../echo.ts";
import { RefusedError, whyNotSelected } from "./refusals.ts";
import { argumentError, flag, refusePrototypeKeys } from "./arguments.ts";
import { describeDryRun, dryRunResult } from "./dry_run.ts";
import { noteOutcome } from "../errors.ts";
import { beforeWrite, callOutcome, type TrailEntry } from "./outcome.ts";
import * as roles from "./roles.ts";
import { type CallObserver, observed } from "./call_observer.ts";
import { channelShareKey, type Principal } from "../../auth/principal.ts";

/** A caller's principal in an audit line: its name, and whom it acts for. */
const who = ({ principal: p }: Caller) =>
  p ? { principal: p.name, ...(p.onBehalfOf ? { on_behalf_of: p.onBehalfOf } : {}) } : {};

/** A device as the guard chain sees it. */
export interface DeviceRef {
  title: string;
  /** Inventory `read_only: true`: writes are refused. */
  readOnly: boolean;
  client: RouterOsClient;
  /** The devices this server reaches through this one (it is their SSH bastion), by title. */
  forwardsFor?: readonly string[];
}

/** The devices a server manages, as the tools layer sees them. */
export interface DeviceSet extends FleetView {
  /** More than one device possible: tools take `device`. */
  readonly fleet: boolean;
  readonly titles: readonly string[];
  /** The device a call names (or the only one); throws ArgumentError otherwise. */
  resolve(title: string | undefined): DeviceRef;
  summaries(): DeviceInfo[];
}

/** Server-wide guard settings. */
export interface GuardOptions {
  /** `--read-only`: write tools are not in the catalogue. */
  readOnly: boolean;
  /** `--reveal-secrets`: calls may show secrets the router holds. */
  revealSecrets: boolean;
  /** The audit log, when one is configured. */
  audit?: AuditSink;
  /** `--state-dir` (the configuration resolved its `~/`): where snapshots are kept. */
  stateDir?: string;
  /** `--files-dir` (`~/` resolved): the only local directory file transfers use. */
  filesDir?: string;
  /** Told how each call ended (the server's metrics); none: nothing is measured. */
  observer?: CallObserver;
}

/** Who is calling (for audit lines, and the role and scope guard). */
export interface Caller {
  client?: { name?: string; version?: string };
  session?: string;
  /** The authenticated principal; none: the process's owner (stdio), unrestricted. */
  principal?: Principal;
}

/** Where a call comes from: the MCP session or HTTP request. */
export interface CallSite {
  caller: Caller;
  progress?: ToolContext["progress"];
  signal?: AbortSignal;
  /** Tools enabled in this session (dynamic toolsets); default: every selected tool. */
  enabled?(tool: ToolDef): boolean;
  /** Ask the user to confirm (MCP elicitation), when the client can; true means yes. */
  confirm?(message: string): Promise<boolean>;
  /** The session's toolsets, for the discovery tools. */
  toolsets?: ToolContext["toolsets"];
}

/** The composite call a nested call runs inside. */
interface Parent {
  tool: string;
  device?: string;
}

/** Runs tool calls through the guard chain. */
export class ToolRunner {
  readonly #all: Map<string, ToolDef>;
  readonly #selected: Map<string, ToolDef>;
  readonly #devices: DeviceSet;
  readonly #options: GuardOptions;
  /** A write call's intent writer, by the list its recording client fills (see #context). */
  readonly #writeAhead = new WeakMap<string[], (command: string) => Promise<void>>();

  /**
   * `all` is every tool the product has (to explain refusals); `selected`
   * the names this server offers.
   */
  constructor(
    all: readonly ToolDef[],
    selected: ReadonlySet<string>,
    devices: DeviceSet,
    options: GuardOptions,
  ) {
    this.#all = new Map(all.map((t) => [t.name, t]));
    this.#selected = new Map(all.filter((t) => selected.has(t.name)).map((t) => [t.name, t]));
    this.#devices = devices;
    this.#options = options;
  }

  /** The tools this server offers, in catalogue order. */
  get tools(): ToolDef[] {
    return [...this.#selected.values()];
  }

  /** A tool this server offers, by name. */
  tool(name: string): ToolDef | undefined {
    return this.#selected.get(name);
  }

  /** Run one call through every guard; tell the observer how it ended; scope its error. */
  call(
    name: string,
    rawArgs: Record<string, unknown>,
    site: CallSite,
    parent?: Parent,
  ): Promise<ToolResult> {
    const run = () =>
      this.#call(name, rawArgs, site, parent).catch((err) => {
        throw roles.scopedError(err, site.caller.principal, this.#devices);
      });
    const observer = this.#options.observer;
    if (!observer) return run();
    return observed(observer, this.#all.has(name) ? name : undefined, site.signal, run);
  }

  async #call(
    name: string,
    rawArgs: Record<string, unknown>,
    site: CallSite,
    parent?: Parent,
  ): Promise<ToolResult> {
    const p = await this.#prepare(name, rawArgs, site, parent, true);
    const { tool, args, ctx, sent, trail, dryRun, device } = p;
    const secrets = tool.secretArgs ?? [];
    const raw = tool.rawCommandArgs ?? [];
    const isWrite = !tool.annotations.readOnlyHint;
    const audit = isWrite && this.#options.audit
      ? this.#callAudit(this.#options.audit, tool, device, parent, args, site)
      : undefined;
    if (audit) {
      await this.#options.audit!.checkWritable();
      this.#writeAhead.set(sent, (command) => this.#intent(audit, tool, command));
    }
    const started = performance.now();
    let outcome: AuditOutcomeKind = "ok";
    let error: string | undefined;
    try {
      if (dryRun) {
        if (!tool.dryRun) throw new RefusedError("dry-run", `${p.what} has no dry run`);
        const dry = await tool.dryRun(args, ctx);
        sent.length = 0;
        sent.push(...dry.commands);
        return dryRunResult(dry, args, secrets, raw);
      }
      return await tool.handler(args, ctx);
    } catch (err) {
      outcome = err instanceof SshError && err.outcomeUnknown
        ? "unknown"
        : err instanceof RouterOsError
        ? "routeros-error"
        : err instanceof RefusedError
        ? "refused"
        : "error";
      error = err instanceof Error ? maskText(err.message, args, secrets, raw) : String(err);
      if (err instanceof Error && (secrets.length || raw.length)) err.message = error;
      noteOutcome(err, callOutcome(err, tool, dryRun, trail));
      throw err;
    } finally {
      if (audit) {
        await this.#audit(audit, tool, sent, dryRun, { outcome, error, started });
      }
    }
  }

  /**
   * Guards 1 to 5: selection, device, arguments, secrets, and confirmation
   * (asked, or required) unless `confirmNow` is false.
   */
  async #prepare(
    name: string,
    rawArgs: Record<string, unknown>,
    site: CallSite,
    parent: Parent | undefined,
    confirmNow: boolean,
  ) {
    const tool = this.#selected.get(name);
    if (!tool) {
      throw whyNotSelected(name, this.#all, this.#selected, this.#options.readOnly, parent?.tool);
    }
    // Nested calls too: a composite reaches no tool the session has not enabled.
    if (site.enabled && !site.enabled(tool)) {
      throw new RefusedError(
        "selection",
        `${parent ? `${name} (inside ${parent.tool})` : name} is in the ${tool.toolset} toolset, ` +
          `which is not enabled in this session: call router_enable_toolsets with ` +
          `["${tool.toolset}"] first`,
      );
    }
    refusePrototypeKeys(rawArgs);
    const { device: deviceArg, dry_run: dryRunArg, confirm: confirmArg, ...rest } = rawArgs;
    const isWrite = !tool.annotations.readOnlyHint;
    if (!isWrite && (dryRunArg !== undefined || confirmArg !== undefined)) {
      throw new ArgumentError(`${name} only reads: it takes no dry_run or confirm`);
    }
    const dryRun = flag("dry_run", dryRunArg);
    const confirm = flag("confirm", confirmArg);
    if (tool.perDevice && deviceArg !== undefined && typeof deviceArg !== "string") {
      throw new ArgumentError(
        `must be a device title (a string), not ${echo(deviceArg)}`,
        "device",
      );
    }
    if (parent && tool.perDevice && deviceArg !== undefined && deviceArg !== parent.device) {
      // A composite chooses the device of each call it makes (its own, or
      // the fleet query's choice); its arguments cannot send one elsewhere.
      throw new ArgumentError(
        `${name} (inside ${parent.tool}): device ${echo(deviceArg)} in its arguments is not ` +
          `the device ${parent.tool} runs it on (${JSON.stringify(parent.device ?? "")}); ` +
          "leave device out of nested arguments",
      );
    }
    const device = tool.perDevice
      ? this.#devices.resolve(parent ? parent.device : deviceArg as string | undefined)
      : undefined;
    const what = parent ? `${name} (inside ${parent.tool})` : name;
    const describe = (title: string) => this.#devices.summaries().find((d) => d.title === title);
    roles.authorize(site.caller.principal, tool, what, device?.title, describe);
    if (!tool.perDevice && deviceArg !== undefined) rest.device = deviceArg;
    const parsed = tool.input.safeParse(rest);
    if (!parsed.success) throw argumentError(parsed.error.issues, rest, name, parent?.tool);
    const args = parsed.data as Record<string, unknown>;
    roles.authorizeArguments(site.caller.principal, tool, what, args);
    if (tool.requireOneOf && !tool.requireOneOf.some((k) => args[k] !== undefined)) {
      throw new ArgumentError(`${what}: give ${tool.requireOneOf.join(" or ")} to say which item`);
    }
    if (isWrite && device?.readOnly && !tool.localOnly) {
      throw new RefusedError(
        "read-only-device",
        `device "${device.title}" is read-only (inventory read_only: true); ${what} changes ` +
          "the router and was not sent",
      );
    }
    const reveals = this.#options.revealSecrets ? false : tool.revealsSecrets?.(args);
    if (reveals) {
      throw new RefusedError(
        "secrets",
        `${what} ${
          typeof reveals === "string" ? reveals : "would show secrets held on the router"
        }; the operator must start the server with --reveal-secrets ` +
          "(ROUTER_REVEAL_SECRETS=true) to allow it. Nothing was read.",
      );
    }
    const sent: string[] = [];
    const trail: TrailEntry[] = [];
    const ctx = this.#context(tool, device, site, sent, trail, parent);
    if (isWrite) await roles.authorizeHeld(site.caller.principal, tool, what, args, ctx);
    if (isWrite && !dryRun && !confirm) {
      const lockout = tool.lockout ? await beforeWrite(tool.lockout(args, ctx)) : undefined;
      if (tool.annotations.destructiveHint || lockout) {
        await this.#confirmOrRefuse(tool, what, args, ctx, confirmNow ? site : {}, lockout);
      }
    }
    sent.length = 0;
    trail.length = 0;
    return { tool, args, ctx, sent, trail, dryRun, device, what };
  }

  /**
   * The context a handler runs in: a recording client and nested calls
   * through this chain. `sent` gets the commands that may change the router
   * (for the audit), `trail` every command and completed nested write in
   * order (for the outcome of a failure).
   */
  #context(
    tool: ToolDef,
    device: DeviceRef | undefined,
    site: CallSite,
    sent: string[],
    trail: TrailEntry[],
    parent?: Parent,
  ): ToolContext {
    const inside = (nested: NestedCall): Parent => ({
      tool: parent ? `${parent.tool} > ${tool.name}` : tool.name,
      device: nested.device ?? device?.title,
    });
    const describe = (title: string) => this.#devices.summaries().find((d) => d.title === title);
    const what = parent ? `${tool.name} (inside ${parent.tool})` : tool.name;
    const reveal = this.#options.revealSecrets;
    // The audit records the write scripts a call sends (reads change nothing),
    // each sent once its intent line is on disk; every command goes for the
    // caller (channelShareKey), among whom a device's channels are shared.
    const client = device?.client.withRecorder((c, idempotent) => {
      trail.push({ read: idempotent });
      if (idempotent) return;
      sent.push(c);
      return this.#writeAhead.get(sent)?.(c);
    }, { who: channelShareKey(site.caller), urgent: tool.urgent });
    return {
      // A tool that acts on no device (perDevice: false) has no client: using
      // one is a programmer error, said as such.
      get client(): RouterOsClient {
        if (!client) throw new Error(`${tool.name} acts on no device, so it has no router client`);
        return client;
      },
      device: device?.title ?? "",
      ...(device?.forwardsFor?.length ? { forwardsFor: device.forwardsFor } : {}),
      fleet: roles.scopedFleet(this.#devices, site.caller.principal),
      progress: site.progress,
      signal: site.signal,
      toolsets: site.toolsets,
      stateDir: this.#options.stateDir,
      filesDir: this.#options.filesDir,
      revealSecrets: reveal,
      ...roles.callerChecks(site.caller.principal, tool, what, describe, reveal),
      // A composite owns its progress token: nested calls report none of their own.
      call: async (nested: NestedCall) => {
        const r = await this.call(
          nested.name,
          nested.args,
          { ...site, progress: undefined },
          inside(nested),
        );
        const inner = this.#selected.get(nested.name);
        if (inner && !inner.annotations.readOnlyHint && nested.args.dry_run !== true) {
          trail.push({ read: false });
        }
        return r;
      },
      check: async (nested: NestedCall) => {
        const p = await this.#prepare(nested.name, nested.args, site, inside(nested), false);
        return { tool: p.tool, args: p.args };
      },
    };
  }

  /**
   * A call's arguments with its secrets masked, and those of the calls it
   * nests (by the nested tool's own secrets; every value of an unknown one).
   */
  #masked(tool: ToolDef, args: Record<string, unknown>): Record<string, unknown> {
    const own = maskArgs(args, tool.secretArgs ?? [], tool.rawCommandArgs ?? []);
    if (!tool.maskNested) return own;
    return tool.maskNested(own, (name, nested) => {
      const inner = this.#all.get(name);
      if (inner) return this.#masked(inner, nested);
      return Object.fromEntries(Object.keys(nested).map((k) => [k, SECRET_MASK]));
    });
  }

  async #confirmOrRefuse(
    tool: ToolDef,
    what: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    site: Pick<CallSite, "confirm">,
    lockout: string | undefined,
  ): Promise<void> {
    const secrets = tool.secretArgs ?? [];
    const raw = tool.rawCommandArgs ?? [];
    const dry = tool.dryRun ? await tool.dryRun(args, ctx) : undefined;
    const effect = dry ? ` It would ${describeDryRun(dry)}.` : "";
    const why = lockout
      ? `${what} would cut this server's own access to device "${ctx.device}": ${lockout}.`
      : `${what} is destructive.`;
    // A client that announces elicitation but cannot answer it (no handler,
    // an error) is treated as one without: the call then needs confirm: true.
    let unasked = "";
    if (site.confirm) {
      let yes: boolean | undefined;
      try {
        yes = await site.confirm(maskText(`${why}${effect} Proceed?`, args, secrets, raw));
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        unasked = " The client could not ask the user.";
      }
      if (yes === true) return;
      if (yes === false) {
        throw new RefusedError("confirm", `${why} The user declined; nothing was done.`);
      }
    }
    throw new RefusedError(
      lockout ? "lockout" : "confirm",
      maskText(
        `${why}${unasked} It needs confirm: true. Nothing was done.${effect} Call it with ` +
          "dry_run: true to see the exact commands.",
        args,
        secrets,
        raw,
      ),
    );
  }

  /** The audit of one write call: masked arguments, where and who. */
  #callAudit(
    sink: AuditSink,
    tool: ToolDef,
    device: DeviceRef | undefined,
    parent: Parent | undefined,
    args: Record<string, unknown>,
    site: CallSite,
  ): CallAudit {
    const secrets = tool.secretArgs ?? [];
    return new CallAudit(sink, {
      device: device?.title ?? "",
      tool: tool.name,
      ...(parent ? { parent: parent.tool } : {}),
      arguments: this.#masked(tool, args),
      // Who: the client and session, the principal's name (never its scopes)
      // and the label of whom a parent said it acts for.
      caller: { client: site.caller.client, session: site.caller.session, ...who(site.caller) },
    }, (command) => maskCommand(command, secrets));
  }

  /** Write a command's intent before it is sent; no line, no command. */
  async #intent(audit: CallAudit, tool: ToolDef, command: string): Promise<void> {
    const first = !audit.started;
    try {
      await audit.intent(command);
    } catch (err) {
      const why = `its audit line could not be written: ${(err as Error).message}`;
      if (first) {
        throw new RefusedError("audit", `${tool.name} was not sent, because ${why}`);
      }
      throw new Error(
        `${tool.name} stopped before its next command, because ${why}; the commands before ` +
          "it were sent (read the router back)",
      );
    }
  }

  /** Write the call's outcome line (a dry run's or a call's that sent nothing: its only line). */
  async #audit(
    audit: CallAudit,
    tool: ToolDef,
    sent: string[],
    dryRun: boolean,
    r: { outcome: AuditOutcomeKind; error?: string; started: number },
  ): Promise<void> {
    try {
      await audit.outcome({
        outcome: r.outcome,
        ...(r.error !== undefined ? { error: r.error } : {}),
        durationMs: Math.round(performance.now() - r.started),
        dryRun,
        commands: sent,
      });
    } catch (err) {
      // A call stopped because an intent could not be written says so already.
      if (audit.broken) return;
      throw new Error(
        r.outcome === "ok"
          ? `${tool.name} completed, but its outcome could not be written to the audit log` +
            `${audit.started ? " (its intent is there)" : ""}: ${(err as Error).message}`
          : `${tool.name} failed (${r.error}), and its outcome could not be written to the ` +
            `audit log: ${(err as Error).message}`,
      );
    }
  }
}

export { RefusedError };

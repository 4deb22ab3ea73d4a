/**
 * What every session of a server process shares, built once: the devices
 * and their SSH pool, the catalogue with its guard chain, the tool list and
 * the reads behind resources, prompts and completions. Building it loads
 * the whole catalogue, so a stdio server answers `initialize` first and
 * builds this right after (`run.ts`).
 *
 * @module
 */
import type { Config } from "../config/load.ts";
import { ToolRunner } from "../tools/guard/runner.ts";
import type { ToolDef } from "../tools/tool.ts";
import { Completer } from "./completions.ts";
import { createDevices, type Devices } from "./devices.ts";
import { Reads } from "./reads.ts";
import type { ServerMetrics } from "./metrics.ts";
import type { AuditLog } from "./safety/audit_log.ts";
import { ToolList } from "./tool_list.ts";
import { type Selection, selectTools } from "./tool_selection.ts";

/** What every session of a process shares. */
export interface ServerCore {
  runner: ToolRunner;
  selection: Selection;
  list: ToolList;
  /** Reads through the guard chain, for resources, prompts and completions. */
  reads: Reads;
  completer: Completer;
}

/**
 * Build the core of a configuration: devices, guard chain, tool list.
 * `audit` is the configuration's audit log, opened already
 * (`openAuditLog`); a configuration that names one must pass it.
 * `options.metrics`, when given, is told of every call and connection;
 * `options.tools` is the catalogue (default: the product's; a test gives
 * one with a family of its own).
 */
export function prepareServer(
  config: Config,
  audit: AuditLog | undefined,
  options: { metrics?: ServerMetrics; tools?: readonly ToolDef[] } = {},
): {
  devices: Devices;
  core: ServerCore;
} {
  if (config.settings["audit-log"] && audit?.path !== config.settings["audit-log"]) {
    // Fail closed: a core without the audit log it was configured with.
    throw new Error(`the audit log ${config.settings["audit-log"]} was not opened`);
  }
  const { metrics, tools } = options;
  const devices = createDevices(config, metrics?.ssh);
  metrics?.ssh.attach(devices.pool);
  const selection = selectTools(config, tools);
  const runner = new ToolRunner(selection.all, selection.offered, devices, {
    readOnly: config.settings["read-only"],
    revealSecrets: config.settings["reveal-secrets"],
    audit,
    stateDir: config.settings["state-dir"],
    filesDir: config.settings["files-dir"] ?? `${config.settings["state-dir"]}/files`,
    observer: metrics?.calls,
  });
  // In fleet mode tools take `device`, an enum of every title.
  const list = new ToolList(devices.fleet ? devices.titles : []);
  const reads = new Reads(runner, list, devices.titles, devices);
  const core = { runner, selection, list, reads, completer: new Completer(reads) };
  return { devices, core };
}

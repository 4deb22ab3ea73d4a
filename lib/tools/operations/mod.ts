/**
 * The operations toolset (day-two work): configuration snapshots, diffs
 * and fleet drift, live sampling, in the order the catalogue lists them (a snapshot
 * before the tools that read snapshots).
 *
 * @module
 */
import type { ToolDef } from "../tool.ts";
import { downloadBackup, fleetBackup, restoreBackup } from "./backups.ts";
import { fleetDrift } from "./drift.ts";
import { checkForUpdates, fleetUpgrade, upgrade } from "./upgrades.ts";
import { monitor } from "./monitor.ts";
import { diffConfig, listSnapshots, pruneSnapshots, snapshotConfig } from "./snapshots.ts";

/** The operations tools, in catalogue order. */
export const OPERATIONS: readonly ToolDef[] = [
  snapshotConfig,
  listSnapshots,
  diffConfig,
  fleetDrift,
  monitor,
  downloadBackup,
  fleetBackup,
  checkForUpdates,
  upgrade,
  fleetUpgrade,
  restoreBackup,
  pruneSnapshots,
];

/**
 * The insight toolset: seeing the network across the fleet - the security
 * audit, the topology and path tracing. Each is a composite of read tools
 * (nested calls through the guard chain) over pure modules of
 * `lib/routeros`.
 *
 * @module
 */
import type { ToolDef } from "../tool.ts";
import { tracePathTool } from "./path_trace.ts";
import { auditSecurity } from "./security_posture.ts";
import { topologyTool } from "./topology.ts";

/** The insight tools, in catalogue order. */
export const INSIGHT: readonly ToolDef[] = [auditSecurity, topologyTool, tracePathTool];

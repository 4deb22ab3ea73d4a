/**
 * Which toolset setting fits which MCP client, with the tool counts each
 * setting lists, computed from the catalogue: the generated tables of
 * docs/clients.md and the publisher metadata of the MCP-registry entry
 * (server.json `_meta`), both written by `deno task docs`.
 *
 * @module
 */
import { selectTools } from "../lib/server/tool_selection.ts";
import { catalogue } from "../lib/tools/catalogue.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";

/** A server setting: `--toolsets` (`ROUTER_TOOLSETS`) and `--read-only`. */
export interface Setting {
  toolsets: string;
  readOnly?: boolean;
}

/** How many tools a new session of a single-device server lists with `setting`. */
export function toolCount(setting: Setting): number {
  return selectTools({
    settings: {
      toolsets: setting.toolsets.split(","),
      "read-only": setting.readOnly ?? false,
      "allow-raw-commands": false,
      "dynamic-toolsets": false,
    },
  }).initial.size;
}

/** What one client takes, and the setting that fits it. */
export interface ClientProfile {
  client: string;
  /** Tools the client (or the model behind it) takes in one request, where it caps them. */
  limit?: number;
  /** The setting that fits. */
  setting: Setting;
  /** Why, in a few words. */
  why: string;
}

/** The clients docs/clients.md describes. */
export const PROFILES: readonly ClientProfile[] = [
  {
    client: "Claude Desktop, Claude Code",
    setting: { toolsets: "default" },
    why: "no fixed cap; the agent adds a toolset with router_enable_toolsets when a task needs it",
  },
  {
    client: "VS Code (Copilot agent mode)",
    limit: 128,
    setting: { toolsets: "ip,firewall,routing" },
    why: "128 tools per request across every server; or default, and enable toolsets as needed",
  },
  {
    client: "Cursor",
    limit: 40,
    setting: { toolsets: "default" },
    why: "about 40 tools in all; enable one small toolset at a time, or fix one read-only toolset",
  },
  {
    client: "MCP Inspector",
    setting: { toolsets: "all" },
    why: "no cap; it follows nextCursor and checks every schema",
  },
  {
    client: "Open WebUI, through the REST proxy",
    limit: 128,
    setting: { toolsets: "ip,firewall,routing" },
    why: "each endpoint is a tool of the model's request (OpenAI models take 128)",
  },
  {
    client: "Python agent (mcp SDK)",
    setting: { toolsets: "all" },
    why: "no cap; list_tools pages with nextCursor",
  },
];

/** The setting as flags. */
function flags(s: Setting): string {
  return `\`--toolsets ${s.toolsets}\`${s.readOnly ? " `--read-only`" : ""}`;
}

/** docs/clients.md, generated part: each client's setting and the tools it lists. */
export function profilesTable(): string {
  return [
    "| client | tool limit | setting | tools listed | why |",
    "|---|---|---|---|---|",
    ...PROFILES.map((p) =>
      `| ${p.client} | ${p.limit ?? "none"} | ${flags(p.setting)} | ${
        toolCount(p.setting)
      } | ${p.why} |`
    ),
  ].join("\n");
}

/** The selection of a default single-device server (no raw commands). */
function byDefault() {
  return selectTools({
    settings: {
      toolsets: ["default"],
      "read-only": false,
      "allow-raw-commands": false,
      "dynamic-toolsets": false,
    },
  });
}

/** Tools of a toolset that a default session does not list yet (router_enable_toolsets adds them). */
function added(toolset: string): number {
  const { initial, offered } = byDefault();
  return catalogue().filter((t) =>
    t.toolset === toolset && offered.has(t.name) && !initial.has(t.name)
  ).length;
}

/** What a default session can list, every toolset enabled (discovery tools included). */
function offeredByDefault(): number {
  return byDefault().offered.size;
}

/** docs/clients.md, generated part: the tools of each toolset, read-write and read-only. */
export function toolsetTable(): string {
  const row = (name: string, s: Setting, note: string) =>
    `| ${name} | ${toolCount(s)} | ${toolCount({ ...s, readOnly: true })} | ${note} |`;
  return [
    "| `--toolsets` | tools | with `--read-only` | a default session after `router_enable_toolsets` |",
    "|---|---|---|---|",
    row("`default`", { toolsets: "default" }, "(the core and the 3 discovery tools)"),
    row("`all`", { toolsets: "all" }, `${offeredByDefault()} (every toolset enabled)`),
    ...TOOLSETS.map((t) =>
      row(`\`${t}\``, { toolsets: t }, String(toolCount({ toolsets: "default" }) + added(t)))
    ),
  ].join("\n");
}

/** server.json `_meta`: what the registry keeps of a publisher's own metadata (at most 4 KiB). */
export function registryMeta(): Record<string, unknown> {
  return {
    "io.modelcontextprotocol.registry/publisher-provided": {
      clients: "https://github.com/mcp-server-router/mcp-server-router/blob/main/docs/clients.md",
      toolCounts: {
        default: toolCount({ toolsets: "default" }),
        all: toolCount({ toolsets: "all" }),
        allReadOnly: toolCount({ toolsets: "all", readOnly: true }),
        ...Object.fromEntries(TOOLSETS.map((t) => [t, toolCount({ toolsets: t })])),
      },
      clientProfiles: PROFILES.map((p) => ({
        client: p.client,
        ...(p.limit ? { toolLimit: p.limit } : {}),
        ROUTER_TOOLSETS: p.setting.toolsets,
        ...(p.setting.readOnly ? { ROUTER_READ_ONLY: "true" } : {}),
        tools: toolCount(p.setting),
      })),
    },
  };
}

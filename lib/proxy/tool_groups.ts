/**
 * Groups for a server's tools, the OpenAPI tags Swagger UI folds its
 * operations into. MCP's `tools/list` has no groups, so a tool's group is
 * its `_meta` toolset when the server sends one (`toolset`, or a namespaced
 * key ending in `/toolset`), else it is read from the tool names: the
 * prefix every tool shares (`router_`) and a leading verb (`list_`, `get_`,
 * ...) are dropped, and the next word names the group, singular and plural
 * counted as one (`get_user` joins `list_users`). A tool whose word no
 * other tool shares joins a group named by a later word if one exists
 * (`list_active_users` -> `users`), else the group `other`. When no two
 * tools share a group at all, they all take the fallback (the server name).
 *
 * @module
 */
import type { Tool } from "../mcp_sdk/types.ts";

/** Words read as verbs at the start of a tool name. */
const VERBS = new Set(
  ("list get add create update set remove delete enable disable move read write make check " +
    "flush resolve export import upload download run start stop show find search query apply " +
    "commit rollback disconnect reboot print fetch put post patch describe")
    .split(" "),
);

/** The group of tools that share no group with another tool. */
export const OTHER_GROUP = "other";

/** The toolset a server names in a tool's `_meta`, if any. */
export function metaToolset(tool: Tool): string | undefined {
  const meta = (tool as { _meta?: Record<string, unknown> })._meta;
  if (!meta || typeof meta !== "object") return undefined;
  for (const [key, value] of Object.entries(meta)) {
    if ((key === "toolset" || key.endsWith("/toolset")) && typeof value === "string" && value) {
      return value;
    }
  }
  return undefined;
}

function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-.\s/]+/)
    .filter(Boolean);
}

/** The group of each tool, by tool name, in tool order. */
export function toolGroups(tools: readonly Tool[], fallback: string): Map<string, string> {
  const groups = new Map<string, string>();
  const derived = tools.filter((t) => metaToolset(t) === undefined);
  for (const t of tools) {
    const meta = metaToolset(t);
    if (meta !== undefined) groups.set(t.name, meta);
  }
  if (derived.length === 0) return groups;
  let split = derived.map((t) => words(t.name));
  const first = split[0]?.[0];
  if (derived.length > 1 && split.every((w) => w.length > 1 && w[0] === first)) {
    split = split.map((w) => w.slice(1));
  }
  const rests = split.map((w) => (w.length > 1 && VERBS.has(w[0]) ? w.slice(1) : w));
  const firsts = new Set(rests.map((w) => w[0]));
  const plural = (word: string) =>
    [`${word}s`, `${word}es`, word.endsWith("y") ? `${word.slice(0, -1)}ies` : ""]
      .find((p) => p && firsts.has(p)) ?? word;
  const counts = new Map<string, number>();
  for (const w of rests) counts.set(plural(w[0]), (counts.get(plural(w[0])) ?? 0) + 1);
  const shared = (word: string) => (counts.get(plural(word)) ?? 0) >= 2;
  const any = [...counts.values()].some((n) => n >= 2);
  derived.forEach((tool, i) => {
    const w = rests[i];
    const word = shared(w[0]) ? w[0] : w.slice(1).find(shared);
    groups.set(tool.name, !any ? fallback : word === undefined ? OTHER_GROUP : plural(word));
  });
  return groups;
}

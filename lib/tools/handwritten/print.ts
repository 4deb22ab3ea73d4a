/**
 * `router_print`: read-only access to any menu of an allow-list (every
 * declared menu plus state menus such as /ip/arp), returning raw records
 * with RouterOS property names and secrets masked.
 *
 * @module
 */
import * as z from "zod";
import type { CommandValue, Condition } from "../../routeros/command.ts";
import { ArgumentError, UnsupportedError } from "../../routeros/errors.ts";
import { describeRange, inRange } from "../../routeros/release.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { DEFAULT_FLAGS } from "../../routeros/parse_terse.ts";
import { checkId, checkMenuPath, checkName } from "../../routeros/quote.ts";
import {
  declarationOn,
  fieldsOn,
  menuOnRelease,
  type MenuSchema,
} from "../../routeros/schema/menu.ts";
import { defineTool } from "../define.ts";
import { checkPrintPath } from "./command_check.ts";
import { MASK, MAX_LIST, MAX_TEXT } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

/** A read-only menu that `router_print` offers beyond the declared menus. */
interface PrintPath {
  path: string;
  singleton?: boolean;
}

/** Read-only state and settings menus `router_print` offers beyond the declared ones. */
export const PRINT_EXTRAS: readonly PrintPath[] = [
  { path: "/interface/bridge/host" },
  { path: "/interface/list" },
  { path: "/interface/list/member" },
  { path: "/ip/arp" },
  { path: "/ip/dhcp-client" },
  { path: "/ip/firewall/connection" },
  { path: "/ip/ssh", singleton: true },
  { path: "/ip/cloud", singleton: true },
  { path: "/ipv6/neighbor" },
  { path: "/routing/route" },
  { path: "/snmp", singleton: true },
  { path: "/system/history" },
  { path: "/system/license", singleton: true },
];

/** Property names that hold secrets in any menu (masked by `router_print`). */
const SECRET_KEY = /password|passphrase|secret|private-key|pre-shared-key|preshared-key|psk/;

/** Build `router_print` over the declared menus plus {@linkcode PRINT_EXTRAS}. */
export function printTool(menus: readonly MenuSchema[]) {
  const byPath = new Map<string, { singleton: boolean; menus: MenuSchema[] }>();
  for (const e of PRINT_EXTRAS) byPath.set(e.path, { singleton: e.singleton ?? false, menus: [] });
  for (const m of menus) {
    const menus = [...(byPath.get(m.path)?.menus ?? []), m];
    byPath.set(m.path, { singleton: m.kind === "singleton", menus });
  }
  for (const p of byPath.keys()) checkMenuPath(p);
  const paths = [...byPath.keys()].sort() as [string, ...string[]];
  return defineTool({
    name: "router_print",
    title: "Print any allowed menu",
    description:
      "Read-only access to any menu on an allow-list (every menu the other tools cover plus state " +
      "menus such as /ip/arp, /ip/firewall/connection). Returns raw records with RouterOS property " +
      "names; optional `where` equality filters and `proplist`; secrets masked. Prefer the typed " +
      "list tools where one exists.",
    toolset: "diagnostics",
    core: true,
    input: {
      path: z.enum(paths).describe("Menu path, e.g. /ip/arp"),
      where: z.record(
        z.string().max(64),
        z.union([z.string().max(MAX_TEXT), z.number(), z.boolean()]),
      ).optional().describe(
        'Equality filters by RouterOS property name, e.g. {"interface": "ether1"}',
      ),
      proplist: z.array(z.string().max(64)).max(100).optional().describe(
        "Only these properties (RouterOS names)",
      ),
      limit: z.number().int().min(1).max(MAX_LIST).optional().describe(
        "Return at most this many records (default 1000)",
      ),
    },
    output: {
      path: z.string(),
      items: z.array(z.record(z.string(), z.unknown())),
      count: z.number(),
      truncated: z.boolean().describe("More records matched than `limit`"),
    },
    annotations: READ,
    perDevice: true,
    example: { path: "/interface", where: { name: "ether1" }, proplist: ["name", "type"] },
    async handler(args, ctx) {
      const entry = byPath.get(args.path)!;
      const where = args.where ?? {};
      const proplist = (args.proplist ?? []).map((p) => checkName(p, "property"));
      const dialect = await ctx.client.dialect();
      const menu = declarationOn(entry.menus, dialect.release);
      const singleton = menu ? menu.kind === "singleton" : entry.singleton;
      if (singleton && Object.keys(where).length) {
        throw new ArgumentError(
          `${args.path} is a settings menu: it takes no where filter`,
          "where",
        );
      }
      const conditions: Condition[] = Object.entries(where).map(([key, value]) =>
        key === ".id" || key === "id"
          ? { key: ".id", value: checkId(String(value)) }
          : { key: checkName(key, "where key"), value: value as CommandValue }
      );
      if (menu && !menuOnRelease(menu, dialect.release)) {
        throw new UnsupportedError(
          `${args.path} is not on RouterOS ${dialect.release.text}: it needs ${
            describeRange(menu.releases!)
          }`,
        );
      }
      if (menu) {
        for (const name of [...Object.keys(where), ...proplist]) {
          const field = menu.fields[name];
          if (field?.releases && !inRange(dialect.release, field.releases)) {
            throw new UnsupportedError(
              `${args.path} has no property ${name} on RouterOS ${dialect.release.text}: it ` +
                `needs ${describeRange(field.releases)}`,
            );
          }
        }
      }
      await checkPrintPath(ctx.client, args.path);
      const keys = proplist.length
        ? proplist
        : menu
        ? fieldsOn(menu, dialect.release).map(([, , ros]) => ros)
        : [];
      const raws = await ctx.client.read({
        path: args.path,
        keys,
        flags: menu?.flags ?? DEFAULT_FLAGS,
        singleton,
      }, conditions);
      const limit = args.limit ?? MAX_LIST;
      const items = raws.slice(0, limit).map((r) => masked(r, menu, proplist));
      return {
        structured: { path: args.path, items, count: items.length, truncated: raws.length > limit },
        text: renderTable(items, columnsOf(items)),
      };
    },
  });
}

function masked(
  raw: RawItem,
  menu: MenuSchema | undefined,
  proplist: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (proplist.length && key !== ".id" && !proplist.includes(key)) continue;
    const secret = menu?.fields[key]?.secret || SECRET_KEY.test(key);
    out[key] = secret && value !== "" ? MASK : value;
  }
  return out;
}

function columnsOf(items: Record<string, unknown>[]): string[] {
  const cols = new Set<string>();
  for (const i of items.slice(0, 20)) for (const k of Object.keys(i)) cols.add(k);
  return [...cols].slice(0, 8);
}

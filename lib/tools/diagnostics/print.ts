/**
 * `router_print`: read-only access to any menu of an allow-list (every
 * declared menu plus state menus such as /ip/firewall/connection),
 * returning raw records with RouterOS property names and secrets masked.
 *
 * A path it refuses says why, in one of three ways: not on the allow-list
 * (with the nearest allowed paths); not on the connected router's release
 * (with the releases that have it); or on the release but not on this
 * router (a package or hardware it lacks).
 *
 * @module
 */
import * as z from "zod";
import { bracket, cmd, type CommandValue, type Condition } from "../../routeros/command.ts";
import { ArgumentError, UnsupportedError } from "../../routeros/errors.ts";
import { describeRange, inRange, type Release, type ReleaseRange } from "../../routeros/release.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { DEFAULT_FLAGS, type FlagMap } from "../../routeros/parse_terse.ts";
import { checkId, checkMenuPath, checkName } from "../../routeros/quote.ts";
import { type ScriptText, shownScript } from "../../routeros/export_secrets.ts";
import { maskFileText } from "../../routeros/file_secrets.ts";
import { isScriptArgument, SCRIPT_ARGUMENTS } from "../../routeros/script_args.ts";
import { isSecretArgument } from "../../routeros/secret_args.ts";
import { declarationOn, fieldsOn, type MenuSchema } from "../../routeros/schema/menu.ts";
import { Script } from "../../routeros/script.ts";
import type { RouterOsClient } from "../../routeros/client.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { defineTool } from "../define.ts";
import { checkPrintPath } from "./command_check.ts";
import { nearest } from "../nearest_names.ts";
import { MASK, MAX_LIST, MAX_TEXT } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";

/** A read-only menu that `router_print` offers beyond the declared menus. */
interface PrintPath {
  path: string;
  singleton?: boolean;
  /** The releases that have it (default: every release). */
  releases?: ReleaseRange;
  /** Its flag letters in `print terse` (default X, D, I). */
  flags?: FlagMap;
}

/**
 * Read-only state and settings menus `router_print` offers beyond the
 * declared ones. Every one is in each real 7.x command tree
 * (`shared/fidelity`) and, but `/routing/route`, in RouterOS 6.
 */
export const PRINT_EXTRAS: readonly PrintPath[] = [
  // flags: shared/real-output/terse-bridge-host-v7.txt
  {
    path: "/interface/bridge/host",
    flags: { X: "disabled", I: "invalid", D: "dynamic", L: "local", E: "external" },
  },
  { path: "/interface/list" },
  { path: "/interface/list/member" },
  { path: "/ip/dhcp-client" },
  // flags: S, A, C, s in shared/real-output/terse-firewall-connection-v7.txt; the
  // others as MikroTik's connection tracking manual names them
  {
    path: "/ip/firewall/connection",
    flags: {
      E: "expected",
      S: "seen-reply",
      A: "assured",
      C: "confirmed",
      D: "dying",
      F: "fasttrack",
      H: "hw-offload",
      s: "srcnat",
      d: "dstnat",
    },
  },
  // Policy routing rules: RouterOS 6's /ip route rule, RouterOS 7's /routing rule
  // (path tracing reads them; the 7.12.2 to 7.24 trees have /routing/rule).
  { path: "/ip/route/rule", releases: { until: "6.49" } },
  { path: "/ipv6/neighbor" },
  // RouterOS 7's routing table; RouterOS 6 has no /routing route (its routes are
  // /ip route). Flags: shared/real-output/print-ipv6-route-detail-v7-docs.txt
  {
    path: "/routing/route",
    releases: { from: "7.0" },
    flags: {
      X: "disabled",
      F: "filtered",
      U: "unreachable",
      A: "active",
      c: "connect",
      s: "static",
      r: "rip",
      b: "bgp",
      o: "ospf",
      d: "dhcp",
      v: "vpn",
      m: "modem",
      a: "ldp-address",
      l: "ldp-mapping",
      g: "slaac",
      y: "bgp-mpls-vpn",
      H: "hw-offloaded",
      "+": "ecmp",
      B: "blackhole",
    },
  },
  { path: "/routing/rule", releases: { from: "7.0" } },
  // flags: shared/real-output/print-system-history-*.txt
  {
    path: "/system/history",
    flags: { U: "undoable", R: "redoable", F: "floating-undo" },
  },
  { path: "/system/license", singleton: true },
  // what the router's last check for updates found (the security audit compares releases)
  { path: "/system/package/update", singleton: true },
];

/**
 * Declared RouterOS 7 menus whose path RouterOS 6 also has, in a form of its
 * own (other properties, a settings menu where 7 has a list): router_print
 * reads them from RouterOS 7 only, and says so rather than that RouterOS 6
 * lacks them. From MikroTik's v6 manual and real v6 captures
 * (`shared/real-output/print-routing-ospf-neighbor-detail-v6-ansible.txt`).
 */
const OWN_FORM_ON_V6 = new Set([
  "/routing/bgp/advertisements",
  "/routing/ospf/area",
  "/routing/ospf/instance",
  "/routing/ospf/lsa",
  "/routing/ospf/neighbor",
  "/system/health",
]);

/**
 * Whether property `key` of `path` holds a secret: as the schema declares
 * it where a menu declares it, else as its name says (the one list of
 * secret names, `secret_args.ts`, abbreviations included).
 */
function isSecretProperty(key: string, path: string, menus: readonly MenuSchema[]): boolean {
  const declared = menus.flatMap((m) => m.fields[key] ? [m.fields[key]] : []);
  if (declared.length) return declared.some((f) => f.secret);
  return isSecretArgument(key, path);
}

/** Whether property `key` of `path` is a script the router runs (which may hold passwords). */
function isScriptProperty(key: string, path: string, menus: readonly MenuSchema[]): boolean {
  return isScriptArgument(path, key) || menus.some((m) => m.fields[key]?.script);
}

/**
 * Properties whose value is a file's text, by menu path: masked as
 * `router_read_file` masks it ({@linkcode maskFileText}). RouterOS 7 prints
 * a small file's `contents` with every other property (7.13 on), and any
 * release returns it when `proplist` names it.
 */
const FILE_TEXT: ReadonlyMap<string, string> = new Map([["/file", "contents"]]);

/**
 * Whether a `where` key filters on a secret: a secret, a script or a
 * file's text (which may hold one), by its name or what RouterOS might
 * take as one abbreviated (`pass`, `priv`, `cont`), unless it is a declared
 * property that holds none of them.
 */
function isSecretFilter(key: string, path: string, menus: readonly MenuSchema[]): boolean {
  const text = FILE_TEXT.get(path);
  if (text?.startsWith(key)) return true;
  const declared = menus.flatMap((m) => m.fields[key] ? [m.fields[key]] : []);
  if (declared.length) return declared.some((f) => f.secret || f.script);
  if (isSecretArgument(key, path) || isScriptArgument(path, key)) return true;
  const held = [...SCRIPT_ARGUMENTS.get(path) ?? []].concat(
    menus.flatMap((m) =>
      Object.entries(m.fields).flatMap(([name, f]) => f.secret || f.script ? [name] : [])
    ),
  );
  return held.some((name) => name.startsWith(key));
}

/** Build `router_print` over the declared menus plus {@linkcode PRINT_EXTRAS}. */
export function printTool(menus: readonly MenuSchema[]) {
  const byPath = new Map<
    string,
    { singleton: boolean; menus: MenuSchema[]; releases?: ReleaseRange; flags?: FlagMap }
  >();
  for (const e of PRINT_EXTRAS) {
    byPath.set(e.path, {
      singleton: e.singleton ?? false,
      menus: [],
      releases: e.releases,
      flags: e.flags,
    });
  }
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
      path: allowedPath(paths).describe("Menu path, e.g. /ip/arp"),
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
    // A filter on a secret answers whether a guess is right.
    revealsSecrets: (args) => {
      const menus = byPath.get(args.path)?.menus ?? [];
      const secret = Object.keys(args.where ?? {}).filter((key) =>
        isSecretFilter(key, args.path, menus)
      );
      return secret.length > 0 &&
        `would tell a secret: where on ${
          secret.join(", ")
        } answers whether a guessed value is right`;
    },
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
      const releases = menu ? menu.releases : entry.releases;
      if (releases && !inRange(dialect.release, releases)) {
        throw notOnRelease(args.path, dialect.release, releases);
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
      await onThisRouter(ctx.client, args.path, dialect.release);
      const keys = proplist.length
        ? proplist
        : menu
        ? fieldsOn(menu, dialect.release).map(([, , ros]) => ros)
        : [];
      const raws = wholeRules(args.path, proplist, dialect.json)
        ? await everyProperty(ctx.client, dialect, args.path, conditions)
        : await ctx.client.read({
          path: args.path,
          keys,
          flags: menu?.flags ?? entry.flags ?? DEFAULT_FLAGS,
          singleton,
        }, conditions);
      const limit = args.limit ?? MAX_LIST;
      const items = raws.slice(0, limit).map((r) =>
        maskedRecord(r, args.path, entry.menus, proplist, ctx.scriptText)
      );
      return {
        structured: { path: args.path, items, count: items.length, truncated: raws.length > limit },
        text: renderTable(items, columnsOf(items)),
      };
    },
  });
}

/**
 * Firewall rule tables are read with every property a rule has: a matcher
 * the schema does not declare (`ipsec-policy`, `tls-host`...) left out of
 * the answer would make the rule look wider than it is. Releases that
 * print JSON (7.13 on) give every property anyway; older ones are asked
 * with `print as-value`, key by key, as the lock-out guard reads them.
 */
function wholeRules(path: string, proplist: readonly string[], json: boolean): boolean {
  return !json && proplist.length === 0 &&
    /^\/(ip|ipv6)\/firewall\/(filter|nat|mangle|raw)$/.test(path);
}

async function everyProperty(
  client: RouterOsClient,
  dialect: Dialect,
  path: string,
  where: readonly Condition[],
): Promise<RawItem[]> {
  const script = new Script(dialect);
  const section = script.records(
    bracket(cmd(path, "print", { switches: ["as-value"], where })),
    true,
    "every",
  );
  return (await client.run(script, { idempotent: true, what: path })).get(section);
}

/**
 * The path, checked against the allow-list by router_print itself, so that
 * a refusal names the allow-list and the nearest allowed paths. The input
 * schema still lists every allowed path (`enum`).
 */
function allowedPath(paths: readonly string[]) {
  const allowed = new Set(paths);
  return z.string().refine((p) => allowed.has(p), {
    error: (issue) => {
      const given = String(issue.input);
      const near = nearest(given, paths);
      return `${JSON.stringify(given)} is not on router_print's allow-list of ${paths.length} ` +
        "menu paths (the input schema lists them)" +
        (near.length ? `; did you mean ${near.join(", ")}?` : "");
    },
  }).meta({ enum: [...paths] });
}

/** A menu the connected router's release does not have (or has only in RouterOS 6's own form). */
function notOnRelease(path: string, release: Release, releases: ReleaseRange): UnsupportedError {
  if (release.major < 7 && OWN_FORM_ON_V6.has(path)) {
    return new UnsupportedError(
      `${path} is not read on RouterOS ${release.text}: router_print reads the form of ` +
        `${describeRange(releases)} (RouterOS 6 has a menu of that name in a form of its own)`,
    );
  }
  return new UnsupportedError(
    `${path} is not on RouterOS ${release.text}: it needs ${describeRange(releases)}`,
  );
}

/**
 * The path is on the release (the checks above), so a router that lacks it
 * (RouterOS 7 answers for its own menu tree) lacks a package or hardware.
 */
async function onThisRouter(
  client: Parameters<typeof checkPrintPath>[0],
  path: string,
  release: Release,
): Promise<void> {
  try {
    await checkPrintPath(client, path);
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    throw new UnsupportedError(
      `${path} is a menu of RouterOS ${release.text}, but this router does not have it: ` +
        "a package it needs is not installed or is disabled, or it lacks the hardware",
    );
  }
}

/**
 * A record with every secret masked (declared, or named as one: RouterOS
 * 7.13 on prints every property, declared or not), each script shown as
 * `scripts` says (the caller's `ctx.scriptText`), and a file's text masked
 * as `router_read_file` masks it.
 */
export function maskedRecord(
  raw: RawItem,
  path: string,
  menus: readonly MenuSchema[],
  proplist: string[],
  scripts: ScriptText,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (proplist.length && key !== ".id" && !proplist.includes(key)) continue;
    if (key === ".id") out[key] = value;
    else if (value !== "" && isSecretProperty(key, path, menus)) out[key] = MASK;
    else if (typeof value === "string" && FILE_TEXT.get(path) === key) {
      out[key] = maskFileText(String(raw.name ?? ""), value, scripts);
    } else if (typeof value === "string" && isScriptProperty(key, path, menus)) {
      out[key] = shownScript(value, scripts);
    } else out[key] = value;
  }
  return out;
}

function columnsOf(items: Record<string, unknown>[]): string[] {
  const cols = new Set<string>();
  for (const i of items.slice(0, 20)) for (const k of Object.keys(i)) cols.add(k);
  return [...cols].slice(0, 8);
}

/**
 * Defaults that one export writes and another leaves out, so that a
 * configuration diff reads `distance=1` and no `distance` as the same route.
 * RouterOS 6 keeps `distance=1` on static routes and `disabled=no` on DHCP
 * servers and clients; RouterOS 7 leaves them out; routes made in WinBox on 7.x carry
 * every default (`pref-src="" routing-table=main scope=30 ...`) where the
 * same route made on the command line has none.
 *
 * The menu schemas (`schema/menus`) declare no default values (a field's
 * `doc` may name one in prose, which is not data), so this table is the one
 * source, each row naming where it comes from. A default holds on the
 * releases its row names (every release when none): where a release's
 * meaning of an absent property is not known, no row is declared and a
 * difference there is reported, never hidden.
 *
 * @module
 */
import { inRange, type Release, type ReleaseRange } from "./release.ts";

/** One default: the value an export means when it leaves the property out. */
export interface ExportDefault {
  /** Menu path with slashes. */
  menu: string;
  property: string;
  value: string;
  /** Releases where an export without the property means `value` (default: every release). */
  releases?: ReleaseRange;
  /** Where the fact comes from. */
  source: string;
}

const V6_ROUTES = "issue 34 (real v6 exports): static routes keep distance=1, and a default " +
  "route is written without dst-address=0.0.0.0/0; 7.x exports leave distance=1 out";
const WINBOX_ROUTES =
  "public 7.x exports: a route made in WinBox is exported as `add disabled=no distance=1 " +
  'dst-address=0.0.0.0/0 gateway=... pref-src="" routing-table=main scope=30 ' +
  'suppress-hw-offload=no target-scope=10` (blackholes with gateway=""), the same route ' +
  "made on the command line as `add gateway=...`";

function route(menu: string, any: string): ExportDefault[] {
  return [
    { menu, property: "distance", value: "1", source: V6_ROUTES },
    { menu, property: "dst-address", value: any, source: V6_ROUTES },
    { menu, property: "disabled", value: "no", source: WINBOX_ROUTES },
    { menu, property: "gateway", value: "", source: WINBOX_ROUTES },
    { menu, property: "pref-src", value: "", source: WINBOX_ROUTES },
    { menu, property: "routing-table", value: "main", source: WINBOX_ROUTES },
    { menu, property: "scope", value: "30", source: WINBOX_ROUTES },
    { menu, property: "suppress-hw-offload", value: "no", source: WINBOX_ROUTES },
    { menu, property: "target-scope", value: "10", source: WINBOX_ROUTES },
  ];
}

/** Every default, by menu. */
export const EXPORT_DEFAULTS: readonly ExportDefault[] = [
  ...route("/ip/route", "0.0.0.0/0"),
  ...route("/ipv6/route", "::/0"),
  ...["disabled=no", "dhcp-options=hostname,clientid"].map((pair): ExportDefault => ({
    menu: "/ip/dhcp-client",
    property: pair.split("=")[0],
    value: pair.slice(pair.indexOf("=") + 1),
    releases: { from: "7.0" },
    source: "shared/real-output: 6.42.5 exports `add dhcp-options=hostname,clientid " +
      "disabled=no interface=ether1`, 7.10.1, 7.15.2 and 7.18.2 export the default client as " +
      "`add interface=ether1`",
  })),
  {
    menu: "/ip/dhcp-server",
    property: "disabled",
    value: "no",
    releases: { from: "7.0" },
    source: "issue 34 (real v6 exports): v6 keeps disabled=no on DHCP servers, 7.x leaves it " +
      "out (7.x defconf: `add address-pool=default-dhcp interface=bridge name=defconf`); " +
      "what a v6 export without disabled means is not declared",
  },
];

const byMenu = new Map<string, ExportDefault[]>();
for (const d of EXPORT_DEFAULTS) byMenu.set(d.menu, [...(byMenu.get(d.menu) ?? []), d]);

/** The default of one property on a release (undefined release: only rows for every release). */
function defaultOn(rows: readonly ExportDefault[], property: string, r: Release | undefined) {
  return rows.find((d) =>
    d.property === property &&
    (d.releases === undefined || (r !== undefined && inRange(r, d.releases)))
  )?.value;
}

/**
 * How to read one side's items of `menu` when comparing with another side:
 * a value equal to a default both sides share is dropped (it means the same
 * as leaving it out); a property this side leaves out where only this side's
 * release declares its default is filled in (so it meets the other side's
 * written value).
 */
export function defaultsOf(
  menu: string,
  own: Release | undefined,
  other: Release | undefined,
): (values: Readonly<Record<string, string>>) => Record<string, string> {
  const rows = byMenu.get(menu);
  if (!rows) return (v) => ({ ...v });
  const drop = new Map<string, string>();
  const fill = new Map<string, string>();
  for (const property of new Set(rows.map((d) => d.property))) {
    const mine = defaultOn(rows, property, own);
    if (mine === undefined) continue;
    if (mine === defaultOn(rows, property, other)) drop.set(property, mine);
    else fill.set(property, mine);
  }
  return (values) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (drop.get(k) !== v) out[k] = v;
    for (const [k, v] of fill) if (!(k in values)) out[k] = v;
    return out;
  };
}

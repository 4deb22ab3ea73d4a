/**
 * `/interface ethernet monitor <ports> once [as-value]`: the link of each
 * port, in the shape of MikroTik's own examples:
 * - RouterOS 6 (MikroTik wiki, Manual:Interface/Ethernet, "monitor"):
 *   `name`, `status: link-ok`, `auto-negotiation: done`, `rate: 1Gbps`,
 *   `full-duplex`, `tx-flow-control`, `rx-flow-control`, `advertising` and
 *   `link-partner-advertising`, link modes written `10M-half,...,1000M-full`;
 * - RouterOS 7 (help.mikrotik.com, "Ethernet", example output of an Ethernet
 *   status): the same with `supported` before `advertising`, link modes
 *   written `10M-baseT-half,...,1G-baseT-full`.
 * Keys are right-aligned on the colon as settings prints are. No capture of
 * a port without link was found: such a port shows `status: no-link` and
 * what it advertises, nothing of a partner (a choice). Several ports print
 * side by side, a column each, as `monitor-traffic` does here. Which 7.x
 * release first wrote the `baseT` names is not known: every 7.x gets them.
 *
 * @module
 */
import type { CommandDef, Item } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { isTrue, sortedMap, type Val } from "../values.ts";

const MODES6 = "10M-half,10M-full,100M-half,100M-full,1000M-half,1000M-full";
const MODES7 = "10M-baseT-half,10M-baseT-full,100M-baseT-half,100M-baseT-full," +
  "1G-baseT-half,1G-baseT-full";
/** What the far end offers (a 1G full-duplex-only partner, as in the wiki's example). */
const PARTNER6 = "10M-half,10M-full,100M-half,100M-full,1000M-full";
const PARTNER7 = "10M-baseT-half,10M-baseT-full,100M-baseT-half,100M-baseT-full,1G-baseT-full";

/** One port's sample, key by key in print order. */
function sample(it: Item, st: RouterState): [string, string][] {
  const up = isTrue(it.running) && !isTrue(it.disabled);
  const modes = st.v6 ? MODES6 : MODES7;
  const out: [string, string][] = [["name", it.name], ["status", up ? "link-ok" : "no-link"]];
  if (up) {
    out.push(
      ["auto-negotiation", isTrue(it["auto-negotiation"]) ? "done" : "disabled"],
      ["rate", "1Gbps"],
      ["full-duplex", "yes"],
      ["tx-flow-control", "no"],
      ["rx-flow-control", "no"],
    );
  }
  if (!st.v6) out.push(["supported", modes]);
  out.push(["advertising", modes]);
  if (up) out.push(["link-partner-advertising", st.v6 ? PARTNER6 : PARTNER7]);
  return out;
}

/** The `monitor` command of `/interface/ethernet`, with the arguments every 7.x tree lists. */
export const ETHERNET_MONITOR: CommandDef = {
  numbers: true,
  switches: ["once", "as-value", "without-paging"],
  args: ["interval", "duration", "proplist", "freeze-frame-interval"],
  // the 7.12.2 to 7.16.2 trees lack proplist, the 7.20.8 one has it; 7.22.3 adds
  // freeze-frame-interval (real command trees, ../shared/fidelity)
  argReleases: { proplist: { from: "7.20" }, "freeze-frame-interval": { from: "7.22" } },
  run: (c) => {
    if (!c.ids.length) throw fail("missing value(s) of argument(s) numbers");
    const items = c.st.list(c.menu!).filter((i) => c.ids.includes(i[".id"]));
    const samples = items.map((it) => sample(it, c.st));
    if (c.switches.has("as-value")) {
      const recs = samples.map((s) => sortedMap(s.map(([k, v]) => [k, v] as [string, Val])));
      return recs.length === 1 ? recs[0] : recs;
    }
    const keys = [...new Set(samples.flatMap((s) => s.map(([k]) => k)))];
    const w = Math.max(...keys.map((k) => k.length));
    for (const k of keys) {
      const vs = samples.map((s) => s.find(([x]) => x === k)?.[1] ?? "");
      const text = vs.length === 1 ? vs[0] : vs.map((v) => v.padEnd(12)).join(" ").trimEnd();
      c.print(`${k.padStart(w + 2)}: ${text}`);
    }
  },
};

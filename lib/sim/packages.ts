/**
 * The RouterOS packages of the simulated hardware, per release, and the
 * menus that need one. RouterOS 6 (hAP ac²) has the classic package set,
 * `wireless` among them. RouterOS 7 (hAP ax²) has `routeros` and its radio
 * driver: `wifiwave2` up to 7.12, `wifi-qcom` from 7.13 (the 7.12.2 tree
 * has `/interface/wifiwave2` as an extra package's menu, the 7.13.5 tree
 * `/interface/wifi` in the base). From 7.13 the legacy `/caps-man` and
 * `/interface/wireless` are in the extra `wireless` package (the 7.13.5 to
 * 7.24 trees mark them extra; 7.12.2 has them in the base), which a hAP ax²
 * does not have: a router gets it only when the simulator is started with
 * `packages: ["wireless"]` (as an operator installs it to run the legacy
 * CAPsMAN for older CAPs).
 *
 * @module
 */
import type { Release } from "../routeros/release.ts";

/** The packages of the simulated hardware on a release, plus `extra`. */
export function installedPackages(r: Release, extra: readonly string[] = []): string[] {
  const base = r.major < 7
    ? [
      "routeros-arm",
      "system",
      "ipv6",
      "wireless",
      "hotspot",
      "dhcp",
      "ppp",
      "routing",
      "security",
      "advanced-tools",
    ]
    : ["routeros", r.minor <= 12 ? "wifiwave2" : "wifi-qcom"];
  return [...base, ...extra.filter((p) => !base.includes(p))];
}

/**
 * Schema of traffic-flow, RouterOS's NetFlow/IPFIX exporter (RouterOS
 * facts only; tools live in lib/tools): its settings and its collectors.
 *
 * Properties per release: the `add`/`set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24, the same on every tree); values:
 * the value lists of `tree-7.22.3.json`. RouterOS 6 has no tree: there a
 * target is one `address=IP:port` (MikroTik's v6 manual, and RouterOS 6
 * configurations published with it), where RouterOS 7 has `dst-address`
 * and `port` (and `src-address`); packet sampling is dated from 7.0.
 *
 * @module
 */
import { address, bool, duration, int, list, oneOf, text } from "../field.ts";
import { disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** `/ip/traffic-flow`. */
export const trafficFlow = menu({
  path: "/ip/traffic-flow",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Export flows to the targets"),
    interfaces: list('Interfaces whose traffic is accounted: all, or names, e.g. ["ether1"]'),
    "cache-entries": oneOf(
      [
        "1k",
        "2k",
        "4k",
        "8k",
        "16k",
        "32k",
        "64k",
        "128k",
        "256k",
        "512k",
        "1M",
        "2M",
        "4M",
        "8M",
        "16M",
        "32M",
      ],
      "Flow cache size",
    ),
    "active-flow-timeout": duration("A long flow is exported every this long, e.g. 30m"),
    "inactive-flow-timeout": duration("A flow idle this long is exported and dropped, e.g. 15s"),
    "packet-sampling": bool("Account only sampled packets", { releases: V7 }),
    "sampling-interval": int("Packets accounted in a row when sampling", {
      min: 0,
      max: 4294967295,
      releases: V7,
    }),
    "sampling-space": int("Packets skipped in a row when sampling", {
      min: 0,
      max: 4294967295,
      releases: V7,
    }),
  },
});

/** `/ip/traffic-flow/target`. */
export const trafficFlowTargets = menu({
  path: "/ip/traffic-flow/target",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    "dst-address": address("Collector's IP address, e.g. 192.0.2.10 (RouterOS 7)", {
      releases: V7,
    }),
    port: int("Collector's UDP port (default 2055; RouterOS 7)", {
      min: 1,
      max: 65535,
      releases: V7,
    }),
    address: text("Collector as IP:port, e.g. 192.0.2.10:2055 (RouterOS 6)", {
      releases: { until: "6.49" },
    }),
    "src-address": address("Source address of the exported packets (RouterOS 7)", {
      releases: V7,
    }),
    version: oneOf(["1", "5", "9", "ipfix"], "Export format: NetFlow 1, 5, 9 or IPFIX"),
    "v9-template-refresh": int("Packets between template resends (NetFlow 9, IPFIX)", {
      min: 1,
      max: 4294967295,
    }),
    "v9-template-timeout": duration("Time between template resends (NetFlow 9, IPFIX)"),
    disabled: disabled(),
  },
});

/** The menus of this family. */
export const TRAFFIC_FLOW_SCHEMAS: readonly MenuSchema[] = [trafficFlow, trafficFlowTargets];

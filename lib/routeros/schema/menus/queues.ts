/**
 * Schema of the queues menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { int, list, oneOf, state, text } from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/queue/simple`. */
export const simpleQueues = menu({
  path: "/queue/simple",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    name: text("Queue name (RouterOS picks queueN when not given)"),
    target: list('Addresses, prefixes or interfaces limited, e.g. ["192.168.88.10/32"]', {
      required: true,
    }),
    dst: text("Only traffic to this address or interface"),
    "max-limit": text("Upload/download ceiling, e.g. 10M/50M"),
    "limit-at": text("Upload/download guaranteed rate, e.g. 1M/5M"),
    "burst-limit": text("Upload/download burst ceiling"),
    "burst-threshold": text("Upload/download average rate under which bursting is allowed"),
    "burst-time": text("Upload/download averaging window for bursts, e.g. 8s/8s"),
    priority: text("Upload/download priority 1 (highest) to 8, e.g. 8/8"),
    rate: state(text("Current upload/download rate, e.g. 1.2Mbps/8.5Mbps")),
    parent: text("Parent queue, or none"),
    "packet-marks": list("Only packets with these mangle marks"),
    queue: text("Upload/download queue types, e.g. default-small/default-small"),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/queue/tree`. */
export const queueTree = menu({
  path: "/queue/tree",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid" },
  fields: {
    name: text("Entry name", { required: true }),
    parent: text("global, an interface name, or another queue tree entry", { required: true }),
    "packet-mark": list("Packet marks shaped by this entry (empty: none)"),
    "limit-at": text("Guaranteed rate, e.g. 1M"),
    "max-limit": text("Ceiling, e.g. 10M"),
    "burst-limit": text("Burst ceiling"),
    "burst-threshold": text("Average rate under which bursting is allowed"),
    "burst-time": text("Averaging window for bursts, e.g. 8s"),
    priority: int("Priority 1 (highest) to 8"),
    queue: text("Queue type, e.g. default-small"),
    disabled: disabled(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/queue/type`. */
export const queueTypes = menu({
  path: "/queue/type",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: {},
  fields: {
    name: text("Type name", { required: true }),
    kind: oneOf(
      ["bfifo", "cake", "codel", "fq-codel", "mq-pfifo", "none", "pcq", "pfifo", "red", "sfq"],
      "Discipline (cake, codel and fq-codel: RouterOS 7)",
      { required: true },
    ),
    "pfifo-limit": int("Queue length in packets (pfifo, mq-pfifo)"),
    "bfifo-limit": int("Queue length in bytes (bfifo)"),
    "pcq-rate": text("Rate per sub-stream (pcq), e.g. 2M (0: unlimited)"),
    "pcq-limit": int("Queue length per sub-stream in KiB (pcq)"),
    "pcq-classifier": list(
      "Fields that split sub-streams (pcq): src-address, dst-address, src-port, dst-port",
    ),
  },
});

/** The menus of this family. */
export const QUEUES_SCHEMAS: readonly MenuSchema[] = [
  simpleQueues,
  queueTree,
  queueTypes,
];

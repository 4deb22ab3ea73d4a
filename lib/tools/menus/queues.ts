/**
 * Queue menus: simple queues, queue trees and queue types.
 *
 * @module
 */
import { list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_XID, invalid } from "./common.ts";

const RATES = "Rates are bits per second with k/M/G suffixes; upload/download pairs are " +
  "written upload/download (10M/50M).";

/** `/queue/simple`: per-target bandwidth limits. */
export const simpleQueues: Menu = {
  path: "/queue/simple",
  toolset: "queues",
  singular: "simple_queue",
  plural: "simple_queues",
  noun: "simple queues",
  notes: "Queues are matched top to bottom and the first queue whose target matches takes " +
    "the traffic: use router_move_simple_queue to order them. Fasttracked traffic bypasses " +
    "queues. " + RATES,
  key: "name",
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
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable", "move"],
  columns: ["name", "target", "max-limit", "limit-at", "parent", "disabled", "comment"],
  flags: FLAGS_XID,
  example: {
    add: {
      name: "queue-example",
      target: ["10.99.6.0/24"],
      max_limit: "10M/20M",
      comment: "example",
    },
    update: { max_limit: "5M/5M" },
  },
};

/** `/queue/tree`: hierarchical queues on marked packets. */
export const queueTree: Menu = {
  path: "/queue/tree",
  toolset: "queues",
  singular: "queue_tree_entry",
  plural: "queue_tree_entries",
  noun: "queue tree entries",
  notes: "Each entry shapes packets with the given mangle packet marks, under a parent that " +
    "is global, an interface, or another entry. " + RATES,
  key: "name",
  fields: {
    name: text("Entry name", { required: true }),
    parent: text("global, an interface name, or another queue tree entry", { required: true }),
    "packet-mark": list("Packet marks shaped by this entry (empty: none)"),
    "limit-at": text("Guaranteed rate, e.g. 1M"),
    "max-limit": text("Ceiling, e.g. 10M"),
    "burst-limit": text("Burst ceiling"),
    "burst-threshold": text("Average rate under which bursting is allowed"),
    "burst-time": text("Averaging window for bursts, e.g. 8s"),
    priority: num("Priority 1 (highest) to 8"),
    queue: text("Queue type, e.g. default-small"),
    disabled: disabled(),
    invalid: invalid(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "parent", "packet-mark", "max-limit", "priority", "disabled", "comment"],
  flags: { X: "disabled", I: "invalid" },
  example: {
    add: { name: "tree-example", parent: "global", max_limit: "10M", comment: "example" },
    update: { max_limit: "20M", priority: 4 },
  },
};

/** `/queue/type`: queueing disciplines queues refer to. */
export const queueTypes: Menu = {
  path: "/queue/type",
  toolset: "queues",
  singular: "queue_type",
  plural: "queue_types",
  noun: "queue types",
  notes: "kind selects the discipline; only the options of that kind apply (pfifo_limit for " +
    "pfifo, bfifo_limit for bfifo, pcq_* for pcq). Built-in types cannot be removed.",
  key: "name",
  fields: {
    name: text("Type name", { required: true }),
    kind: oneOf(
      ["bfifo", "cake", "fq-codel", "mq-pfifo", "none", "pcq", "pfifo", "red", "sfq"],
      "Discipline (cake and fq-codel: RouterOS 7)",
      { required: true },
    ),
    "pfifo-limit": num("Queue length in packets (pfifo, mq-pfifo)"),
    "bfifo-limit": num("Queue length in bytes (bfifo)"),
    "pcq-rate": text("Rate per sub-stream (pcq), e.g. 2M (0: unlimited)"),
    "pcq-limit": num("Queue length per sub-stream in KiB (pcq)"),
    "pcq-classifier": list(
      "Fields that split sub-streams (pcq): src-address, dst-address, src-port, dst-port",
    ),
  },
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "kind", "pfifo-limit", "pcq-rate", "pcq-classifier"],
  flags: {},
  example: {
    add: { name: "type-example", kind: "pfifo", pfifo_limit: 100 },
    update: { pfifo_limit: 200 },
  },
};

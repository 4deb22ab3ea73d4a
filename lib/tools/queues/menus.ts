/**
 * Tools of the queues menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/queues.ts.
 *
 * @module
 */
import { queueTree, queueTypes, simpleQueues } from "../../routeros/schema/menus/queues.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/queue/simple`. */
const simpleQueuesTools: MenuTools = {
  schema: simpleQueues,
  toolset: "queues",
  noun: noun("simple_queue", "simple queue"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable", "move"],
  columns: ["name", "target", "max-limit", "limit-at", "parent", "disabled", "comment"],
  notes:
    "Queues are matched top to bottom and the first queue whose target matches takes the traffic: use router_move_simple_queue to order them. Fasttracked traffic bypasses queues. Rates are bits per second with k/M/G suffixes; upload/download pairs are written upload/download (10M/50M).",
  example: {
    "add": {
      "name": "queue-example",
      "target": ["10.99.6.0/24"],
      "max_limit": "10M/20M",
      "comment": "example",
    },
    "update": { "max_limit": "5M/5M" },
  },
};

/** `/queue/tree`. */
const queueTreeTools: MenuTools = {
  schema: queueTree,
  toolset: "queues",
  noun: noun("queue_tree_entry", "queue tree entry"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "parent", "packet-mark", "max-limit", "priority", "disabled", "comment"],
  notes:
    "Each entry shapes packets with the given mangle packet marks, under a parent that is global, an interface, or another entry. Rates are bits per second with k/M/G suffixes; upload/download pairs are written upload/download (10M/50M).",
  example: {
    "add": { "name": "tree-example", "parent": "global", "max_limit": "10M", "comment": "example" },
    "update": { "max_limit": "20M", "priority": 4 },
  },
};

/** `/queue/type`. */
const queueTypesTools: MenuTools = {
  schema: queueTypes,
  toolset: "queues",
  noun: noun("queue_type", "queue type"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "kind", "pfifo-limit", "pcq-rate", "pcq-classifier"],
  notes:
    "kind selects the discipline; only the options of that kind apply (pfifo_limit for pfifo, bfifo_limit for bfifo, pcq_* for pcq). Built-in types cannot be removed.",
  example: {
    "add": { "name": "type-example", "kind": "pfifo", "pfifo_limit": 100 },
    "update": { "pfifo_limit": 200 },
  },
};

/** The menus of this family, in catalogue order. */
export const QUEUES_MENU_TOOLS: readonly MenuTools[] = [
  simpleQueuesTools,
  queueTreeTools,
  queueTypesTools,
];

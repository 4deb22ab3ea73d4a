/**
 * Schema of RoMON, MikroTik's layer-2 management overlay (RouterOS facts
 * only; tools live in lib/tools): its settings and the ports it runs on.
 *
 * Properties: the `add`/`set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24, the same on every tree) and the
 * print property list of `tree-7.22.3.json`. RouterOS 6 (RoMON since 6.28)
 * has the same properties in MikroTik's v6 manual.
 *
 * `secrets` is a comma-separated list RouterOS keeps as one value: declared
 * as text here, so that it is masked whole. The RoMON `id` (a MAC address,
 * by default an interface's) is only read: the tools' `id` argument names
 * an item.
 *
 * @module
 */
import { bool, int, mac, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/tool/romon`. */
export const romon = menu({
  path: "/tool/romon",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Run RoMON: other routers reach this one by MAC across layer-2 hops"),
    // Read-only here: `id` is the argument that names an item in every tool.
    id: state(mac("RoMON id (00:00:00:00:00:00: the MAC address of an interface)")),
    secrets: text(
      "Shared secrets, comma-separated: peers must know one (write-only: masked in all output)",
      { secret: true },
    ),
  },
});

/** `/tool/romon/port`. */
export const romonPorts = menu({
  path: "/tool/romon/port",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "*": "default", "X": "disabled", "D": "dynamic" },
  fields: {
    interface: text("Interface name, or all (the default entry)", { required: true }),
    forbid: bool("Do not run RoMON on this interface"),
    cost: int("Path cost, 1-65535 (default 100)", { min: 1, max: 65535 }),
    secrets: text("Secrets of this port, comma-separated (write-only: masked in all output)", {
      secret: true,
    }),
    default: state(bool("The built-in entry for all interfaces (it cannot be removed)")),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const ROMON_SCHEMAS: readonly MenuSchema[] = [romon, romonPorts];

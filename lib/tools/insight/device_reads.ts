/**
 * Reads of the fleet-wide insight tools: each is a nested `router_print`
 * call on one device, so every read runs through the same guard chain as
 * a direct call (selection, device, arguments, secret masking). Rows come
 * back as text with RouterOS property names (`ruleFromRaw`), the form the
 * pure modules of `lib/routeros` take. A menu the router's release or
 * packages lack reads as undefined.
 *
 * @module
 */
import { UnsupportedError } from "../../routeros/errors.ts";
import type { Row } from "../../routeros/route_lookup.ts";
import { ruleFromRaw } from "../../routeros/rule_match.ts";
import type { ToolContext } from "../tool.ts";

/** The nested read tool. */
export const PRINT_TOOL = "router_print";

/** One device's reads. */
export class DeviceReads {
  readonly #ctx: ToolContext;
  readonly device: string;
  /** Menus whose answer was cut at router_print's limit. */
  readonly truncated: string[] = [];

  constructor(ctx: ToolContext, device: string) {
    this.#ctx = ctx;
    this.device = device;
  }

  /** A menu's rows (with `where` equality filters); undefined when the router lacks the menu. */
  async print(path: string, where?: Record<string, string>): Promise<Row[] | undefined> {
    try {
      const r = await this.#ctx.call({
        name: PRINT_TOOL,
        args: { path, ...(where ? { where } : {}) },
        device: this.device,
      });
      if (r.structured.truncated === true) this.truncated.push(path);
      return (r.structured.items as Record<string, unknown>[]).map(ruleFromRaw) as Row[];
    } catch (err) {
      if (err instanceof UnsupportedError) return undefined;
      throw err;
    }
  }

  /** Several menus at once: path -> rows (undefined where the router lacks the menu). */
  async menus(paths: readonly string[]): Promise<Map<string, Row[] | undefined>> {
    const rows = await Promise.all(paths.map((p) => this.print(p)));
    return new Map(paths.map((p, i) => [p, rows[i]]));
  }

  /** The entries of the named address lists (enabled ones), by list. */
  async addressLists(
    names: Iterable<string>,
    menu = "/ip/firewall/address-list",
  ): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    await Promise.all([...new Set(names)].map(async (list) => {
      const rows = await this.print(menu, { list });
      out.set(
        list,
        (rows ?? []).filter((r) => r.disabled !== "true" && r.disabled !== "yes" && r.address)
          .map((r) => r.address!),
      );
    }));
    return out;
  }
}

/** The address lists firewall rules name (`src-address-list`, `dst-address-list`, `!` dropped). */
export function listsNamed(rules: readonly Row[], chains?: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    if (chains && !chains.includes(r.chain ?? "")) continue;
    for (const k of ["src-address-list", "dst-address-list"]) {
      const v = r[k];
      if (v) out.add(v.replace(/^!/, ""));
    }
  }
  return out;
}

/** Run `work` on each item with at most `limit` at once, reporting progress after each. */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  done?: (n: number, item: T) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      out[i] = await work(items[i]);
      finished++;
      await done?.(finished, items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

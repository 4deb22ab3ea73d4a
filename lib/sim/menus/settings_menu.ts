/**
 * A settings menu (print, get, set) built from its properties and the
 * values a fresh router has: the one record holds only the properties the
 * router's release has.
 *
 * @module
 */
import type { MenuDef, PropDef } from "../menu_types.ts";
import { onRelease } from "../releases.ts";
import type { RouterState } from "../state.ts";

/** A settings menu whose one record holds the defaults its release has. */
export function settingsMenu(
  path: string,
  props: PropDef[],
  values: Record<string, string>,
  releases?: MenuDef["releases"],
): MenuDef {
  return {
    path,
    kind: "single",
    ...(releases ? { releases } : {}),
    props,
    defaults: (st: RouterState) => [
      Object.fromEntries(
        Object.entries(values).filter(([k]) =>
          props.some((p) => p.name === k && onRelease(st.release, p.releases))
        ),
      ),
    ],
  };
}

/**
 * Simulated routers that reach each other by address: a command on one
 * (a bandwidth test) finds the router that holds the address it names
 * among the members, by their `/ip/address` items. Routers outside any
 * network reach only themselves.
 *
 * @module
 */
import type { RouterState } from "./state.ts";

/** A member: what the network reads of a router. */
export interface NetworkMember {
  state(): RouterState;
}

/** Routers that reach each other by address. */
export class SimNetwork {
  readonly #members = new Set<NetworkMember>();

  /** Adds a router. */
  join(member: NetworkMember): void {
    this.#members.add(member);
  }

  /** Removes a router (it closed). */
  leave(member: NetworkMember): void {
    this.#members.delete(member);
  }

  /** The member other than `self` that holds `ip` on one of its interfaces. */
  routerAt(ip: string, self: NetworkMember): NetworkMember | undefined {
    for (const m of this.#members) {
      if (m === self) continue;
      const st = m.state();
      const addresses = st.list(st.menus.byPath("/ip/address", st.release)!);
      if (addresses.some((a) => a.address.split("/")[0] === ip && a.disabled !== "true")) return m;
    }
    return undefined;
  }
}

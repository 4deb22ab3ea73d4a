/**
 * Hostile re-test (issue 31, hole 1 by another door): without keys or
 * OAuth, "this machine only" is judged by the connection's address, a
 * loopback `Host` and the absence of forwarding headers. The check knew
 * only `Forwarded`, `X-Forwarded-For`, `X-Forwarded-Host` and `X-Real-IP`,
 * so a local proxy that says it forwards in another standard way (`Via`,
 * `X-Forwarded-Proto` alone, `True-Client-IP`, ...) passed its peers on as
 * this machine. Now any header a proxy adds refuses the request.
 *
 * What no server can see: a byte relay on this machine (`ssh -L`, `socat`,
 * `kubectl port-forward`, nginx `stream`, HAProxy `mode tcp`) or an HTTP
 * proxy that adds no such header (nginx's defaults: `Host: $proxy_host`,
 * no `X-Forwarded-For`) makes its peers look local. docs/security.md says
 * so and gives the remedy, credentials; the last step holds that remedy:
 * with a key configured, a stranger behind the relay gets 401, and the
 * key's holder gets through.
 *
 * A byte relay on this machine's network address forwards to the server on
 * 127.0.0.1 (what `socat TCP-LISTEN:8080,fork TCP:127.0.0.1:8000` does);
 * a peer connects to the relay with the Host nginx would send. Failed
 * before the fix for `Via` and `X-Forwarded-Proto`. (Skipped without a
 * non-loopback address.)
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { INITIALIZE, MCP_POST } from "./http_helpers.ts";
import { KEYS, machineAddress, rawTo, startAuthServer } from "./http_auth_helpers.ts";

/** A plain TCP relay from `hostname:0` to `127.0.0.1:to`, as socat or ssh -L run it. */
function relay(hostname: string, to: number) {
  const listener = Deno.listen({ hostname, port: 0 });
  const conns = new Set<Deno.Conn>();
  const pipe = async (a: Deno.Conn, b: Deno.Conn) => {
    try {
      await a.readable.pipeTo(b.writable);
    } catch {
      // closed
    }
  };
  const running = (async () => {
    try {
      for await (const client of listener) {
        const upstream = await Deno.connect({ hostname: "127.0.0.1", port: to });
        conns.add(client).add(upstream);
        void Promise.all([pipe(client, upstream), pipe(upstream, client)]).finally(() => {
          conns.delete(client);
          conns.delete(upstream);
        });
      }
    } catch {
      // listener closed
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: async () => {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
      await running;
    },
  };
}

/** What proxies add to say they forward (each alone, as the proxy would send it). */
const PROXY_HEADERS: [string, string][] = [
  ["Via", "1.1 nginx"],
  ["X-Forwarded-Proto", "https"],
  ["X-Forwarded-Port", "443"],
  ["Forwarded", "for=203.0.113.9;proto=https"],
  ["X-Real-IP", "203.0.113.9"],
  ["True-Client-IP", "203.0.113.9"],
  ["CF-Connecting-IP", "203.0.113.9"],
];

Deno.test("hostile: a stranger behind a local forwarder is not this machine", async (t) => {
  const address = machineAddress();
  if (!address) {
    console.log("skipped: this machine has no non-loopback address");
    return;
  }
  const sim = await startSimulator();
  try {
    const srv = await startAuthServer(sim, { hostname: "127.0.0.1", noKeys: true });
    const forwarder = relay(address, srv.http.addr.port);
    // What nginx sends upstream by default: Host $proxy_host.
    const host: [string, string] = ["Host", `127.0.0.1:${srv.http.addr.port}`];
    try {
      await t.step("without credentials, any header a proxy adds refuses the request", async () => {
        for (const header of PROXY_HEADERS) {
          const r = await rawTo(address, forwarder.port, "POST", "/mcp", [
            host,
            header,
            ...MCP_POST,
          ], INITIALIZE);
          assert.equal(r.status, 403, `${header[0]}: ${r.text.split("\r\n")[0]}`);
          assert.match(r.text, /no header a proxy adds/);
        }
      });
    } finally {
      await forwarder.close();
      await srv.close();
    }

    await t.step("with a key, a stranger behind the relay needs it like anyone", async () => {
      const keyed = await startAuthServer(sim, { hostname: "127.0.0.1" });
      const relayed = relay(address, keyed.http.addr.port);
      try {
        const host: [string, string] = ["Host", `127.0.0.1:${keyed.http.addr.port}`];
        const stranger = await rawTo(address, relayed.port, "POST", "/mcp", [
          host,
          ...MCP_POST,
        ], INITIALIZE);
        assert.equal(stranger.status, 401, stranger.text.split("\r\n")[0]);
        const holder = await rawTo(address, relayed.port, "POST", "/mcp", [
          host,
          ["Authorization", `Bearer ${KEYS.reader}`],
          ...MCP_POST,
        ], INITIALIZE);
        assert.equal(holder.status, 200, holder.text.split("\r\n")[0]);
      } finally {
        await relayed.close();
        await keyed.close();
      }
    });
  } finally {
    await sim.close();
  }
});

/**
 * The session registry's fair shares (`lib/server/http/sessions.ts`): a
 * principal past its share gives up its own least recently used idle
 * session; a full server takes an idle place from whoever holds the most,
 * if that is more than the newcomer holds; busy sessions are never closed.
 * The end-to-end case (a read key that fills `--mcp.max-sessions` does not
 * lock an admin key out) is `tests/hostile_sessions_exhausted_by_read_key.test.ts`.
 */
import assert from "node:assert/strict";
import type { Server } from "../../lib/mcp_sdk/server.ts";
import type { Transport } from "../../lib/mcp_sdk/types.ts";
import { defaultShare, noRoomMessage, Sessions } from "../../lib/server/http/sessions.ts";
import { setLogLevel } from "../../lib/log.ts";

setLogLevel("error");

/** A registry and a way to open sessions in it the way the transports do. */
function registry(max: number, perPrincipal?: number) {
  const sessions = new Sessions(3_600_000, max, 3_600_000, perPrincipal);
  const closed: string[] = [];
  let n = 0;
  let clock = 0;
  const open = (owner: string, busy = false) => {
    const room = sessions.makeRoom(owner);
    if (room) return room;
    const id = `${owner}-${++n}`;
    const server = { close: () => (closed.push(id), Promise.resolve()) } as unknown as Server;
    const s = sessions.add(id, server, {} as Transport, owner);
    s.lastSeen = ++clock;
    if (busy) s.open = 1;
    return id;
  };
  return { sessions, closed, open };
}

Deno.test("sessions: the default share is three quarters of the places, at least one", () => {
  assert.deepEqual([1, 2, 4, 256].map(defaultShare), [1, 2, 3, 192]);
});

Deno.test("sessions: past its share a principal gives up its own oldest idle session", () => {
  const { sessions, closed, open } = registry(4, 2);
  assert.equal(open("key:reader"), "key:reader-1");
  assert.equal(open("key:reader"), "key:reader-2");
  assert.equal(open("key:reader"), "key:reader-3");
  assert.deepEqual(closed, ["key:reader-1"]);
  assert.equal(sessions.get("key:reader-1"), undefined);
  assert.equal(sessions.size, 2);
});

Deno.test("sessions: past its share with every session busy, a principal is refused", () => {
  const { closed, open } = registry(4, 2);
  open("key:reader", true);
  open("key:reader", true);
  const room = open("key:reader");
  assert.deepEqual(room, { limit: "principal", held: 2 });
  assert.deepEqual(closed, []);
  assert.match(noRoomMessage(room as never, "end one"), /holds 2, its share/);
  assert.equal(typeof open("key:admin"), "string", "another principal still gets a place");
});

Deno.test("sessions: a full server takes an idle place from whoever holds the most", () => {
  const { closed, open } = registry(4, 4);
  for (let i = 0; i < 3; i++) open("key:reader");
  open("key:grafana");
  assert.equal(typeof open("key:admin"), "string");
  assert.deepEqual(closed, ["key:reader-1"], "the biggest holder's oldest idle session");
  // Now reader 2, grafana 1, admin 1: a second admin session takes from reader again.
  assert.equal(typeof open("key:admin"), "string");
  assert.deepEqual(closed, ["key:reader-1", "key:reader-2"]);
  // Everyone holds about the same: a third admin session is refused, nothing is closed.
  assert.deepEqual(open("key:admin"), { limit: "server", held: 2 });
  assert.equal(closed.length, 2);
});

Deno.test("sessions: busy sessions are never taken; one principal alone is refused when full", () => {
  const { closed, open } = registry(2, 2);
  open("anonymous:127.0.0.1", true);
  open("anonymous:127.0.0.1", true);
  assert.deepEqual(open("key:admin"), { limit: "server", held: 0 });
  assert.deepEqual(closed, []);
  // Idle ones: the principal's own oldest gives way (its client starts a new session at need).
  const single = registry(2, 2);
  single.open("anonymous:127.0.0.1");
  single.open("anonymous:127.0.0.1");
  assert.equal(single.open("anonymous:127.0.0.1"), "anonymous:127.0.0.1-3");
  assert.deepEqual(single.closed, ["anonymous:127.0.0.1-1"]);
});

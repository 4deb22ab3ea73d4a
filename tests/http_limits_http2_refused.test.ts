/**
 * Hostile re-test 2 (issue 31): the per-peer limits of the front door
 * (`--mcp.max-connections-per-peer` TCP connections, lib/http/front_door.ts,
 * one request each) and the body budget that small bodies (up to 64 KiB)
 * never wait for were sidestepped with HTTP/2: `Deno.serve` behind the front
 * door also speaks HTTP/2 with prior knowledge (h2c), which the byte relay
 * passed through, so one connection carried up to 200 concurrent requests,
 * each of which could declare a 64 KiB body, get its buffer allocated at
 * once and hold it for the whole body timeout (30 s). Against `main.ts
 * --simulate` with a read key, 10 connections of 190 stalled streams took
 * the process from 106 MB to 425 MB resident (388 MB after they closed).
 *
 * The front door now answers the HTTP/2 preface with `GOAWAY
 * HTTP_1_1_REQUIRED` and closes the connection (MCP over HTTP is HTTP/1.1).
 *
 * In process with `--mcp.max-connections-per-peer 8` (no credentials: a
 * loopback client): one h2c connection opens 150 requests that each declare
 * a 64 KiB body and send one byte. Failed before the fix: all 150 were held
 * open by the server (none answered or refused), past the peer's 8.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { startSimulator } from "../lib/sim/mod.ts";
import { DEFAULT_LIMITS } from "../lib/http/front_door.ts";
import { rawRequest, startInProcess } from "./http_helpers.ts";

const STREAMS = 150;
const PER_PEER = 8;
/** RFC 9113 §7. */
const HTTP_1_1_REQUIRED = 0xd;

Deno.test("hostile2: one HTTP/2 connection cannot hold more requests than the per-peer limit", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startInProcess(sim, {
    limits: { ...DEFAULT_LIMITS, maxPerPeer: PER_PEER },
    bodyTimeoutMs: 10_000,
  });
  const client = http2.connect(`http://127.0.0.1:${srv.http.addr.port}`);
  client.on("error", () => {});
  const goaway = new Promise<number>((ok) => client.on("goaway", (code: number) => ok(code)));
  const ended: boolean[] = Array(STREAMS).fill(false);
  try {
    for (let i = 0; i < STREAMS; i++) {
      let req: http2.ClientHttp2Stream;
      try {
        req = client.request({
          ":method": "POST",
          ":path": "/mcp",
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": "65536",
        }, { endStream: false });
      } catch {
        ended[i] = true; // the session is gone already
        continue;
      }
      req.on("response", () => (ended[i] = true));
      req.on("error", () => (ended[i] = true));
      req.on("close", () => (ended[i] = true));
      req.write("{");
    }
    await new Promise((ok) => setTimeout(ok, 2_000));
    const held = ended.filter((e) => !e).length;
    assert.ok(
      held <= PER_PEER,
      `one HTTP/2 connection holds ${held} requests with their bodies pending ` +
        `(--mcp.max-connections-per-peer ${PER_PEER})`,
    );
    assert.equal(await goaway, HTTP_1_1_REQUIRED, "the refusal says HTTP/1.1 is required");
    const h1 = await rawRequest(srv.http.addr.port, "GET", "/health", [["Host", "localhost"]]);
    assert.equal(h1.status, 200, "HTTP/1.1 is served as before");
  } finally {
    client.destroy();
    await srv.close();
    await sim.close();
  }
});

Deno.test("the HTTP/2 preface is refused when it arrives in pieces", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startInProcess(sim);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: srv.http.addr.port });
  try {
    const enc = new TextEncoder();
    await conn.write(enc.encode("PRI * HTTP/2.0\r\n"));
    await new Promise((ok) => setTimeout(ok, 100));
    await conn.write(enc.encode("\r\nSM\r\n\r\n"));
    const got: number[] = [];
    const buf = new Uint8Array(256);
    for (;;) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      got.push(...buf.subarray(0, n));
    }
    // SETTINGS (empty), then GOAWAY: type 7, last stream 0, error code 0xd.
    assert.equal(got.length, 9 + 17, `the answer: ${got}`);
    assert.equal(got[3], 0x4);
    assert.equal(got[9 + 3], 0x7);
    assert.equal(got[got.length - 1], HTTP_1_1_REQUIRED);
  } finally {
    conn.close();
    await srv.close();
    await sim.close();
  }
});

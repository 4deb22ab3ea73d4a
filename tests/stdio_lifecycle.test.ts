/**
 * The stdio server's lifecycle: it ends when its client closes stdin, and
 * logs only to stderr.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { childEnv } from "./helpers/env.ts";
import { DENO, MAIN, OPENING_MESSAGES } from "./helpers/mcp.ts";

/** The server as a child on piped stdio, in front of `sim`. */
function spawnStdio(sim: { host: string; port: number }, home: string): Deno.ChildProcess {
  return new Deno.Command(DENO, {
    args: ["run", "--allow-all", MAIN, "--host", sim.host, "--port", String(sim.port)],
    env: childEnv({}, home),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Read the server's stdout on: until `marker` shows in what was read, or to
 * its end when there is none. Returns `text` with what was read added.
 */
async function readOn(
  out: ReadableStreamDefaultReader<string>,
  text: string,
  marker?: string,
): Promise<string> {
  while (marker === undefined || !text.includes(marker)) {
    const { value, done } = await out.read();
    if (done) break;
    text += value;
  }
  return text;
}

Deno.test("stdio: the server exits 0 when the client closes stdin; stdout holds only JSON-RPC", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir();
  const child = spawnStdio(sim, home);
  const requests = [
    ...OPENING_MESSAGES,
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "router_list_ip_addresses", arguments: {} },
    },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(requests.map((r) => JSON.stringify(r) + "\n").join("")),
  );
  // Give the call time to answer before closing; then EOF must end the process.
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = await readOn(out, "", '"id":2');
  await writer.close();
  text = await readOn(out, text);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    child.status,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error("the server did not exit after stdin closed"));
      }, 60_000);
    }),
  ]).finally(() => clearTimeout(timer));
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  assert.equal(status.code, 0);
  const lines = text.trim().split("\n");
  for (const line of lines) {
    assert.equal(JSON.parse(line).jsonrpc, "2.0", "stdout is JSON-RPC only");
  }
  assert.match(lines.at(-1)!, /192\.168\.88\.1\/24/);
  assert.match(stderr, /serving 1 device\(s\) over stdio/);
  await sim.close();
  await Deno.remove(home, { recursive: true });
});

Deno.test("stdio: a non-JSON line, a non-JSON-RPC line and a line over 10 MiB are answered, and serving goes on", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir();
  const child = spawnStdio(sim, home);
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  const send = (text: string) => writer.write(enc.encode(text + "\n"));
  await send(JSON.stringify(OPENING_MESSAGES[0]));
  await send("this is not json");
  await send(JSON.stringify({ hello: "world" }));
  // 11 MiB in pieces, as a pipe delivers it.
  await writer.write(enc.encode('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"'));
  const chunk = enc.encode("a".repeat(1024 * 1024));
  for (let i = 0; i < 11; i++) await writer.write(chunk);
  await send('"}}');
  // A line in two writes, ended by CRLF.
  await writer.write(enc.encode('{"jsonrpc":"2.0","id":3,'));
  await new Promise((r) => setTimeout(r, 50));
  await writer.write(enc.encode('"method":"ping"}\r\n'));
  // Wait for the ping's answer before closing stdin.
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const text = await readOn(out, "", '"id":3');
  await writer.close();
  await readOn(out, "");
  const status = await child.status;
  const stderr = new TextDecoder().decode(
    (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
  );
  await sim.close();
  await Deno.remove(home, { recursive: true });
  const answers = text.trim().split("\n").map((l) => JSON.parse(l));
  const errors = answers.filter((a) => a.error).map((a) => [a.id, a.error.code]);
  assert.deepEqual(errors, [[null, -32700], [null, -32600], [null, -32600]]);
  assert.ok(answers.some((a) => a.id === 1 && a.result), "initialize answered");
  assert.ok(answers.some((a) => a.id === 3 && a.result), "the server still serves after them");
  assert.ok(!answers.some((a) => a.id === 2), "the over-long request was not run");
  assert.match(stderr, /dropped a line longer than 10485760 bytes/);
  assert.match(stderr, /not JSON; answered -32700/);
  assert.equal(status.code, 0);
});

Deno.test("stdio: a request the client cancelled is not waited for once stdin closes", async () => {
  // The read never gets its answer from this router; the version probe does.
  const sim = await startSimulator({ faults: { hang: /ip address print/ } });
  const home = await Deno.makeTempDir();
  const child = spawnStdio(sim, home);
  const lines = [
    ...OPENING_MESSAGES,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "router_list_ip_addresses" } },
    { jsonrpc: "2.0", id: 3, method: "ping" },
  ];
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  await writer.write(enc.encode(lines.map((l) => JSON.stringify(l) + "\n").join("")));
  // Once the ping is answered the call is under way; cancel it and close stdin.
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = await readOn(out, "", '"id":3');
  await new Promise((r) => setTimeout(r, 200));
  const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } };
  await writer.write(enc.encode(JSON.stringify(cancel) + "\n"));
  await writer.close();
  const started = performance.now();
  // Without a bound a server that waits for the call would hang the suite.
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  text = await readOn(out, text);
  const status = await child.status;
  clearTimeout(timer);
  await child.stderr.cancel();
  await sim.close();
  await Deno.remove(home, { recursive: true });
  assert.equal(status.code, 0);
  // The command timeout is 30 s: the server did not wait for the hung read.
  assert.ok(performance.now() - started < 10_000, "the server waited for the cancelled call");
  const ids = text.trim().split("\n").map((l) => JSON.parse(l).id);
  assert.deepEqual(ids, [1, 3], "the cancelled call gets no answer");
});

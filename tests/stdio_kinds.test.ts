/**
 * What MCP clients hand the stdio server as stdin and stdout, each served
 * alike: a pipe (Deno, Python's asyncio), a socket pair per stream (Node's
 * `child_process`), one socket as both (inetd, socat) and a file. The
 * server reads pipes and sockets through the event loop's poller, which
 * makes fd 0 non-blocking: with one socket as both, that would make the
 * answers' writes fail under a slow reader, so that case is read as a file
 * is. The pipe case is `stdio_lifecycle.test.ts`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { childEnv, needs } from "./helpers/env.ts";
import { DENO, MAIN, OPENING_MESSAGES } from "./helpers/mcp.ts";

const REQUESTS = [
  ...OPENING_MESSAGES,
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "router_list_ip_addresses" } },
  // About 200 KiB each: more than a socket buffer holds while the client waits.
  { jsonrpc: "2.0", id: 3, method: "tools/list" },
  { jsonrpc: "2.0", id: 4, method: "tools/list" },
];

/**
 * Python runs the server on socket pairs: `shared` gives it one socket as
 * stdin and stdout, `separate` one pair for each (as Node does). It sends
 * every request, waits a second before reading (so a non-blocking stdout
 * would meet a full buffer), prints what came back and closes stdin.
 */
const SOCKET_CLIENT = `
import json, socket, subprocess, sys, time
mode, requests, cmd = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
a, b = socket.socketpair()
if mode == "shared":
    p = subprocess.Popen(cmd, stdin=b, stdout=b, stderr=subprocess.DEVNULL)
    send, recv = a, a
else:
    c, d = socket.socketpair()
    p = subprocess.Popen(cmd, stdin=b, stdout=d, stderr=subprocess.DEVNULL)
    d.close()
    send, recv = a, c
b.close()
for r in requests:
    send.sendall((json.dumps(r) + "\\n").encode())
send.shutdown(socket.SHUT_WR)
time.sleep(1)
recv.settimeout(60)
data = b""
while data.count(b"\\n") < 4:
    chunk = recv.recv(1 << 20)
    if not chunk:
        break
    data += chunk
sys.stdout.write(data.decode())
sys.exit(p.wait(timeout=60))
`;

/** The ids answered, in order, and the tool call's text. */
function answers(stdout: string): { ids: number[]; listed: string } {
  const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
  for (const l of lines) assert.equal(l.jsonrpc, "2.0", "stdout is JSON-RPC only");
  const call = lines.find((l) => l.id === 2);
  return { ids: lines.map((l) => l.id), listed: call?.result?.content?.[0]?.text ?? "" };
}

function serverArgs(sim: { host: string; port: number }): string[] {
  return ["run", "--allow-all", MAIN, "--host", sim.host, "--port", String(sim.port)];
}

async function run(
  cmd: string,
  args: string[],
  home: string,
): Promise<{ code: number; stdout: string }> {
  const out = await new Deno.Command(cmd, {
    args,
    env: childEnv({}, home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

/**
 * Run the server through `client` (a command and its arguments, given the
 * server's own command line and a scratch directory) in front of a
 * simulator; check that it exits 0 and answers every request.
 */
async function servedAll(client: (server: string[], dir: string) => [string, string[]]) {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir();
  try {
    const [cmd, args] = client([DENO, ...serverArgs(sim)], home);
    const { code, stdout } = await run(cmd, args, home);
    assert.equal(code, 0, "the server exits 0 when stdin ends");
    const { ids, listed } = answers(stdout);
    assert.deepEqual(ids.sort(), [1, 2, 3, 4]);
    assert.match(listed, /192\.168\.88\.1\/24/);
  } finally {
    await sim.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("stdio: stdin from a file is served, and the server exits 0 at its end", async () => {
  await servedAll((server, dir) => {
    const file = `${dir}/requests.jsonl`;
    Deno.writeTextFileSync(file, REQUESTS.map((r) => JSON.stringify(r) + "\n").join(""));
    const quoted = server.map((a) => `'${a}'`).join(" ");
    return ["sh", ["-c", `exec ${quoted} < '${file}'`]];
  });
});

for (const mode of ["separate", "shared"]) {
  Deno.test({
    name: `stdio: requests on a socket pair ${
      mode === "shared" ? "as both stdin and stdout" : "for each of stdin and stdout"
    }, stdin closed at once and read after a pause, are all answered`,
    ignore: !needs(`the stdio socket test (${mode})`, ["python3"], "apt-get install python3"),
    fn: () =>
      servedAll((server) => [
        "python3",
        ["-c", SOCKET_CLIENT, mode, JSON.stringify(REQUESTS), ...server],
      ]),
  });
}

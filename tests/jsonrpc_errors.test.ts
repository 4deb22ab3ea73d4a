/**
 * JSON-RPC errors as the specification has them, on every transport
 * (stdio, streamable HTTP, SSE): a parameter of the wrong type is `-32602`
 * in one line, not `-32603` with a validation dump; a request whose params
 * are not an object is answered with its own id (a client waits for that
 * id); a megabyte of device name, tool name or resource URI comes back only
 * as a short excerpt with its size; and `device: ["MikroTik-1"]` says device
 * must be a string. Against the simulator, through the real transports.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { childEnv } from "./helpers/env.ts";
import { DENO, MAIN, OPENING_MESSAGES } from "./helpers/mcp.ts";
import { MCP_POST, startInProcess } from "./http_helpers.ts";

type Answer = {
  id: unknown;
  result?: { isError?: boolean; content: { text: string }[] };
  error?: { code: number; message: string };
};

/** Sends one request, resolves with its answer (and the raw line's size). */
type Send = (message: Record<string, unknown>) => Promise<{ answer: Answer; bytes: number }>;

const MB = 1024 * 1024;
const LIST = "router_list_ip_addresses";

let nextId = 100;
const request = (method: string, params: unknown) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  params,
});
const call = (args: unknown, name: unknown = LIST) =>
  request("tools/call", { name, arguments: args });

/** The same probes on any transport; `device` is a title the server knows. */
async function probe(send: Send, device: string): Promise<void> {
  for (
    const [what, message] of [
      ["params.name: 5", request("tools/call", { name: 5 })],
      ["arguments: [1]", call([1])],
      ["resources/read uri: 5", request("resources/read", { uri: 5 })],
      ["logging/setLevel level: 5", request("logging/setLevel", { level: 5 })],
    ] as const
  ) {
    const { answer } = await send(message);
    assert.equal(answer.id, message.id, what);
    assert.equal(answer.error?.code, -32602, `${what}: ${JSON.stringify(answer)}`);
    assert.doesNotMatch(answer.error!.message, /\n/, `${what}: one line`);
    assert.ok(answer.error!.message.length < 300, `${what}: ${answer.error!.message}`);
  }

  // Params that are not an object: answered, with the request's id.
  for (const params of ["x", 5, [1]]) {
    const message = request("tools/call", params);
    const { answer } = await send(message);
    assert.equal(
      answer.id,
      message.id,
      `params ${JSON.stringify(params)}: ${JSON.stringify(answer)}`,
    );
    assert.ok(answer.error, JSON.stringify(answer));
    assert.ok([-32600, -32602].includes(answer.error.code), JSON.stringify(answer));
  }

  // A megabyte of input is echoed as an excerpt.
  for (
    const [what, message] of [
      ["device", call({ device: "D".repeat(MB) })],
      ["tool name", call({}, "router_" + "t".repeat(MB))],
      ["resource URI", request("resources/read", { uri: `routeros://${"u".repeat(MB)}/overview` })],
      [
        "resource URI device",
        request("resources/read", { uri: `routeros://x/print/${"p".repeat(MB)}` }),
      ],
      ["prompt name", request("prompts/get", { name: "p".repeat(MB) })],
      ["argument value", call({ device, where: { address: "a".repeat(MB) } })],
    ] as const
  ) {
    const { answer, bytes } = await send(message);
    assert.equal(answer.id, message.id, what);
    assert.ok(
      bytes < 2000,
      `${what}: a ${bytes}-byte answer: ${JSON.stringify(answer).slice(0, 400)}`,
    );
    const text = answer.error?.message ?? answer.result!.content[0].text;
    assert.match(text, /…\(\d+ bytes\)/, `${what}: ${text}`);
  }

  // device: ["MikroTik-1"] is a type error, not an unknown device.
  const { answer } = await send(call({ device: [device] }));
  const text = answer.result!.content[0].text;
  assert.equal(answer.result!.isError, true);
  assert.match(text, /device: must be a device title \(a string\), not \[/);
  assert.doesNotMatch(text, /unknown device/);
}

/** Lines of a child's stdout, by id. */
function stdioSend(
  child: Deno.ChildProcess,
): { send: Send; notify: (m: unknown) => Promise<void>; close: () => Promise<void> } {
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const waiting = new Map<unknown, (a: { answer: Answer; bytes: number }) => void>();
  let buffer = "";
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const answer = JSON.parse(line) as Answer;
        waiting.get(answer.id)?.({ answer, bytes: line.length });
        waiting.delete(answer.id);
      }
    }
  })();
  const send: Send = (message) => {
    const answered = new Promise<{ answer: Answer; bytes: number }>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no answer with id ${message.id} (${JSON.stringify(message).slice(0, 100)})`),
          ),
        30_000,
      );
      waiting.set(message.id, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    return writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n")).then(() =>
      answered
    );
  };
  return {
    send,
    notify: (m) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n")),
    close: async () => {
      await writer.close();
      await reading;
      await child.status;
    },
  };
}

Deno.test("json-rpc errors over stdio: -32602 in one line, the request's id, short excerpts", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir();
  const inventory = [
    { title: "MikroTik-1", host: sim.host, port: sim.port },
    { title: "MikroTik-2", host: sim.host, port: sim.port },
  ];
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "--toolsets",
      "all",
      "--inventory",
      JSON.stringify(inventory),
    ],
    env: childEnv({}, home),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const { send, notify, close } = stdioSend(child);
  try {
    await send({ ...OPENING_MESSAGES[0] });
    await notify({ ...OPENING_MESSAGES[1] });
    await probe(send, "MikroTik-1");
  } finally {
    await close();
    await sim.close();
    await Deno.remove(home, { recursive: true });
  }
});

/** An answer out of a streamable-http response (JSON, or the SSE events of one). */
async function answerOf(res: Response): Promise<{ answer: Answer; bytes: number }> {
  const body = await res.text();
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return { answer: JSON.parse(body), bytes: body.length };
  }
  const data = body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
  const last = data.at(-1)!;
  return { answer: JSON.parse(last), bytes: last.length };
}

Deno.test("json-rpc errors over streamable HTTP: -32602 in one line, the request's id, short excerpts", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim);
  const mcp = `${srv.base}/mcp`;
  try {
    const init = await fetch(mcp, {
      method: "POST",
      headers: Object.fromEntries(MCP_POST),
      body: JSON.stringify(OPENING_MESSAGES[0]),
    });
    await init.text();
    const headers = {
      ...Object.fromEntries(MCP_POST),
      "Mcp-Session-Id": init.headers.get("mcp-session-id")!,
      "Mcp-Protocol-Version": "2025-06-18",
    };
    const post = (m: unknown) => fetch(mcp, { method: "POST", headers, body: JSON.stringify(m) });
    await (await post(OPENING_MESSAGES[1])).body?.cancel();
    await (await post(request("tools/call", {
      name: "router_enable_toolsets",
      arguments: { toolsets: ["ip"] },
    }))).text();
    const device = sim.host;
    await probe(async (m) => answerOf(await post(m)), device);
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("json-rpc errors over SSE: -32602 in one line, the request's id, short excerpts", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, { transport: "sse" });
  const res = await fetch(`${srv.base}/sse`, { headers: { Accept: "text/event-stream" } });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let buffer = "";
    const events: string[] = [];
    const next = async (): Promise<string> => {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return event;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the SSE stream ended");
        buffer += value;
      }
    };
    const endpoint = /data: (\S+)/.exec(await next())![1];
    const post = async (m: Record<string, unknown>) => {
      const r = await fetch(`${srv.base}${endpoint}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(m),
      });
      const body = await r.text();
      // A message refused at the door is answered in the response itself.
      if (r.status !== 202) return { answer: JSON.parse(body) as Answer, bytes: body.length };
      if (!("id" in m)) return { answer: { id: undefined }, bytes: 0 };
      for (;;) {
        const event = await next();
        events.push(event);
        const data = event.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
        const answer = JSON.parse(data) as Answer;
        if (answer.id === m.id) return { answer, bytes: data.length };
      }
    };
    await post({ ...OPENING_MESSAGES[0] });
    await post({ ...OPENING_MESSAGES[1] });
    await post(request("tools/call", {
      name: "router_enable_toolsets",
      arguments: { toolsets: ["ip"] },
    }));
    await probe(post, sim.host);
  } finally {
    await reader.cancel();
    await srv.close();
    await sim.close();
  }
});

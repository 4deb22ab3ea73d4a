/**
 * A connection that cannot be opened says what to check, with the address
 * and port: nothing listening, a service that is not SSH (an HTTP server on
 * the port), a host that accepts and closes before the SSH banner (RouterOS
 * with `/ip service ssh address=` leaving this host out, here the
 * simulator), one that closes after its banner, one that says nothing, and
 * authentication refused (the methods tried, never the password). Each is
 * a real socket; the SSH layer's own words never name a router, the tool
 * layer adds the RouterOS hint. Through MCP.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const PASSWORD = "Kq7-connect-Pa55";

/** A local TCP listener that does `onConnect` with each accepted socket. */
async function listener(onConnect: (s: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
    onConnect(s);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening. */
async function closedPort(): Promise<number> {
  const l = await listener(() => {});
  await l.close();
  return l.port;
}

Deno.test("connect errors say which address and port, and what to check", async (t) => {
  const sim = await startSimulator();
  const closesAtOnce = await listener((s) => s.destroy());
  const http = await listener((s) =>
    s.once("data", () => s.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
  );
  const bannerThenClose = await listener((s) => s.end("SSH-2.0-Imitation_1.0\r\n"));
  const silent = await listener(() => {});
  const nothing = await closedPort();
  const at = (port: number) => ({ host: "127.0.0.1", port });
  const inventory = [
    { title: "nothing", ...at(nothing) },
    { title: "closes", ...at(closesAtOnce.port) },
    { title: "http", ...at(http.port) },
    { title: "banner-close", ...at(bannerThenClose.port) },
    { title: "silent", ...at(silent.port), connect_timeout: 0.5 },
    { title: "sim-refuses", host: sim.host, port: sim.port },
    { title: "bad-password", host: sim.host, port: sim.port, password: PASSWORD },
  ];
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
  const fail = async (device: string) => {
    const r = await callTool(session, "router_list_ip_addresses", { device });
    assert.equal(r.isError, true, r.content[0].text);
    const text = r.content[0].text;
    assert.doesNotMatch(text, /Connection lost before handshake/);
    assert.ok(!text.includes(PASSWORD), "no password in an error");
    return text;
  };
  try {
    await t.step("nothing listening", async () => {
      const m = await fail("nothing");
      assert.match(
        m,
        new RegExp(
          `127\\.0\\.0\\.1:${nothing}\\): connection refused: nothing listens on port ${nothing}`,
        ),
      );
      assert.match(m, /\/ip service/);
    });

    await t.step("a listener that closes before the SSH banner", async () => {
      const m = await fail("closes");
      assert.match(m, new RegExp(`127\\.0\\.0\\.1:${closesAtOnce.port}`));
      assert.match(m, /accepted the connection and closed it before the SSH banner/);
      assert.match(m, /\/ip service ssh address=/);
    });

    await t.step("an HTTP server on the port", async () => {
      const m = await fail("http");
      assert.match(m, new RegExp(`127\\.0\\.0\\.1:${http.port}`));
      assert.match(m, /does not speak SSH/);
      assert.match(m, /HTTP\/1\.1 400 Bad Request/);
    });

    await t.step("a server that closes after its banner", async () => {
      const m = await fail("banner-close");
      assert.match(m, /SSH-2\.0-Imitation_1\.0/);
      assert.match(m, /closed the connection during the key exchange/);
      assert.match(m, /\/ip ssh/);
    });

    await t.step("a listener that never answers", async () => {
      const m = await fail("silent");
      assert.match(m, new RegExp(`127\\.0\\.0\\.1:${silent.port}`));
      assert.match(m, /connected, but no SSH banner came within 0\.5 s/);
    });

    await t.step("the simulator leaves this host out of /ip service ssh address=", async () => {
      sim.run("/ip service set ssh address=192.0.2.0/24");
      const m = await fail("sim-refuses");
      sim.run('/ip service set ssh address=""');
      assert.match(m, new RegExp(`${sim.host.replaceAll(".", "\\.")}:${sim.port}`));
      assert.match(m, /accepted the connection and closed it before the SSH banner/);
      assert.match(m, /\/ip service ssh address=/);
    });

    await t.step("authentication refused names the methods tried, never the password", async () => {
      const m = await fail("bad-password");
      assert.match(m, /authentication failed for user "admin" \(tried password\)/);
      assert.match(m, /\/user/);
    });
  } finally {
    await session.close();
    await Promise.all([closesAtOnce, http, bannerThenClose, silent].map((l) => l.close()));
    await sim.close();
  }
});

Deno.test("the SSH layer's words never name a router", async () => {
  // Only what the layer says: its string literals and templates, not its comments.
  for await (const entry of Deno.readDir(new URL("../lib/ssh/", import.meta.url))) {
    if (!entry.name.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(`../lib/ssh/${entry.name}`, import.meta.url));
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const strings = code.match(/`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*"/g) ?? [];
    for (const s of strings) {
      // The product's own name (a path such as ~/.config/mcp-server-router) aside.
      assert.doesNotMatch(s, /(?<!server-)\brouter\b|routeros/i, `lib/ssh/${entry.name} says ${s}`);
    }
  }
});

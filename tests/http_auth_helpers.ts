/**
 * Helpers for the authentication tests: a fleet server (two devices on one
 * simulator, tags lab and prod) over HTTP in this process, with an API
 * keys file, an audit log and whatever OAuth verifier a test brings; MCP
 * clients that send a bearer credential; raw requests to any address.
 *
 * @module
 */
import { Client, LazySchemaValidator } from "../lib/mcp_sdk/client.ts";
import { SSEClientTransport } from "../lib/mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import { hashKey } from "../lib/auth/api_keys.ts";
import { KeyStore } from "../lib/auth/key_store.ts";
import type { TokenVerifier } from "../lib/auth/oauth.ts";
import { loadConfigAsync } from "../lib/config/load.ts";
import { setLogLevel } from "../lib/log.ts";
import type { AuthOptions } from "../lib/http/authenticate.ts";
import { metadataUrl, type ResourceMetadata } from "../lib/http/protected_resource.ts";
import { prepareServer } from "../lib/server/core.ts";
import { type HttpServer, LOCAL_ONLY, startHttp } from "../lib/server/http/serve.ts";
import { buildServer } from "../lib/server/mcp.ts";
import { openAuditLog } from "../lib/server/safety/audit_log.ts";
import { chooseToolsets } from "../lib/server/toolset_choice.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";

/** The test keys: name → [key, role, scope]. */
export const KEYS = {
  admin: "admin-key-0123456789",
  operator: "operator-key-0123456789",
  reader: "reader-key-0123456789",
  lab: "lab-operator-key-0123456789",
} as const;

/** The keys file for {@linkcode KEYS}. */
export function keysYaml(): string {
  return [
    "keys:",
    `  - {name: admin, hash: "${hashKey(KEYS.admin)}", role: admin}`,
    `  - {name: operator, hash: "${hashKey(KEYS.operator)}", role: operate}`,
    `  - {name: reader, hash: "${hashKey(KEYS.reader)}", role: read}`,
    `  - {name: lab, hash: "${hashKey(KEYS.lab)}", role: operate, tags: [lab]}`,
  ].join("\n") + "\n";
}

/** A fleet server over HTTP in this process. */
export interface AuthServer {
  http: HttpServer;
  base: string;
  dir: string;
  keysFile: string;
  store: KeyStore;
  /** The audit log's lines, parsed. */
  audit(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Start a fleet server on `sim` (devices r1 tag lab, r2 tag prod) with the test keys. */
export async function startAuthServer(
  sim: { host: string; port: number },
  opts: {
    transport?: "streamable-http" | "sse";
    hostname?: string;
    oauth?: TokenVerifier;
    resourceMetadata?: ResourceMetadata;
    noKeys?: boolean;
    /** `--dynamic-toolsets` (sessions start with the core tools) instead of every toolset. */
    dynamicToolsets?: boolean;
  } = {},
): Promise<AuthServer> {
  setLogLevel("error");
  const dir = await Deno.makeTempDir({ prefix: "http-auth-" });
  const keysFile = `${dir}/keys.yaml`;
  await Deno.writeTextFile(keysFile, keysYaml());
  const inventory = [
    `- {title: r1, host: ${sim.host}, port: ${sim.port}, tags: [lab]}`,
    `- {title: r2, host: ${sim.host}, port: ${sim.port}, tags: [prod]}`,
  ].join("\n");
  const config = await loadConfigAsync(
    {
      inventory,
      "host-key-policy": "off",
      "known-hosts": `${dir}/known_hosts`,
      "state-dir": `${dir}/state`,
      "audit-log": `${dir}/audit.log`,
      ...(opts.dynamicToolsets ? { "dynamic-toolsets": true } : { toolsets: "all" }),
    },
    {},
    { toolsets: TOOLSETS },
  );
  const audit = await openAuditLog(config.settings["audit-log"]);
  const { devices, core } = prepareServer(config, audit);
  const store = await KeyStore.open(keysFile);
  const auth: AuthOptions = {
    ...LOCAL_ONLY,
    keys: opts.noKeys ? [] : [store],
    oauth: opts.oauth,
    resourceMetadata: opts.resourceMetadata
      ? metadataUrl(opts.resourceMetadata.resource)
      : undefined,
  };
  const http = await startHttp({
    transport: opts.transport ?? "streamable-http",
    hostname: opts.hostname ?? "127.0.0.1",
    port: 0,
    allowedHosts: [],
    allowedOrigins: [],
    stateless: false,
    sessionTimeout: 1800,
    newServer: () =>
      buildServer(
        { name: "mcp-server-router", version: "0" },
        chooseToolsets(config.settings),
        core,
      ),
    auth,
    resourceMetadata: opts.resourceMetadata,
  });
  return {
    http,
    base: `http://127.0.0.1:${http.addr.port}`,
    dir,
    keysFile,
    store,
    audit: async () =>
      (await Deno.readTextFile(`${dir}/audit.log`).catch(() => "")).split("\n").filter(Boolean)
        .map((l) => JSON.parse(l)),
    close: async () => {
      store.close();
      await http.shutdown(1000);
      await devices.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** An MCP client sending `Authorization: Bearer <credential>`. */
export async function authClient(
  transport: "streamable-http" | "sse",
  url: string,
  credential?: string,
): Promise<Client> {
  const client = new Client({ name: "auth-tests", version: "1.0.0" }, {
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  const headers: Record<string, string> = credential
    ? { authorization: `Bearer ${credential}` }
    : {};
  const requestInit = { headers };
  await client.connect(
    transport === "sse"
      ? new SSEClientTransport(new URL(url), {
        requestInit,
        eventSourceInit: {
          fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, ...headers } }),
        },
      })
      : new StreamableHTTPClientTransport(new URL(url), { requestInit }),
  );
  return client;
}

/** The text of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

/** One HTTP/1.1 request over TCP to `hostname:port`, headers exactly as given. */
export async function rawTo(
  hostname: string,
  port: number,
  method: string,
  path: string,
  headers: [string, string][],
  body = "",
): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname, port });
  try {
    const lines = [`${method} ${path} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)];
    if (body) lines.push(`Content-Length: ${new TextEncoder().encode(body).byteLength}`);
    lines.push("Connection: close", "", body);
    await conn.write(new TextEncoder().encode(lines.join("\r\n")));
    let text = "";
    const buf = new Uint8Array(16384);
    const dec = new TextDecoder();
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += dec.decode(buf.subarray(0, n), { stream: true });
    }
    return { status: Number(text.split(" ")[1]), text };
  } finally {
    conn.close();
  }
}

/** A non-loopback address of this machine (IPv4 first), or undefined. */
export function machineAddress(): string | undefined {
  const all = Deno.networkInterfaces();
  const v4 = all.find((i) => i.family === "IPv4" && !i.address.startsWith("127."));
  const v6 = all.find((i) =>
    i.family === "IPv6" && i.address !== "::1" && !i.address.toLowerCase().startsWith("fe80")
  );
  return v4?.address ?? v6?.address;
}

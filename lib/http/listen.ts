/**
 * Start an HTTP server behind the connection guard (`front_door.ts`:
 * header and idle timeouts, connections per peer), turning the usual
 * failures to listen (port in use, port needing privileges, address not on
 * this machine) into one sentence that names the setting to change,
 * instead of a raw system error.
 *
 * @module
 */
import type { ConnectionInfo } from "./app.ts";
import {
  type ConnectionLimits,
  DEFAULT_LIMITS,
  type DoorObserver,
  type GuardedServer,
  serveGuarded,
} from "./front_door.ts";

/** Where to listen, and the names of the settings that chose it (for messages). */
export interface ListenOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  /** How people set the port, e.g. `--mcp.port (ROUTER_MCP__PORT)`. */
  portSetting: string;
  /** How people set the address, e.g. `--mcp.host (ROUTER_MCP__HOST)`. */
  hostSetting: string;
  /** Called once listening, with the real address (the chosen port for port 0). */
  onListen: (addr: Deno.NetAddr) => void;
  /** Called when a request handler throws (the answer is then a plain 500). */
  onError?: (err: unknown) => Response;
  /** Header and idle timeouts, connections per peer (default: {@linkcode DEFAULT_LIMITS}). */
  limits?: ConnectionLimits;
  /** Told of connections refused or closed by the limits. */
  observer?: DoorObserver;
}

/** A failure to listen, with a message for people. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

/** The sentence for a failure to listen on `opts`. */
export function listenFailure(err: unknown, opts: ListenOptions): string {
  const where = `${opts.hostname}:${opts.port}`;
  if (err instanceof Deno.errors.AddrInUse) {
    return `cannot listen on ${where}: port ${opts.port} is already in use by another program; ` +
      `choose a free port with ${opts.portSetting}, or 0 to let the system pick one`;
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return `cannot listen on ${where}: ports below 1024 need extra privileges; ` +
      `choose a port from 1024 up with ${opts.portSetting}`;
  }
  if (err instanceof Deno.errors.AddrNotAvailable) {
    return `cannot listen on ${where}: ${opts.hostname} is not an address of this machine; ` +
      `set ${opts.hostSetting} to one of its addresses, 127.0.0.1 or 0.0.0.0`;
  }
  const why = err instanceof Error ? err.message : String(err);
  if (/failed to lookup|name or service not known|no address/i.test(why)) {
    return `cannot listen on ${where}: ${opts.hostname} is not a known host name; ` +
      `set ${opts.hostSetting} to an address such as 127.0.0.1 or 0.0.0.0`;
  }
  return `cannot listen on ${where}: ${why}`;
}

/** Serve `fetch` on `opts`; throws `ListenError` when the address cannot be taken. */
export function listen(
  opts: ListenOptions,
  fetch: (req: Request, info: ConnectionInfo) => Response | Promise<Response>,
): GuardedServer {
  try {
    return serveGuarded({
      hostname: opts.hostname,
      port: opts.port,
      limits: opts.limits ?? DEFAULT_LIMITS,
      onListen: opts.onListen,
      ...(opts.onError ? { onError: opts.onError } : {}),
      observer: opts.observer,
    }, fetch);
  } catch (err) {
    throw new ListenError(listenFailure(err, opts));
  }
}

/** `http://host:port` for a listening address (IPv6 bracketed). */
export function addressUrl(addr: Deno.NetAddr): string {
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return `http://${host}:${addr.port}`;
}

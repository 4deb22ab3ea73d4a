/**
 * Every use of ssh2's private fields by the product, in one place, checked
 * by `tests/ssh_ssh2_internals.test.ts` (which names the field and the ssh2
 * version when one changes).
 *
 * Session channels opened ahead of need: running a command then costs one
 * round trip (the exec request) instead of two (channel open, then exec).
 * ssh2's `Client.exec` always opens a channel and then sends the exec
 * request; it has no public way to open a bare session channel. This file
 * does the same two steps separately, with the internals `exec` uses
 * (`openChannel` -> `_chanMgr.add` + `_protocol.session`, and `reqExec` ->
 * `_callbacks` + `_protocol.exec`), as found in ssh2 1.17.0's
 * `lib/client.js`. {@linkcode supportsPreopen} checks that those internals
 * are there; without them the caller uses `Client.exec`.
 *
 * Channel teardown: ssh2's `Channel.destroy` (`lib/Channel.js`) calls
 * `end()` even when the stream has already finished, and Node's streams
 * call `destroy` by themselves once a channel has ended both ways, so every
 * exec built (and dropped) an `ERR_STREAM_ALREADY_FINISHED` error with its
 * stack. {@linkcode skipRedundantEnd} gives our exec channels a `destroy`
 * that ends the stream only when it has not ended yet.
 *
 * Close replies: when the router closes an exec channel, ssh2 answers with
 * its own close at once (`onCHANNEL_CLOSE` in `lib/utils.js` calls
 * `Channel.close`). {@linkcode deferCloseReply} hands that answer to the
 * connection to send with its next write (`close_replies.ts`).
 *
 * Keepalive: ssh2 restarts its keepalive interval (`clearInterval`, then
 * `setInterval`) on every reply to a channel request (`Client._resetKA`,
 * called from `CHANNEL_SUCCESS`), so every exec cost two Node timers.
 * {@linkcode keepaliveResetByPingsOnly} leaves the reset to the replies to
 * ssh2's own keepalive pings.
 *
 * @module
 */
import type { Client, ClientChannel } from "./ssh2.ts";

/** Window and packet size that ssh2 uses for its own channels (lib/Channel.js). */
const MAX_WINDOW = 2 * 1024 * 1024;
const PACKET_SIZE = 32 * 1024;

/** The ssh2 version in use, read from where "ssh2" resolves, for messages. */
export function ssh2Version(): string {
  try {
    const m = /ssh2[@/](\d+\.\d+\.\d+[^/]*)\//.exec(import.meta.resolve("ssh2"));
    return m ? m[1] : "of unknown version";
  } catch {
    return "of unknown version";
  }
}

/** One direction of a channel, as ssh2 keeps it (lib/client.js `openChannel`). */
interface ChannelSide {
  id: number;
  state: string;
}

/** The private fields of an ssh2 client that pre-opening uses. */
interface ClientInternals {
  _resetKA?: () => void;
  _chanMgr?: { add?: (entry: unknown) => number };
  _protocol?: {
    session?: (local: number, window: number, packetSize: number) => void;
    exec?: (remote: number, command: string, wantReply: boolean) => void;
  };
}

/** The private fields of an ssh2 channel that pre-opening uses. */
interface ChannelInternals {
  incoming?: ChannelSide;
  outgoing?: ChannelSide;
  _callbacks?: ((failed: boolean | Error) => void)[];
  _client?: ClientInternals & {
    _protocol?: { channelClose?: (remote: number) => void };
  };
}

function clientInternals(client: Client): ClientInternals {
  return client as unknown as ClientInternals;
}

function channelInternals(channel: ClientChannel): ChannelInternals {
  return channel as unknown as ChannelInternals;
}

/** Why an exec request did not start the command. */
export class ExecNotStarted extends Error {
  /** True when the server closed the channel (e.g. it closes idle channels). */
  readonly channelClosed: boolean;
  constructor(message: string, channelClosed: boolean) {
    super(message);
    this.name = "ExecNotStarted";
    this.channelClosed = channelClosed;
  }
}

/**
 * The private fields of a connected client that pre-opening needs and that
 * are missing (empty when all are there), each as `Client._chanMgr.add`.
 */
export function missingClientInternals(client: Client): string[] {
  const c = clientInternals(client);
  const missing: string[] = [];
  if (typeof c._chanMgr?.add !== "function") missing.push("Client._chanMgr.add");
  if (typeof c._protocol?.session !== "function") missing.push("Client._protocol.session");
  if (typeof c._protocol?.exec !== "function") missing.push("Client._protocol.exec");
  return missing;
}

/**
 * The private fields of an open session channel that pre-opening needs
 * and that are missing or changed (empty when all are as expected).
 */
export function missingChannelInternals(channel: ClientChannel): string[] {
  const ch = channelInternals(channel);
  const missing: string[] = [];
  if (typeof ch.incoming?.state !== "string") missing.push("Channel.incoming.state");
  if (typeof ch.outgoing?.state !== "string") missing.push("Channel.outgoing.state");
  if (typeof ch.outgoing?.id !== "number") missing.push("Channel.outgoing.id");
  if (!Array.isArray(ch._callbacks)) missing.push("Channel._callbacks");
  if (typeof ch._client?._protocol?.exec !== "function") missing.push("Channel._client._protocol");
  if (typeof ch._client?._protocol?.channelClose !== "function") {
    missing.push("Channel._client._protocol.channelClose");
  }
  return missing;
}

/**
 * Reset ssh2's keepalive count only when a keepalive ping is answered, not
 * on every exec reply: a ping's reply calls ssh2's own reset (the closure
 * its keepalive pushed, not this field), so a router that stops answering
 * is still dropped after `keepaliveCountMax` unanswered pings, and a busy
 * connection sends a ping every interval too. Returns false (ssh2 left as
 * it is) when the client has no `_resetKA`.
 */
export function keepaliveResetByPingsOnly(client: Client): boolean {
  const c = clientInternals(client);
  if (typeof c._resetKA !== "function") return false;
  c._resetKA = () => {};
  return true;
}

/** Whether this ssh2 client has the internals that pre-opening needs. */
export function supportsPreopen(client: Client): boolean {
  return missingClientInternals(client).length === 0;
}

/** Open a session channel and send no request on it yet (one round trip). */
export function openSessionChannel(client: Client): Promise<ClientChannel> {
  const c = clientInternals(client);
  return new Promise((resolve, reject) => {
    const onOpen = (err: Error | undefined, channel: ClientChannel) => {
      if (err) reject(err);
      else resolve(channel);
    };
    // ssh2's channel manager tells a pending open from an open channel by
    // `typeof entry === "function"`, and reads the requested type from it.
    (onOpen as { type?: string }).type = "session";
    const local = c._chanMgr!.add!(onOpen);
    if (local === -1) {
      reject(new Error("no free channel numbers"));
      return;
    }
    c._protocol!.session!(local, MAX_WINDOW, PACKET_SIZE);
  });
}

/** Whether the channel can still take a request. */
export function channelIsOpen(channel: ClientChannel): boolean {
  const ch = channelInternals(channel);
  return ch.outgoing?.state === "open" && ch.incoming?.state === "open";
}

/**
 * Send the exec request on an open session channel. `done` is called
 * synchronously from ssh2's reply handling (before any data or close event
 * that follows in the same packet batch): with nothing when the server
 * accepts, or an {@linkcode ExecNotStarted} if it refuses or closes the
 * channel first (then the command did not run, unless the whole connection
 * died, which the caller checks).
 */
export function requestExec(
  channel: ClientChannel,
  command: string,
  done: (err?: ExecNotStarted) => void,
): void {
  if (!channelIsOpen(channel)) {
    done(new ExecNotStarted("the channel was closed before the command was sent", true));
    return;
  }
  const ch = channelInternals(channel);
  ch._callbacks!.push((failed: boolean | Error) => {
    if (!failed) {
      channel.subtype = "exec";
      done();
      return;
    }
    const closed = ch.incoming?.state === "closed";
    done(
      new ExecNotStarted(
        closed ? "the server closed the channel" : "the server refused the exec request",
        closed,
      ),
    );
  });
  ch._client!._protocol!.exec!(ch.outgoing!.id, command, true);
}

/**
 * The source of ssh2's `Channel.prototype.destroy` that
 * {@linkcode skipRedundantEnd} replaces, whitespace removed (ssh2 1.17.0).
 */
export const SSH2_CHANNEL_DESTROY_SOURCE = "destroy(){this.end();this.close();returnthis;}";

/** Source of the `destroy` that the channel's class defines, whitespace removed. */
export function channelDestroySource(channel: ClientChannel): string {
  const proto = Object.getPrototypeOf(channel) as { destroy?: () => unknown };
  return String(proto.destroy).replace(/\s+/g, "");
}

/** Channel prototypes whose `destroy` was checked: whether it is the one replaced. */
const destroyKnown = new WeakMap<object, boolean>();

/** `destroy` for exec channels: ssh2's, without `end()` on an ended stream. */
function destroyWithoutRedundantEnd(this: ClientChannel): ClientChannel {
  if (!this.writableEnded) this.end();
  this.close();
  return this;
}

/**
 * Give a channel a `destroy` that does what ssh2's does (end the writable
 * side, close the channel) without calling `end()` on a stream that has
 * already ended, which builds an `ERR_STREAM_ALREADY_FINISHED` error each
 * time. Only when the channel's class still has the `destroy` this replaces.
 */
export function skipRedundantEnd(channel: ClientChannel): void {
  const proto = Object.getPrototypeOf(channel) as object;
  let known = destroyKnown.get(proto);
  if (known === undefined) {
    known = channelDestroySource(channel) === SSH2_CHANNEL_DESTROY_SOURCE;
    destroyKnown.set(proto, known);
  }
  if (known) channel.destroy = destroyWithoutRedundantEnd;
}

/**
 * The source of ssh2's `Channel.prototype.close` that
 * {@linkcode deferCloseReply} stands in front of, whitespace removed (ssh2 1.17.0).
 */
export const SSH2_CHANNEL_CLOSE_SOURCE =
  "close(){if(this.outgoing.state==='open'||this.outgoing.state==='eof'){this.outgoing.state=" +
  "'closing';this._client._protocol.channelClose(this.outgoing.id);}}";

/** Source of the `close` that the channel's class defines, whitespace removed. */
export function channelCloseSource(channel: ClientChannel): string {
  const proto = Object.getPrototypeOf(channel) as { close?: () => unknown };
  return String(proto.close).replace(/\s+/g, "");
}

/** Channel prototypes whose `close` was checked: whether it is the one stood in front of. */
const closeKnown = new WeakMap<object, boolean>();

/**
 * Give an exec channel a `close` that, when it answers the router's own
 * close (the channel is closed inbound, still open outbound), marks the
 * channel closed at once, as ssh2's does, and hands the packet to `defer`
 * to send later; any other close (ours first: a timeout, a cancellation)
 * goes out at once as before. Only when the channel's class still has the
 * `close` this stands in front of; returns whether it did.
 */
export function deferCloseReply(
  channel: ClientChannel,
  defer: (send: () => void) => void,
): boolean {
  const proto = Object.getPrototypeOf(channel) as { close: () => void };
  let known = closeKnown.get(proto);
  if (known === undefined) {
    known = channelCloseSource(channel) === SSH2_CHANNEL_CLOSE_SOURCE &&
      missingChannelInternals(channel).length === 0;
    closeKnown.set(proto, known);
  }
  if (!known) return false;
  const ch = channelInternals(channel);
  channel.close = function (this: ClientChannel) {
    const out = ch.outgoing!;
    if (ch.incoming!.state !== "closed" || (out.state !== "open" && out.state !== "eof")) {
      return proto.close.call(this);
    }
    // Closed both ways as ssh2 sees it (so it sends no EOF after), answered later.
    out.state = "closed";
    defer(closeReply(ch._client!._protocol!, out.id));
  } as ClientChannel["close"];
  return true;
}

/**
 * The deferred answer to a close: made out here, so that it holds the
 * connection's protocol and the channel's number only, not the channel
 * (whose listeners hold the call that ran on it) while it waits.
 */
function closeReply(protocol: { channelClose?: (remote: number) => void }, remote: number) {
  return () => protocol.channelClose!(remote);
}

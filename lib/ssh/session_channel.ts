/**
 * Session channels opened ahead of need, so that running a command costs one
 * round trip (the exec request) instead of two (channel open, then exec).
 *
 * ssh2's `Client.exec` always opens a channel and then sends the exec
 * request; it has no public way to open a bare session channel. This file
 * does the same two steps separately, with the same internals `exec` uses
 * (`openChannel` → `_chanMgr.add` + `_protocol.session`, and `reqExec` →
 * `_callbacks` + `_protocol.exec`), as found in ssh2 1.17.0's
 * `lib/client.js`. {@linkcode supportsPreopen} checks that those internals
 * are there; without them the caller uses `Client.exec`.
 *
 * @module
 */

/** The ssh2 channel object (a Duplex stream with `stderr`). */
// deno-lint-ignore no-explicit-any
export type Channel = any;
/** The ssh2 Client object. */
// deno-lint-ignore no-explicit-any
export type Ssh2Client = any;

/** Window and packet size that ssh2 uses for its own channels (lib/Channel.js). */
const MAX_WINDOW = 2 * 1024 * 1024;
const PACKET_SIZE = 32 * 1024;

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

/** Whether this ssh2 client has the internals that pre-opening needs. */
export function supportsPreopen(client: Ssh2Client): boolean {
  return typeof client?._chanMgr?.add === "function" &&
    typeof client?._protocol?.session === "function" &&
    typeof client?._protocol?.exec === "function";
}

/** Open a session channel and send no request on it yet (one round trip). */
export function openSessionChannel(client: Ssh2Client): Promise<Channel> {
  return new Promise((resolve, reject) => {
    const onOpen = (err: Error | undefined, channel: Channel) => {
      if (err) reject(err);
      else resolve(channel);
    };
    // ssh2's channel manager tells a pending open from an open channel by
    // `typeof entry === "function"`, and reads the requested type from it.
    (onOpen as { type?: string }).type = "session";
    const local = client._chanMgr.add(onOpen);
    if (local === -1) {
      reject(new Error("no free channel numbers"));
      return;
    }
    client._protocol.session(local, MAX_WINDOW, PACKET_SIZE);
  });
}

/** Whether the channel can still take a request. */
export function channelIsOpen(channel: Channel): boolean {
  return channel?.outgoing?.state === "open" && channel?.incoming?.state === "open";
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
  channel: Channel,
  command: string,
  done: (err?: ExecNotStarted) => void,
): void {
  if (!channelIsOpen(channel)) {
    done(new ExecNotStarted("the channel was closed before the command was sent", true));
    return;
  }
  channel._callbacks.push((failed: boolean | Error) => {
    if (!failed) {
      channel.subtype = "exec";
      done();
      return;
    }
    const closed = channel.incoming?.state === "closed";
    done(
      new ExecNotStarted(
        closed ? "the server closed the channel" : "the server refused the exec request",
        closed,
      ),
    );
  });
  channel._client._protocol.exec(channel.outgoing.id, command, true);
}

/** Open a fresh channel and exec on it through ssh2's public API (two round trips). */
export function execOnFreshChannel(client: Ssh2Client, command: string): Promise<Channel> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err: Error | undefined, channel: Channel) => {
      if (err) reject(err);
      else resolve(channel);
    });
  });
}

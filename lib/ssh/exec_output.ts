/**
 * One exec channel's answer: stdout and stderr gathered in the order they
 * arrive, up to the output cap, with the exit status, finished when the
 * channel closes after the server accepted the exec request; and the exec
 * on a fresh channel through ssh2's public API, for an ssh2 without the
 * internals the pre-opened channels need.
 *
 * @module
 */
import type { ExecOutput } from "./connection_types.ts";
import { decodeOutput } from "./decode.ts";
import type { SshError } from "./errors.ts";
import type { Client, ClientChannel } from "./ssh2.ts";
import { skipRedundantEnd } from "./ssh2_internals.ts";

/** What {@linkcode collectOutput} reports to, and how it learns the exec is over. */
export interface OutputSink {
  /** The cap on stdout and stderr together, in bytes. */
  maxBytes: number;
  /** The error once the output passes the cap. */
  tooLarge(): SshError;
  /** True once the exec has finished another way (a timeout, a lost connection). */
  done(): boolean;
  finish(err: SshError | null, out?: ExecOutput): void;
}

/** Collect a channel's output into `sink`; returns the function that marks the exec accepted. */
export function collectOutput(ch: ClientChannel, sink: OutputSink): () => void {
  skipRedundantEnd(ch);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let exitCode: number | null = null;
  let accepted = false;
  const onData = (data: Uint8Array) => {
    if (sink.done()) return;
    size += data.length;
    if (size > sink.maxBytes) {
      sink.finish(sink.tooLarge());
      return;
    }
    chunks.push(data);
  };
  ch.on("data", onData);
  ch.stderr.on("data", onData);
  ch.on("exit", (code: number | null) => {
    exitCode = code;
  });
  ch.on("close", () => {
    if (accepted) sink.finish(null, { output: decodeOutput(chunks), exitCode });
  });
  return () => {
    accepted = true;
  };
}

/** Open a fresh channel and exec on it through ssh2's public API (two round trips). */
export function execOnFreshChannel(client: Client, command: string): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err: Error | undefined, channel: ClientChannel) => {
      if (err) reject(err);
      else resolve(channel);
    });
  });
}

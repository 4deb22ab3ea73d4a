/**
 * One socket write per burst of SSH packets. ssh2 hands every piece of a
 * packet to the socket as it makes it (with AES-GCM: the length, the
 * encrypted body and the tag, three writes per packet), so an exec on a
 * pre-opened channel cost nine `write(2)` calls (exec request, channel
 * close, the next channel's open), each waking the router's side. Corking
 * the socket for the rest of the current tick sends what ssh2 writes in
 * one go as one write: one per exec (the answer to the last channel's
 * close, which waits for it in `close_replies.ts`, the request, the next
 * open). Nothing waits for a timer: the data leaves before any I/O is
 * polled, so no round trip gets longer.
 *
 * The simulator's SSH server batches its sockets the same way (it is the
 * one module of `lib/ssh` it uses: nothing here knows RouterOS), so that
 * it answers in whole packets as an SSH server does, not in ssh2's pieces.
 *
 * @module
 */
import type net from "node:net";
import process from "node:process";

/** Sockets already batching (batching twice would cork twice per tick). */
const batching = new WeakSet<net.Socket>();

/**
 * Make `socket` gather what is written within one tick into one write.
 * Idempotent; the socket keeps its Node stream semantics (`write` returns
 * false under back-pressure as before, `end` flushes what is corked).
 */
export function batchWrites(socket: net.Socket): void {
  if (batching.has(socket)) return;
  batching.add(socket);
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const write = socket.write;
  socket.write = function (this: net.Socket, ...args: Parameters<net.Socket["write"]>) {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(socket, args);
  } as net.Socket["write"];
}

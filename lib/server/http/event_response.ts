/**
 * The answer to a POST on `/mcp`, sent once it has something to say. The
 * SDK's streamable transport returns its event stream at once, before the
 * call has run, so the response head went out alone and each event after
 * it in writes of their own (and, through the connection guard, relays of
 * their own): three socket writes per tool call, where one does. Here the
 * head waits for the first event, up to {@linkcode HEAD_WAIT_MS}: a call
 * that answers by then (almost every call) goes out in one write, as a body
 * of known length when the stream has ended with it, and a longer call
 * gets its head after that time and its events as they come, as before.
 *
 * A GET's event stream (the session's own) gets its head at once
 * ({@linkcode watchBody}). Either way `onEnd` is called once the body has
 * been handed over whole, or abandoned (the session is busy until then:
 * `sessions.ts`).
 *
 * @module
 */

/** The longest a response head waits for its first event (ms, give or take a sweep). */
export const HEAD_WAIT_MS = 250;

/** Responses waiting for their first event, released by one sweep (no timer per request). */
const waiting = new Set<{ since: number; go: () => void }>();
let sweep: ReturnType<typeof setInterval> | undefined;

function release(): void {
  const now = performance.now();
  for (const w of waiting) {
    if (now - w.since < HEAD_WAIT_MS) continue;
    waiting.delete(w);
    w.go();
  }
  if (waiting.size === 0 && sweep !== undefined) {
    clearInterval(sweep);
    sweep = undefined;
  }
}

/** Resolves with `null` once `HEAD_WAIT_MS` have passed; `cancel` forgets it. */
function headDeadline(): { passed: Promise<null>; cancel: () => void } {
  let entry!: { since: number; go: () => void };
  const passed = new Promise<null>((resolve) => {
    entry = { since: performance.now(), go: () => resolve(null) };
  });
  waiting.add(entry);
  if (sweep === undefined) {
    sweep = setInterval(release, HEAD_WAIT_MS / 2);
    Deno.unrefTimer(sweep as unknown as number);
  }
  return { passed, cancel: () => void waiting.delete(entry) };
}

const NOT_YET = Symbol("not yet");

/**
 * `res` (an event stream, or any response) sent once its first chunk is
 * there, whole when the stream ended with it; `onEnd` once the body is out.
 */
export async function whenFirstEvent(res: Response, onEnd: () => void): Promise<Response> {
  if (!res.body) {
    onEnd();
    return res;
  }
  const reader = res.body.getReader();
  const init = { status: res.status, statusText: res.statusText, headers: res.headers };
  const deadline = headDeadline();
  const firstRead = reader.read();
  let first: ReadableStreamReadResult<Uint8Array> | null;
  try {
    first = await Promise.race([firstRead, deadline.passed]);
  } catch (err) {
    onEnd();
    throw err;
  } finally {
    deadline.cancel();
  }
  if (first?.done) {
    onEnd();
    return new Response(null, init);
  }
  // No event yet: the head goes now, the first read continues the body.
  let next: Promise<ReadableStreamReadResult<Uint8Array>> | undefined = first
    ? undefined
    : firstRead;
  if (first) {
    // The stream ends in the very turn of its last event: a read of an
    // ended stream settles before a microtask queued after it.
    next = reader.read();
    const after = await Promise.race([next, Promise.resolve(NOT_YET)]);
    if (after !== NOT_YET && after.done) {
      onEnd();
      return new Response(first.value as Uint8Array<ArrayBuffer>, init);
    }
  }
  return new Response(continued(reader, first?.value, next, onEnd), init);
}

/**
 * The response with `onEnd` called once its body has been sent or
 * abandoned (or at once if it has none): a GET's event stream, whose head
 * goes at once.
 */
export function watchBody(res: Response, onEnd: () => void): Response {
  if (!res.body) {
    onEnd();
    return res;
  }
  return new Response(continued(res.body.getReader(), undefined, undefined, onEnd), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** The rest of a stream after what was read of it already, calling `onEnd` once. */
function continued(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  head: Uint8Array | undefined,
  pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (head) controller.enqueue(head);
    },
    async pull(controller) {
      try {
        const read = pending ?? reader.read();
        pending = undefined;
        const { done, value } = await read;
        if (done) {
          controller.close();
          end();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        end();
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason).catch(() => {});
    },
  });
}

/**
 * A benchmark child's stderr: read to its end so that the child never
 * blocks on a full pipe, and kept short for the error message when the
 * child fails.
 *
 * @module
 */
/**
 * A child's stderr read to its end (so the child never blocks on a full
 * pipe), its first 10,000 characters kept for an error message.
 */
export function drainStderr(stderr: ReadableStream<Uint8Array>): {
  text: () => string;
  done: Promise<void>;
} {
  let text = "";
  const done = (async () => {
    for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
      if (text.length < 10_000) text += chunk;
    }
  })().catch(() => {});
  return { text: () => text, done };
}

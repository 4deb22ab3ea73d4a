/**
 * Headless Chromium driven over the DevTools protocol (a WebSocket, no npm
 * package): open a page, run JavaScript in it, wait for a condition, take a
 * screenshot. For the Swagger UI test (proxy_browser.test.ts).
 *
 * @module
 */

/** `CHROMIUM_BIN` when set, else Debian's and other usual paths; undefined when absent. */
export function findChromium(): string | undefined {
  const given = Deno.env.get("CHROMIUM_BIN");
  const candidates = given
    ? [given]
    : ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  for (const path of candidates) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** Installed before any page script: records long tasks (main thread busy > 50 ms). */
const LONG_TASKS = `window.__longTasks = [];
try {
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (e) {
      window.__longTasks.push([e.startTime, e.startTime + e.duration]);
    });
  }).observe({ type: "longtask", buffered: true });
} catch (e) {}`;

/** One browser tab. */
export interface Tab {
  /** Go to `url` (returns once navigation started). */
  navigate(url: string): Promise<void>;
  /** The value of `expression` evaluated in the page (awaited when it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
  /** Poll `expression` every 50 ms until it is truthy; its value. */
  waitFor<T>(expression: string, what: string, ms?: number): Promise<T>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Uint8Array>;
}

/** A running headless Chromium. */
export interface Browser {
  /** A new tab of `width` x `height` whose pages first run `script` (and record long tasks). */
  tab(width: number, height: number, script?: string): Promise<Tab>;
  close(): Promise<void>;
}

/** Start headless Chromium at `path`. */
export async function launchChromium(path: string): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  const proc = new Deno.Command(path, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let err = "";
  let endpoint: string | undefined;
  while (!endpoint) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`chromium exited before DevTools listened:\n${err}`);
    err += decoder.decode(value, { stream: true });
    endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(err)?.[1];
  }
  // Keep draining stderr so Chromium never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  const socket = new WebSocket(endpoint);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("cannot connect to Chromium's DevTools"));
  });
  let nextId = 0;
  const pending = new Map<number, (msg: any) => void>();
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  };
  const send = (method: string, params: unknown = {}, sessionId?: string): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(
        id,
        (msg) => msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result),
      );
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });

  return {
    async tab(width, height, script = "") {
      const { targetId } = await send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
      const call = (method: string, params: unknown = {}) => send(method, params, sessionId);
      await call("Page.enable");
      await call("Emulation.setDeviceMetricsOverride", {
        width,
        height,
        deviceScaleFactor: 1,
        mobile: false,
      });
      await call("Page.addScriptToEvaluateOnNewDocument", { source: `${LONG_TASKS}\n${script}` });
      const evaluate = async <T>(expression: string): Promise<T> => {
        const { result, exceptionDetails } = await call("Runtime.evaluate", {
          expression,
          returnByValue: true,
          awaitPromise: true,
        });
        if (exceptionDetails) {
          throw new Error(`in the page: ${exceptionDetails.exception?.description ?? expression}`);
        }
        return result.value as T;
      };
      return {
        navigate: async (url) => void await call("Page.navigate", { url }),
        evaluate,
        async waitFor<T>(expression: string, what: string, ms = 60_000): Promise<T> {
          const deadline = Date.now() + ms;
          for (;;) {
            const value = await evaluate<T>(expression).catch(() => undefined);
            if (value) return value;
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        },
        async screenshot() {
          const { data } = await call("Page.captureScreenshot", { format: "png" });
          return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        },
      };
    },
    async close() {
      await send("Browser.close").catch(() => {});
      socket.close();
      try {
        proc.kill("SIGKILL");
      } catch {
        // already gone
      }
      await proc.status;
      await drained.catch(() => {});
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * The order in which a connection tries to log in: the key first, then the
 * password (plain, or keyboard-interactive for servers that only offer
 * that), each at most once.
 *
 * @module
 */
import type { AnyAuthMethod, AuthHandlerMiddleware, ParsedKey } from "./ssh2.ts";
import type { SshTarget } from "./target.ts";

/**
 * What an auth handler passes to `next` to stop trying methods: ssh2 takes
 * `false` (then fails with a `client-authentication` error), which its
 * types leave out.
 */
const NO_MORE_AUTH_METHODS: AnyAuthMethod = false as unknown as AnyAuthMethod;

/**
 * The ssh2 auth handler for a target: the key first, then the password.
 * `tried` collects the names of the methods attempted, for messages.
 */
export function authMethods(
  target: SshTarget,
  key: ParsedKey | undefined,
  tried: string[],
): AuthHandlerMiddleware {
  const username = target.username;
  const methods: AnyAuthMethod[] = [];
  if (key) methods.push({ type: "publickey", username, key });
  // Without a key, no password means the empty one (RouterOS's default admin).
  const password = target.password ?? (key ? undefined : "");
  if (password !== undefined) {
    methods.push({ type: "password", username, password });
    methods.push({
      type: "keyboard-interactive",
      username,
      prompt: (_name, _instructions, _lang, prompts, finish) => {
        // Answer only password prompts; anything else (a one-time code) fails.
        const ok = prompts.length === 1 && /password/i.test(prompts[0].prompt);
        finish(ok ? [password] : []);
      },
    });
  }
  let next = 0;
  const names: Record<string, string> = {
    publickey: `key ${target.keyFilename}`,
    password: "password",
    "keyboard-interactive": "keyboard-interactive",
  };
  return (allowed, _partialSuccess, callback) => {
    while (next < methods.length) {
      const m = methods[next++];
      // `allowed` is null on the first attempt (ssh2 passes null; its types say an array).
      if (allowed && !allowed.includes(m.type)) continue;
      // keyboard-interactive is for servers without "password"; never send it twice.
      if (m.type === "keyboard-interactive" && tried.includes("password")) continue;
      const name = names[m.type];
      if (!tried.includes(name)) tried.push(name);
      return callback(m);
    }
    callback(NO_MORE_AUTH_METHODS);
  };
}

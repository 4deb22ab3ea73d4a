/**
 * `mcp-server-router auth`: make API keys for the keys file.
 *
 * - `auth hash-key` reads a key on stdin (one line) and prints the
 *   `sha256:<hex>` to store in the file's `hash` field.
 * - `auth new-key [name] [role]` prints a fresh random key (give it to the
 *   client) and, on the next lines, the keys file entry holding its hash.
 *
 * Keys are never taken as arguments: they would show in `ps` and shell
 * history.
 *
 * @module
 */
import { hashKey, newKey } from "./api_keys.ts";
import { ROLES } from "./principal.ts";

const USAGE = `usage:
  mcp-server-router auth hash-key            read a key on stdin, print its sha256:<hex>
  mcp-server-router auth new-key [NAME] [ROLE]
                                             print a new key, then its keys file entry
roles: ${ROLES.join(", ")}`;

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > 64 * 1024) break;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Run `auth ...`; resolves to the exit code. */
export async function runAuthCli(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "hash-key" && rest.length === 0) {
    const key = (await readStdin()).replace(/\r?\n$/, "");
    if (key.trim() === "" || /[\s]/.test(key)) {
      console.error(
        "error: give the key on stdin, one line without spaces " +
          '(echo -n "$KEY" | mcp-server-router auth hash-key)',
      );
      return 2;
    }
    console.log(hashKey(key));
    return 0;
  }
  if (command === "new-key" && rest.length <= 2) {
    const [name = "client", role = "read"] = rest;
    if (!(ROLES as readonly string[]).includes(role)) {
      console.error(`error: ROLE must be one of ${ROLES.join(", ")}, not "${role}"\n${USAGE}`);
      return 2;
    }
    if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(name)) {
      console.error("error: NAME must be 1-64 letters, digits or _ . @ -");
      return 2;
    }
    const key = newKey();
    console.log(key);
    console.log(`# keys file entry (the key above is shown once; give it to ${name}):`);
    console.log(`  - {name: ${name}, hash: "${hashKey(key)}", role: ${role}}`);
    return 0;
  }
  const help = command === undefined || command === "help" || command === "--help" ||
    command === "-h";
  (help ? console.log : console.error)(USAGE);
  return help ? 0 : 2;
}

/**
 * Raw commands and `router_print` paths checked against what the connected
 * router itself has, before anything is sent: on RouterOS 7 its own menu
 * tree (`/console inspect`, asked once per path and connection); on 6.x,
 * which has no such inspection, our schema's release ranges. A menu word,
 * command or argument the router lacks is an argument error naming it and
 * the nearest names the router does have.
 *
 * @module
 */
import type { RouterOsClient } from "../../routeros/client.ts";
import { ArgumentError } from "../../routeros/errors.ts";
import { parseRawCommand } from "../../routeros/raw_command.ts";
import { describeRange, type Release } from "../../routeros/release.ts";
import { menuOnRelease } from "../../routeros/schema/menu.ts";
import { menuAt } from "../../routeros/schema/registry.ts";
import { nearest } from "../nearest_names.ts";

/** `/ip/address` for words. */
function shown(words: readonly string[]): string {
  return "/" + words.join("/");
}

function missing(what: string, where: string, name: string, names: string[], release: string) {
  const near = nearest(name, names);
  return new ArgumentError(
    `${where} has no ${what} "${name}" on this router (RouterOS ${release})` +
      (near.length ? `; did you mean ${near.join(", ")}?` : ""),
    "command",
  );
}

/**
 * Check every plain statement of a raw command: its menu words, its
 * command and its `name=value` argument names. Scripting is left to the
 * router.
 */
export async function checkRawCommand(client: RouterOsClient, text: string): Promise<void> {
  const dialect = await client.dialect();
  const release = dialect.release.text;
  if (dialect.major < 7) return checkOnSchema(text, dialect.release);
  let cwd: string[] = [];
  for (const st of parseRawCommand(text)) {
    if (st.opaque) continue;
    const node = st.absolute ? [] : [...cwd];
    let command: string | undefined;
    for (const word of st.words) {
      const [children] = await client.inspect([node]);
      const child = children.find((c) => c.name === word);
      if (!child) {
        throw missing("menu or command", shown(node), word, children.map((c) => c.name), release);
      }
      if (child.kind === "dir" || child.kind === "path") node.push(word);
      else {
        command = word;
        break;
      }
    }
    if (command === undefined) {
      cwd = node;
      continue;
    }
    if (st.args.length === 0) continue;
    const [args] = await client.inspect([[...node, command]]);
    const names = args.filter((a) => a.kind === "arg").map((a) => a.name);
    for (const arg of st.args) {
      if (!names.includes(arg)) {
        throw missing("argument", `${shown(node)} ${command}`, arg, names, release);
      }
    }
  }
}

/** RouterOS 6: a statement naming a menu our schema says this release lacks. */
function checkOnSchema(text: string, release: Release): void {
  for (const st of parseRawCommand(text)) {
    if (st.opaque || !st.absolute) continue;
    for (let n = st.words.length; n > 0; n--) {
      const menu = menuAt(shown(st.words.slice(0, n)), release);
      if (!menu) continue;
      if (!menuOnRelease(menu, release)) {
        throw new ArgumentError(
          `${menu.path} is not on RouterOS ${release.text}: it needs ${
            describeRange(menu.releases!)
          }`,
          "command",
        );
      }
      break;
    }
  }
}

/** `router_print` on RouterOS 7: the path and its `print` exist on this router. */
export async function checkPrintPath(client: RouterOsClient, path: string): Promise<void> {
  const dialect = await client.dialect();
  if (dialect.major < 7) return;
  const words = path.split("/").filter((w) => w !== "");
  await checkRawCommand(client, `${shown(words)} print`);
}

/**
 * `export` in any menu: the flags each release takes, printed or saved to a `.rsc` file.
 *
 * @module
 */
import { expectedEnd } from "./errors.ts";
import { exportConfig } from "./export.ts";
import { type Args, plainText } from "./interp_types.ts";
import type { Interp } from "./interp_types.ts";
import type { MenuNode } from "./menu_types.ts";
import type { Val } from "./values.ts";

/** Run `export` at `node` (its subtree) with its flags and `file=`. */
export function runExport(interp: Interp, node: MenuNode, args: Args): Val {
  const flags = new Set<string>();
  for (const a of args.positional) {
    const t = plainText(a.word);
    if (
      t === null ||
      !["terse", "verbose", "compact", "show-sensitive", "hide-sensitive"].includes(t)
    ) {
      throw expectedEnd(a.word.pos);
    }
    if (t === "show-sensitive" && interp.st.v6) throw expectedEnd(a.word.pos);
    if (t === "hide-sensitive" && !interp.st.v6) throw expectedEnd(a.word.pos);
    flags.add(t);
  }
  for (const [name, a] of args.named) {
    if (name !== "file") throw expectedEnd(a.word.pos);
  }
  if (args.whereWord) throw expectedEnd(args.whereWord.pos);
  const sensitive = interp.st.v6 ? !flags.has("hide-sensitive") : flags.has("show-sensitive");
  const text = exportConfig(interp.st, {
    prefix: node.path,
    terse: flags.has("terse"),
    verbose: flags.has("verbose"),
    sensitive,
  });
  const file = args.named.get("file");
  if (file) {
    interp.requirePolicy("write");
    const name = interp.argStr(file);
    const t = interp.st.table("/file");
    const fname = name.endsWith(".rsc") ? name : name + ".rsc";
    const old = t.items.find((f) => f.name === fname);
    const item = {
      name: fname,
      type: "script",
      size: String(text.length),
      "creation-time": interp.st.nowText(),
      contents: text,
    };
    if (old) Object.assign(old, item);
    else t.items.push({ ".id": interp.st.newId(t), ...item });
    interp.st.touch();
    return null;
  }
  for (const l of text.split("\n")) interp.print(l);
  return null;
}

/**
 * The bytes of the simulator's `/file` items. A text file keeps its
 * contents as text (`contents`, what `/file get ... contents` and `/import`
 * read); a file whose bytes are not UTF-8 (a package, an image, an
 * encrypted backup) keeps them as base64 in `data`, which nothing prints.
 * A text write after a binary one wins: `contents` is read first.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Item } from "./menu_types.ts";
import type { RouterState } from "./state.ts";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A file's bytes. */
export function fileBytes(item: Item): Uint8Array {
  if (item.contents !== undefined || item.data === undefined) {
    return new TextEncoder().encode(item.contents ?? "");
  }
  return new Uint8Array(Buffer.from(item.data, "base64"));
}

/** A file's size in bytes, without decoding binary data. */
export function fileSize(item: Item): number {
  if (item.contents !== undefined || item.data === undefined) {
    return new TextEncoder().encode(item.contents ?? "").length;
  }
  const pad = item.data.endsWith("==") ? 2 : item.data.endsWith("=") ? 1 : 0;
  return (item.data.length / 4) * 3 - pad;
}

/**
 * A file's type as RouterOS 7 lists it for a file it did not make itself:
 * `.js file` for `login.js` (real `/file print` on 7.23.2, see
 * `real-output/json-serialize-resource-certificate-file-7.23.2-tik4net.txt`),
 * and this simulator's words for backups, scripts and packages.
 */
export function fileTypeOf(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name.slice(name.lastIndexOf("/") + 1))?.[1];
  if (!ext) return "file";
  const lower = ext.toLowerCase();
  if (lower === "backup") return "backup";
  if (lower === "rsc") return "script";
  if (lower === "npk") return "package";
  return `.${lower} file`;
}

/** Store `bytes` as the file `name` (created or replaced), as text when they are UTF-8. */
export function storeFile(st: RouterState, name: string, bytes: Uint8Array): void {
  let text: string | undefined;
  try {
    text = strict.decode(bytes);
  } catch {
    text = undefined;
  }
  st.writeFile(name, text ?? "", fileTypeOf(name));
  const item = st.table("/file").items.find((f) => f.name === name)!;
  if (text !== undefined) {
    delete item.data;
    return;
  }
  delete item.contents;
  item.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}

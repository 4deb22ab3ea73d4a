/**
 * The operator's files directory (`--files-dir`): the only place on this
 * server's disk that file transfer tools read from or write to. An agent
 * names a path relative to it; the path is normalised (`a/./b` -> `a/b`) and
 * refused when it is absolute, climbs out (`..`), holds a control character
 * or a backslash. Symbolic links are followed only where they resolve inside
 * the directory (checked with `realPath`), for reading and for each folder
 * of a write.
 *
 * Reading opens the resolved path and then checks that the open file is the
 * regular file that path names (same device and inode as `lstat` of it), so
 * a link swapped in between is refused. Writing goes to a fresh temporary
 * file (`createNew`: never through an existing link) in the resolved folder,
 * synced, then renamed over the target with `overwrite`, or hard-linked to
 * it without (which fails if the target appeared meanwhile): a reader never
 * sees half a file and nothing outside the directory is ever created.
 * Files are written with mode 0600, folders made with 0700.
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";

/** Longest relative path accepted. */
const MAX_PATH = 1024;

/** The argument every message names. */
const FIELD = "local_path";

/**
 * `path` normalised as a path inside the files directory, or a sentence
 * saying why it is refused. Pure (no disk access), for argument validation.
 */
export function relativeOrWhy(path: string): { path: string } | { why: string } {
  if (path.length === 0 || path.length > MAX_PATH) {
    return { why: `a path of 1 to ${MAX_PATH} characters inside the files directory` };
  }
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return { why: "no control characters (NUL included)" };
  if (path.includes("\\")) return { why: "use '/' between folders, not '\\'" };
  if (path.startsWith("/") || path.startsWith("~")) {
    return { why: "a path relative to the files directory, not an absolute path" };
  }
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return { why: "'..' is not allowed: stay inside the files directory" };
  if (parts.length === 0) return { why: "name a file, not the files directory itself" };
  return { path: parts.join("/") };
}

/** `path` normalised, or an ArgumentError naming `local_path`. */
export function relativePath(path: string): string {
  const r = relativeOrWhy(path);
  if ("why" in r) throw new ArgumentError(r.why, FIELD);
  return r.path;
}

/** A local file being written: `commit` puts it in place, `abort` throws it away. */
export interface LocalWrite {
  /** Where the bytes go, in order. */
  write(chunk: Uint8Array): Promise<void>;
  /** Sync, close and move the file to its name. */
  commit(): Promise<void>;
  /** Close and delete the temporary file (idempotent; after commit, does nothing). */
  abort(): Promise<void>;
}

/** A local file opened for reading. */
export interface LocalRead {
  file: Deno.FsFile;
  size: number;
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith("/") ? root : root + "/");
}

function outside(rel: string): ArgumentError {
  return new ArgumentError(
    `${rel} leads outside the files directory (a symbolic link); it is refused`,
    FIELD,
  );
}

/** The files directory of this server: reads and writes confined to it. */
export class FilesDir {
  readonly #root: string;
  #real: Promise<string> | undefined;

  /** `root`: the directory (home expanded); made with mode 0700 on first use when missing. */
  constructor(root: string) {
    this.#root = root;
  }

  /** The directory's resolved path, made when missing. */
  #resolved(): Promise<string> {
    this.#real ??= (async () => {
      await Deno.mkdir(this.#root, { recursive: true, mode: 0o700 });
      return await Deno.realPath(this.#root);
    })();
    this.#real.catch(() => (this.#real = undefined));
    return this.#real;
  }

  /** The resolved path of an existing `rel`, checked to be inside; undefined when missing. */
  async #existing(rel: string): Promise<string | undefined> {
    const root = await this.#resolved();
    let real: string;
    try {
      real = await Deno.realPath(`${root}/${rel}`);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }
    if (!inside(root, real)) throw outside(rel);
    return real;
  }

  /** Size of the regular file `rel` (for dry runs); refused when missing or not a file. */
  async size(path: string): Promise<number> {
    const rel = relativePath(path);
    const real = await this.#existing(rel);
    if (!real) throw new ArgumentError(`no file ${rel} in the files directory`, FIELD);
    const st = await Deno.stat(real);
    if (!st.isFile) throw new ArgumentError(`${rel} is not a regular file`, FIELD);
    return st.size;
  }

  /** Whether `rel` exists (a file, folder or link) inside the directory. */
  async exists(path: string): Promise<boolean> {
    const rel = relativePath(path);
    const root = await this.#resolved();
    try {
      await Deno.lstat(`${root}/${rel}`);
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return false;
      throw err;
    }
  }

  /** Open the regular file `rel` for reading. */
  async open(path: string): Promise<LocalRead> {
    const rel = relativePath(path);
    const real = await this.#existing(rel);
    if (!real) throw new ArgumentError(`no file ${rel} in the files directory`, FIELD);
    const file = await Deno.open(real, { read: true });
    try {
      const [opened, named] = await Promise.all([file.stat(), Deno.lstat(real)]);
      if (!opened.isFile) throw new ArgumentError(`${rel} is not a regular file`, FIELD);
      // The path changed between the check and the open (a link swapped in).
      if (opened.dev !== named.dev || opened.ino !== named.ino) throw outside(rel);
      return { file, size: opened.size };
    } catch (err) {
      file.close();
      throw err;
    }
  }

  /**
   * Start writing `rel`: its folders are made (each checked to resolve
   * inside), and a temporary file is created beside it. Without `overwrite`
   * an existing `rel` is refused now and again at commit.
   */
  async create(path: string, overwrite: boolean): Promise<LocalWrite> {
    const rel = relativePath(path);
    const parts = rel.split("/");
    const base = parts.pop()!;
    let folder = await this.#resolved();
    const root = folder;
    for (const part of parts) {
      const next = `${folder}/${part}`;
      try {
        await Deno.mkdir(next, { mode: 0o700 });
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
      }
      folder = await Deno.realPath(next);
      if (!inside(root, folder)) throw outside(rel);
      if (!(await Deno.stat(folder)).isDirectory) {
        throw new ArgumentError(`${parts.join("/")} is not a folder`, FIELD);
      }
    }
    const target = `${folder}/${base}`;
    const present = await Deno.lstat(target).then((st) => st, (err) => {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    });
    if (present?.isDirectory) throw new ArgumentError(`${rel} is a folder`, FIELD);
    if (present && !overwrite) {
      throw new ArgumentError(`${rel} already exists; set overwrite to replace it`, FIELD);
    }
    const suffix = crypto.getRandomValues(new Uint8Array(6)).reduce(
      (s, b) => s + b.toString(16).padStart(2, "0"),
      "",
    );
    const temp = `${folder}/.${base}.part-${suffix}`;
    const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
    const writer = file.writable.getWriter();
    let state: "open" | "done" = "open";
    const close = async () => {
      try {
        await writer.close();
      } catch { /* already closed by an error */ }
    };
    return {
      write: (chunk) => writer.write(chunk),
      commit: async () => {
        await writer.ready;
        await file.syncData();
        await close();
        state = "done";
        try {
          if (overwrite) await Deno.rename(temp, target);
          else {
            await Deno.link(temp, target).catch((err) => {
              if (err instanceof Deno.errors.AlreadyExists) {
                throw new ArgumentError(`${rel} appeared meanwhile; nothing was replaced`, FIELD);
              }
              throw err;
            });
            await Deno.remove(temp);
          }
        } catch (err) {
          await Deno.remove(temp).catch(() => {});
          throw err;
        }
      },
      abort: async () => {
        if (state === "done") return;
        state = "done";
        await close();
        await Deno.remove(temp).catch(() => {});
      },
    };
  }
}

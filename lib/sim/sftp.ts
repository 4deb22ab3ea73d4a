/**
 * The simulator's SFTP subsystem: the router's `/file` items as files
 * (`/name` or `name`), which a client can stat, list, read and remove, as
 * on RouterOS, where SFTP reaches the same storage as `/file`, and write
 * (a new file, or one replaced whole: the file appears when it is closed).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { RouterState } from "./state.ts";
import { type SFTPWrapper, utils } from "./ssh2.ts";

const STATUS = utils.sftp.STATUS_CODE;
const OPEN = utils.sftp.OPEN_MODE;

/** What a file of `/file` holds (directories hold nothing). */
function fileOf(st: RouterState, path: string) {
  const name = path.replace(/^\/+/, "");
  return st.table("/file").items.find((f) => f.name === name && f.type !== "directory");
}

function attrsOf(bytes: number) {
  const now = Math.floor(Date.now() / 1000);
  return { mode: 0o100644, uid: 0, gid: 0, size: bytes, atime: now, mtime: now };
}

/**
 * Serve one SFTP session over `state()` (read live on every request);
 * `onRequest` sees each operation (`open /x.backup`) for tests.
 */
export function serveSftp(
  sftp: SFTPWrapper,
  state: () => RouterState,
  onRequest?: (what: string) => void,
): void {
  const open = new Map<string, Uint8Array>();
  /** Files being written: their name and the bytes so far. */
  const writing = new Map<string, { name: string; chunks: Map<number, Uint8Array> }>();
  let next = 0;
  const handleKey = (h: Uint8Array) => new TextDecoder().decode(h);
  sftp.on("OPEN", (id: number, path: string, flags: number) => {
    onRequest?.(`open ${path}`);
    if (flags & OPEN.APPEND) return sftp.status(id, STATUS.OP_UNSUPPORTED, "append");
    if (flags & (OPEN.WRITE | OPEN.CREAT | OPEN.TRUNC)) {
      const key = String(next++);
      writing.set(key, { name: path.replace(/^\/+/, ""), chunks: new Map() });
      return sftp.handle(id, Buffer.from(key));
    }
    const f = fileOf(state(), path);
    if (!f) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
    const key = String(next++);
    open.set(key, new TextEncoder().encode(f.contents ?? ""));
    sftp.handle(id, Buffer.from(key));
  });
  sftp.on("READ", (id: number, handle: Uint8Array, offset: number, length: number) => {
    const data = open.get(handleKey(handle));
    if (!data) return sftp.status(id, STATUS.FAILURE, "bad handle");
    if (offset >= data.length) return sftp.status(id, STATUS.EOF);
    sftp.data(id, Buffer.from(data.subarray(offset, offset + length)));
  });
  sftp.on("FSTAT", (id: number, handle: Uint8Array) => {
    const data = open.get(handleKey(handle));
    if (!data) return sftp.status(id, STATUS.FAILURE, "bad handle");
    sftp.attrs(id, attrsOf(data.length));
  });
  sftp.on("WRITE", (id: number, handle: Uint8Array, offset: number, data: Uint8Array) => {
    const w = writing.get(handleKey(handle));
    if (!w) return sftp.status(id, STATUS.FAILURE, "bad handle");
    w.chunks.set(offset, new Uint8Array(data));
    sftp.status(id, STATUS.OK);
  });
  sftp.on("CLOSE", (id: number, handle: Uint8Array) => {
    const key = handleKey(handle);
    open.delete(key);
    const w = writing.get(key);
    writing.delete(key);
    if (w) {
      onRequest?.(`write ${w.name}`);
      const size = Math.max(0, ...[...w.chunks].map(([o, d]) => o + d.length));
      const bytes = new Uint8Array(size);
      for (const [o, d] of w.chunks) bytes.set(d, o);
      const type = w.name.endsWith(".backup")
        ? "backup"
        : w.name.endsWith(".rsc")
        ? "script"
        : "file";
      state().writeFile(w.name, new TextDecoder().decode(bytes), type);
    }
    sftp.status(id, STATUS.OK);
  });
  const stat = (id: number, path: string) => {
    const f = fileOf(state(), path);
    if (!f) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
    sftp.attrs(id, attrsOf(new TextEncoder().encode(f.contents ?? "").length));
  };
  sftp.on("STAT", stat);
  sftp.on("LSTAT", stat);
  sftp.on("REALPATH", (id: number, path: string) => {
    const name = "/" + path.replace(/^\/+|^\.$/g, "");
    sftp.name(id, [{ filename: name, longname: name, attrs: attrsOf(0) }]);
  });
  sftp.on("REMOVE", (id: number, path: string) => {
    onRequest?.(`remove ${path}`);
    const st = state();
    const t = st.table("/file");
    const f = fileOf(st, path);
    if (!f) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
    t.items.splice(t.items.indexOf(f), 1);
    st.touch();
    sftp.status(id, STATUS.OK);
  });
  for (const op of ["OPENDIR", "READDIR", "SETSTAT", "FSETSTAT", "MKDIR", "RMDIR", "RENAME"]) {
    // deno-lint-ignore no-explicit-any
    sftp.on(op as any, (id: number) => sftp.status(id, STATUS.OP_UNSUPPORTED, "not simulated"));
  }
}

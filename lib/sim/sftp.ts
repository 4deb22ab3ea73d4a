/**
 * The simulator's SFTP subsystem: the router's `/file` items as files
 * (`/name` or `name`), which a client can stat, read, write and remove, as
 * on RouterOS, where SFTP reaches the same storage as `/file`. Any bytes
 * (binary included, see `file_bytes.ts`); a write lands in a folder that
 * exists (`flash/x` needs the `flash` directory), and the file appears,
 * created or replaced whole, when it is closed. Each handle holds its own
 * copy of the bytes, so a file replaced meanwhile reads consistently.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { fileBytes, fileSize, storeFile } from "./file_bytes.ts";
import type { Item } from "./menu_types.ts";
import type { RouterState } from "./state.ts";
import type { SimFaults } from "./types.ts";
import { type SFTPWrapper, utils } from "./ssh2.ts";

const STATUS = utils.sftp.STATUS_CODE;
const OPEN = utils.sftp.OPEN_MODE;

function nameOf(path: string): string {
  return path.replace(/^\/+/, "");
}

function itemOf(st: RouterState, path: string): Item | undefined {
  const name = nameOf(path);
  return st.table("/file").items.find((f) => f.name === name);
}

/** What a file of `/file` holds (directories hold nothing). */
function fileOf(st: RouterState, path: string): Item | undefined {
  const f = itemOf(st, path);
  return f && f.type !== "directory" ? f : undefined;
}

/** Whether the folder a new file `name` goes into exists (the root always does). */
function folderExists(st: RouterState, name: string): boolean {
  const slash = name.lastIndexOf("/");
  if (slash < 0) return true;
  return itemOf(st, name.slice(0, slash))?.type === "directory";
}

function attrsOf(bytes: number, directory = false) {
  const now = Math.floor(Date.now() / 1000);
  return {
    mode: directory ? 0o040755 : 0o100644,
    uid: 0,
    gid: 0,
    size: bytes,
    atime: now,
    mtime: now,
  };
}

/** What a session sees besides the state: live faults, and each operation for tests. */
export interface SftpHooks {
  faults?: () => Pick<SimFaults, "sftpStallAfterBytes" | "sftpCorruptWrites">;
  /** Sees each operation (`open /x.backup`). */
  onRequest?: (what: string) => void;
}

/** Serve one SFTP session over `state()` (read live on every request). */
export function serveSftp(
  sftp: SFTPWrapper,
  state: () => RouterState,
  hooks: SftpHooks = {},
): void {
  const onRequest = hooks.onRequest;
  const faults = () => hooks.faults?.() ?? {};
  const open = new Map<string, Uint8Array>();
  /** Files being written: their name and the bytes so far. */
  const writing = new Map<
    string,
    { name: string; chunks: Map<number, Uint8Array>; received: number }
  >();
  let next = 0;
  const handleKey = (h: Uint8Array) => new TextDecoder().decode(h);
  sftp.on("OPEN", (id: number, path: string, flags: number) => {
    onRequest?.(`open ${path}`);
    if (flags & OPEN.APPEND) return sftp.status(id, STATUS.OP_UNSUPPORTED, "append");
    const st = state();
    if (flags & (OPEN.WRITE | OPEN.CREAT | OPEN.TRUNC)) {
      const name = nameOf(path);
      if (itemOf(st, name)?.type === "directory") {
        return sftp.status(id, STATUS.FAILURE, "is a directory");
      }
      if (!folderExists(st, name)) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
      const key = String(next++);
      writing.set(key, { name, chunks: new Map(), received: 0 });
      return sftp.handle(id, Buffer.from(key));
    }
    const f = fileOf(st, path);
    if (!f) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
    const key = String(next++);
    open.set(key, fileBytes(f));
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
    w.received += data.length;
    const stallAt = faults().sftpStallAfterBytes ?? 0;
    if (stallAt > 0 && w.received > stallAt) return; // never answered
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
      if (faults().sftpCorruptWrites && size > 0) bytes[0] ^= 0xff;
      storeFile(state(), w.name, bytes);
    }
    sftp.status(id, STATUS.OK);
  });
  const stat = (id: number, path: string) => {
    const f = itemOf(state(), path);
    if (!f) return sftp.status(id, STATUS.NO_SUCH_FILE, "no such file");
    const directory = f.type === "directory";
    sftp.attrs(id, attrsOf(directory ? 0 : fileSize(f), directory));
  };
  sftp.on("STAT", stat);
  sftp.on("LSTAT", stat);
  sftp.on("REALPATH", (id: number, path: string) => {
    const name = "/" + path.replace(/^\/+|^\.$/g, "");
    sftp.name(id, [{ filename: name, longname: name, attrs: attrsOf(0, true) }]);
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

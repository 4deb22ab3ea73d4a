/**
 * Login checks against `/user` and `/user/ssh-keys`: password and public-key
 * (signatures verified with ssh2's parsed keys). A user that has a key can no
 * longer log in with a password over SSH. Login-name suffixes such as
 * `admin+ct` or `admin+c512w` map to the user `admin`.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { parseKey } from "./ssh2.ts";
import type { RouterState } from "./state.ts";
import { isTrue } from "./values.ts";
import type { Item } from "./menu_types.ts";

/** `admin+ct` -> `admin`. */
export function loginName(name: string): string {
  const i = name.indexOf("+");
  return i > 0 ? name.slice(0, i) : name;
}

/** The enabled user item of a login name. */
export function findUser(st: RouterState, login: string): Item | undefined {
  const u = st.list(st.menus.byPath("/user")!).find((i) => i.name === loginName(login));
  return u && !isTrue(u.disabled) ? u : undefined;
}

/** Public keys (OpenSSH lines) registered for a user. */
export function userKeys(st: RouterState, user: string): string[] {
  return st.stored(st.menus.byPath("/user/ssh-keys")!).filter((k) => k.user === user).map((k) =>
    k.key
  );
}

/** Password login: refused when the user has SSH keys. */
export function passwordOk(st: RouterState, login: string, password: string): boolean {
  const u = findUser(st, login);
  if (!u) return false;
  if (userKeys(st, u.name).length) return false;
  return (u.password ?? "") === password;
}

/** Information of a public-key attempt (ssh2's PKAuthContext). */
export interface KeyAttempt {
  algo: string;
  data: Uint8Array;
  signature?: Uint8Array;
  blob?: Uint8Array;
  hashAlgo?: string;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** "ok" (signature verified), "query" (key acceptable, no signature yet) or "no". */
export function keyCheck(st: RouterState, login: string, k: KeyAttempt): "ok" | "query" | "no" {
  const u = findUser(st, login);
  if (!u) return "no";
  for (const line of userKeys(st, u.name)) {
    const key = parseKey(line);
    if (key instanceof Error) continue;
    if (st.v6 && key.type === "ssh-ed25519") continue; // ed25519 user keys only from 7.12
    if (!sameBytes(new Uint8Array(key.getPublicSSH()), new Uint8Array(k.data))) continue;
    if (!k.signature) return "query";
    if (!k.blob) return "no";
    // ssh2 hands both as Buffers (see ssh_server.ts).
    const ok = key.verify(k.blob as Buffer, k.signature as Buffer, k.hashAlgo);
    return ok === true ? "ok" : "no";
  }
  return "no";
}

/** Policies of a user's group (without the `!` ones). */
export function policiesOf(st: RouterState, login: string): Set<string> {
  const u = findUser(st, login) ??
    st.list(st.menus.byPath("/user")!).find((i) => i.name === loginName(login));
  if (!u) return new Set();
  const g = st.list(st.menus.byPath("/user/group")!).find((i) => i.name === u.group);
  return new Set((g?.policy ?? "").split(",").filter((p) => p && !p.startsWith("!")));
}

/** Key type, bits and owner of an OpenSSH public key line, or an error text. */
export function describeKey(line: string): { type: string; bits: string; owner: string } | string {
  const key = parseKey(line.trim());
  if (key instanceof Error) {
    return "failure: unable to load key file (wrong format or bad passphrase)!";
  }
  const owner = line.trim().split(/\s+/).slice(2).join(" ");
  const type = key.type === "ssh-ed25519" ? "ed25519" : key.type === "ssh-rsa" ? "rsa" : key.type;
  let bits = "256";
  if (key.type === "ssh-rsa") {
    const blob = new Uint8Array(key.getPublicSSH());
    // string "ssh-rsa", mpint e, mpint n
    let o = 0;
    const rd = () => {
      const n = (blob[o] << 24) | (blob[o + 1] << 16) | (blob[o + 2] << 8) | blob[o + 3];
      o += 4;
      const s = blob.subarray(o, o + n);
      o += n;
      return s;
    };
    rd();
    rd();
    const n = rd();
    let len = n.length * 8;
    let i = 0;
    while (i < n.length && n[i] === 0) {
      len -= 8;
      i++;
    }
    if (i < n.length) len -= Math.clz32(n[i]) - 24;
    bits = String(len);
  }
  return { type, bits, owner };
}

/**
 * Lock-out rules for what this server's next SSH login needs from the
 * router's SSH server (`/ip/ssh`) and from the keys of the user it logs in
 * as (`/user/ssh-keys`, `router_add_user_ssh_key`):
 *
 * - an algorithm in common: `ciphers` (RouterOS 7.20 on) and `strong-crypto`
 *   decide the ciphers the router offers, `host-key-type` its host key
 *   algorithms; they are compared with what this server's SSH client offers
 *   (`lib/ssh/algorithms.ts`, ssh2's lists as handshake.ts uses them).
 *   RouterOS has no key exchange or MAC setting of its own (strong-crypto
 *   leaves SHA-2 ones, which the client offers);
 * - its way of logging in (the live connection's, `client.session().login`):
 *   with a password, `password-authentication=no` (7.22 on), or
 *   `yes-if-no-key` and `always-allow-password-login=no` (up to 7.21) while
 *   the user has an SSH key, and a key added to that user while one of those
 *   holds; with a key, a key of that user removed (the guard cannot tell
 *   which key is this server's) and `publickey-authentication-options`
 *   asking more than `none` (RouterOS says it is for security keys, which
 *   this server's key is not; whether it binds other keys is not known, so
 *   it counts as a cut).
 *
 * @module
 */
import { offeredAlgorithms } from "../../ssh/algorithms.ts";
import { isYes } from "../../routeros/rule_match.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { sshServer as sshServerMenu } from "../../routeros/schema/menus/management.ts";
import type { LockoutRule } from "./lockout.ts";
import type { ToolContext } from "../tool.ts";

type Item = Record<string, unknown>;

/** The SSH cipher names each RouterOS `ciphers` value stands for. */
const CIPHERS: Readonly<Record<string, readonly string[]>> = {
  "aes-gcm": ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com"],
  "aes-ctr": ["aes128-ctr", "aes192-ctr", "aes256-ctr"],
  "aes-cbc": ["aes128-cbc", "aes192-cbc", "aes256-cbc"],
  "3des-cbc": ["3des-cbc"],
  null: ["none"],
};

/**
 * `auto` (the default, and every release before `ciphers`), taken as all but
 * null: MikroTik's SSH page does not list it, and this server logs in with
 * it, so it holds a cipher the client offers.
 */
const AUTO = ["aes-gcm", "aes-ctr", "aes-cbc", "3des-cbc"];

/** The SSH host key algorithms of each RouterOS `host-key-type`. */
const HOST_KEYS: Readonly<Record<string, readonly string[]>> = {
  ed25519: ["ssh-ed25519"],
  rsa: ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"],
};

function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === "string" && v !== "" ? v.split(",") : [];
}

function changed(before: Item, after: Item, key: string): boolean {
  return after[key] !== undefined && JSON.stringify(after[key]) !== JSON.stringify(before[key]);
}

/**
 * The ciphers the router would offer: its `ciphers` (absent before 7.20:
 * `auto`), and with `strong-crypto` only the 192 and 256 bit ones ("use 256
 * and 192 bit encryption instead of 128 bits; disable null encryption").
 */
function routerCiphers(item: Item): string[] {
  const names = listOf(item.ciphers ?? "auto").flatMap((c) => c === "auto" ? AUTO : [c]);
  const ssh = names.flatMap((c) => CIPHERS[c] ?? []);
  return item.strong_crypto === true ? ssh.filter((c) => /192|256/.test(c)) : ssh;
}

/** What the change leaves without an algorithm in common with this server's client. */
async function noAlgorithm(before: Item, after: Item): Promise<string[]> {
  const cuts: string[] = [];
  if (changed(before, after, "ciphers") || changed(before, after, "strong_crypto")) {
    const { cipher } = await offeredAlgorithms();
    const offered = routerCiphers(after);
    if (!offered.some((c) => cipher.includes(c))) {
      const set = ["ciphers", "strong_crypto"].filter((k) => changed(before, after, k))
        .map((k) => `${k}=${listOf(after[k]).join(",") || after[k]}`).join(" ") +
        (after.strong_crypto === true && !changed(before, after, "strong_crypto")
          ? " (with strong_crypto on)"
          : "");
      cuts.push(
        `${set} leaves the router's SSH server ${
          offered.length ? `only ${offered.join(", ")}` : "no cipher"
        }, and this server's SSH client offers only ${cipher.join(", ")}: its next login fails`,
      );
    }
  }
  if (changed(before, after, "host_key_type")) {
    const { serverHostKey } = await offeredAlgorithms();
    const algorithms = HOST_KEYS[String(after.host_key_type)] ?? [];
    if (!algorithms.some((a) => serverHostKey.includes(a))) {
      cuts.push(
        `this server's SSH client cannot verify a ${after.host_key_type} host key (it offers ` +
          `${serverHostKey.join(", ")})`,
      );
    }
  }
  return cuts;
}

/** The SSH keys the router holds for the user this server logs in as. */
async function ownKeys(ctx: ToolContext): Promise<number> {
  const user = ctx.client.target.username;
  const keys = await ctx.client.read({ path: "/user/ssh-keys", keys: ["user"] }, [
    { key: "user", value: user },
  ]);
  return keys.length;
}

/** How this server logs in, in words, or undefined when it certainly uses its key. */
function byPassword(ctx: ToolContext): string | undefined {
  const { login } = ctx.client.session();
  const user = ctx.client.target.username;
  if (login === "publickey") return undefined;
  return login === "password"
    ? `this server logs in as "${user}" with a password`
    : `this server may log in as "${user}" with its password (its key may not be on the router)`;
}

/** Password logins ended for this server's user. */
async function passwordRefused(before: Item, after: Item, ctx: ToolContext): Promise<string[]> {
  const who = byPassword(ctx);
  if (!who) return [];
  const user = ctx.client.target.username;
  if (changed(before, after, "password_authentication")) {
    if (after.password_authentication === "no") {
      return [`password_authentication=no turns SSH password logins off, and ${who}`];
    }
    if (after.password_authentication === "yes-if-no-key" && await ownKeys(ctx) > 0) {
      return [
        `password_authentication=yes-if-no-key refuses the password of a user with an SSH key, ` +
        `user "${user}" has one on the router, and ${who}`,
      ];
    }
  }
  if (
    changed(before, after, "always_allow_password_login") &&
    after.always_allow_password_login === false && await ownKeys(ctx) > 0
  ) {
    return [
      `always_allow_password_login=no refuses the password of a user with an SSH key, user ` +
      `"${user}" has one on the router, and ${who}`,
    ];
  }
  return [];
}

/** Key logins asked for more than a plain key proves. */
function keyOptions(before: Item, after: Item, ctx: ToolContext): string[] {
  if (ctx.client.session().login === "password") return [];
  const opt = after.publickey_authentication_options;
  if (!changed(before, after, "publickey_authentication_options") || opt === "none") return [];
  return [
    `publickey_authentication_options=${opt} asks key logins to prove a touch or a ` +
    `verification, which only a security (FIDO) key can, and this server logs in as ` +
    `"${ctx.client.target.username}" with a plain key (whether RouterOS asks it of plain keys ` +
    "too is not known to the guard)",
  ];
}

/** `/ip/ssh`: a setting after which this server's next login fails. */
export const sshLogins: LockoutRule = {
  verbs: ["update"],
  updates: [
    "ciphers",
    "strong_crypto",
    "host_key_type",
    "password_authentication",
    "always_allow_password_login",
    "publickey_authentication_options",
  ],
  check: async ({ before, after }, ctx) => {
    if (!before) return undefined;
    const cuts = [
      ...await noAlgorithm(before, after),
      ...await passwordRefused(before, after, ctx),
      ...keyOptions(before, after, ctx),
    ];
    return cuts.length ? cuts.join("; and ") : undefined;
  },
};

/** `/user/ssh-keys`: a key of the user this server logs in as with a key. */
export const ownSshKey: LockoutRule = {
  verbs: ["remove"],
  check: ({ before }, ctx) => {
    const user = ctx.client.target.username;
    if (!before || before.user !== user || ctx.client.session().login === "password") {
      return undefined;
    }
    return `this server logs in as "${user}" with an SSH key, and this may be that key ` +
      "(the guard cannot tell which of the user's keys is its own)";
  },
};

/**
 * `router_add_user_ssh_key`: a key added to the user this server logs in as
 * with a password, while the router refuses the password of a user with a
 * key (`password-authentication=yes-if-no-key` from 7.22,
 * `always-allow-password-login=no` before).
 */
export async function keyEndsPassword(user: string, ctx: ToolContext): Promise<string | undefined> {
  const who = byPassword(ctx);
  if (user !== ctx.client.target.username || !who) return undefined;
  const { release } = await ctx.client.dialect();
  const [ssh] = await ctx.client.read(readSpecOf(sshServerMenu, release));
  const raw = (key: string) => ssh?.[key] === undefined ? undefined : String(ssh[key]);
  const mode = raw("password-authentication");
  const refuses = mode !== undefined ? mode !== "yes" : !isYes(raw("always-allow-password-login"));
  return refuses
    ? `${who}, and a key on that user makes the router refuse its password (${
      mode !== undefined ? `password-authentication=${mode}` : "always-allow-password-login=no"
    }); configure key_filename for the device first`
    : undefined;
}

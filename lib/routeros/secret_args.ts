/**
 * The RouterOS argument names that hold secrets, as data: what raw console
 * text (`router_run_command`) is masked by in audit lines, dry runs and
 * errors. The list is built from two sources, never guessed:
 *
 * - every schema field marked `secret` (`lib/routeros/schema/menus/**`);
 * - every argument name of the real command trees of RouterOS 7.12 to 7.24
 *   (`shared/fidelity`) that holds a password, key, passphrase, pre-shared
 *   key, PIN or shared secret (judged name by name; the names only look
 *   alike in {@linkcode NOT_SECRET});
 * - the names RouterOS 6 had and 7 renamed ({@linkcode RELEASE_6_ONLY}:
 *   no 6.x command tree is public, so they come from MikroTik's RouterOS 6
 *   manuals and real 6.x output in `shared/real-output`).
 *
 * `tests/unit/raw_secrets.test.ts` holds the list against both sources.
 *
 * @module
 */

/** Argument names that hold a secret in every menu that has them. */
export const SECRET_ARGUMENTS: ReadonlySet<string> = new Set([
  // Passwords.
  "password",
  "new-password",
  "old-password",
  "confirm-new-password",
  "authentication-password", // /snmp/community (v3), /tool snmp-get
  "encryption-password", // /snmp/community (v3), /tool snmp-get
  "challenge-password",
  "connection-request-password", // /tr069-client
  "eap-password",
  "security.eap-password",
  "mac-auth-password", // /ip/hotspot/profile
  "mschapv2-password",
  "nvme-tcp-password",
  "nvme-tcp-server-password",
  "ovpn-password",
  "paypal-password",
  "radius-password",
  "self-encryption-password",
  "smb-password",
  "smb-server-password",
  "socks5-password",
  "sshfs-password",
  "web-private-password",
  // Shared secrets.
  "secret",
  "secrets", // /tool/romon, /app
  "hkdf-secret",
  "ipsec-secret",
  "nv2-sync-secret",
  "otp-secret",
  "ppk-secret",
  "shared-secret",
  "community", // /tool snmp-get, snmp-walk: the SNMP v1/v2c community string
  // Passphrases.
  "passphrase",
  "security.passphrase",
  "challenge-passphrase",
  "export-passphrase",
  "key-passphrase",
  "private-passphrase",
  // Keys.
  "private-key",
  "static-sta-private-key",
  "preshared-key",
  "nv2-preshared-key",
  "wpa-pre-shared-key",
  "wpa2-pre-shared-key",
  "private-pre-shared-key",
  "auth-key",
  "client-cert-key",
  "eab-hmac-key",
  "eab-key-b64",
  "enc-key",
  "encryption-key",
  "key-val", // /system/ntp/key
  "management-protection-key",
  "mtik-key",
  "secret-download-key",
  "static-key-0",
  "static-key-1",
  "static-key-2",
  "static-key-3",
  "tcp-md5-key",
  // RouterOS 6: /routing ospf interface and virtual-link, /routing rip interface (7: auth-key).
  "authentication-key",
  // PINs.
  "pin", // /interface/lte and /interface/ppp-client: the SIM's; /certificate card-verify: a card's
  "sim-pin", // /tool/sms
]);

/**
 * The judged names of RouterOS 6 that no command tree of 7 has (in
 * {@linkcode SECRET_ARGUMENTS} or {@linkcode NOT_SECRET}): a RouterOS 6
 * router, and an export file of one kept in flash after an upgrade, still
 * use them.
 */
export const RELEASE_6_ONLY: ReadonlySet<string> = new Set([
  "authentication-key",
  "authentication-key-id",
  "remove-private-as",
]);

/**
 * `key` holds a secret in most menus that have it (`/ip/ipsec/key/psk`,
 * `/routing/rip/keys`, `/tool dns-update`, `/iot/lora/servers`,
 * `/iot/bluetooth decode-ad`) but not in these, where it is a variable's
 * name, a public key or another item's name. Anywhere else, and wherever
 * the menu cannot be told (a relative path, a script), it is masked.
 */
export const KEY_IS_NOT_SECRET_IN: ReadonlySet<string> = new Set([
  "/container/envs", // the variable's name
  "/ip/ipsec/identity", // the name of a /ip/ipsec/key item
  "/user/ssh-keys", // a public key
  "/", // `find key=...`
]);

/**
 * Argument names of the real command trees that are the beginning of a
 * secret argument's name but name something else: they are not taken for
 * an abbreviation of the secret (RouterOS also takes an unambiguous
 * abbreviation of an argument's name, so `pass=...` is masked).
 */
export const NOT_ABBREVIATIONS: ReadonlySet<string> = new Set([
  "auth",
  "authentication",
  "connect",
  "encryption",
  "exp",
  "ip",
  "ipsec",
  "mac",
  "management-protection",
  "n",
  "ppk",
  "security",
  "smb",
  "socks",
  "static",
]);

/**
 * Secret-looking argument names of the command trees that hold no secret:
 * a name of another item, a file name, a public key, a length or a choice.
 * (The tests list every tree argument whose name looks secret and require
 * it to be here or in {@linkcode SECRET_ARGUMENTS}.)
 */
export const NOT_SECRET: ReadonlySet<string> = new Set([
  "key-id",
  "key-ids",
  "key-name", // /tool dns-update: the TSIG key's name
  "key-owner",
  "key-size",
  "key-usage",
  "key-chain", // the name of a /routing/rip/keys chain
  "key-file-prefix",
  "host-key-size",
  "host-key-type",
  "lacp-user-key", // an LACP key number
  "public-key",
  "public-key-file",
  "private-key-file", // a file name
  "remote-key", // the name of a /ip/ipsec/key item
  "reset-private-key", // yes/no
  "no-key-export", // yes/no
  "static-transmit-key", // which of static-key-0..3
  "trap-community", // the name of a /snmp/community item
  "password-format",
  "aaa.password-format",
  "password-authentication",
  "always-allow-password-login",
  "minimum-password-length",
  "password-characters",
  "password-length",
  "multi-passphrase-group",
  "security.multi-passphrase-group",
  "authorized-public-key-hash",
  "ft-r0-key-lifetime",
  "security.ft-r0-key-lifetime",
  "group-key-update",
  "security.group-key-update",
  "enc-key-size",
  "web-private-username",
  "allow-sharedkey", // yes/no
  "private-algo", // a cipher's name
  "static-sta-private-algo",
  "publickey-authentication-options",
  "token-refresh-handicap", // a duration
  // RouterOS 6 (RELEASE_6_ONLY).
  "authentication-key-id", // the key's number (7: auth-id)
  "remove-private-as", // yes/no (7: output.remove-private-as)
]);

/** Whether an argument name (as written, maybe abbreviated) may hold a secret; `menu` as far as known. */
export function isSecretArgument(name: string, menu: string | undefined): boolean {
  if (name === "key") return menu === undefined || !KEY_IS_NOT_SECRET_IN.has(menu);
  if (SECRET_ARGUMENTS.has(name)) return true;
  if (NOT_ABBREVIATIONS.has(name) || NOT_SECRET.has(name)) return false;
  for (const secret of SECRET_ARGUMENTS) if (secret.startsWith(name)) return true;
  return "key".startsWith(name);
}

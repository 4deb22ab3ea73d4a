/**
 * Users beyond CRUD: log out an active session, and add an SSH public key
 * to a user.
 *
 * @module
 */
import * as z from "zod";
import { menuPath, renderArgs } from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import { checkId, quoteValue } from "../../routeros/quote.ts";
import { commandLine } from "../../routeros/scripts.ts";
import { text } from "../fields.ts";
import { renderTable } from "../render.ts";
import type { ToolDef } from "../tool.ts";
import {
  DESTRUCTIVE,
  ID,
  itemSchema,
  planned,
  readView,
  readViewOrNone,
  typed,
  view,
  viewSection,
  viewSpec,
  WRITE,
} from "./views.ts";

/** Active login sessions. */
export const activeView = view("/user/active", "users", "active sessions", {
  name: text("User name"),
  address: text("Address the session comes from"),
  via: text("How the user is logged in: ssh, winbox, api, console, ..."),
  when: text("When the session started"),
  group: text("The user's group"),
}, { flags: { R: "radius", M: "by-romon" } });

function logoutScript(dialect: Dialect, id: string): string {
  return `${viewSection(dialect, activeView, [{ key: ".id", value: id }])}; ${
    menuPath("/user/active")
  } request-logout numbers=${checkId(id)}`;
}

/** `router_disconnect_active_user`. */
export const disconnectActiveUser: ToolDef = {
  name: "router_disconnect_active_user",
  title: "Log out an active session",
  description:
    "End one active login session (from /user/active: ssh, winbox, api, ...), by its id. The user " +
    "can log in again; disable the user or change the password to keep them out. Returns the " +
    "session as it was. Needs RouterOS 7. Ending this server's own SSH session makes the call fail.",
  toolset: "users",
  input: { id: ID.describe("Session id (.id) from the active sessions list, such as *1A") },
  output: { item: itemSchema(activeView) },
  annotations: DESTRUCTIVE,
  perDevice: true,
  async handler(args, { client }) {
    const dialect = await client.dialect();
    if (dialect.major < 7) {
      throw new RouterOsError(
        "bad-command",
        "RouterOS 6 cannot end another user's session (/user active request-logout is RouterOS 7)",
        "",
      );
    }
    const [items] = await client.write(
      dialect,
      viewSpec(activeView),
      logoutScript(dialect, String(args.id)),
      1,
    );
    if (items.length === 0) {
      throw new RouterOsError("not-found", `no active session ${String(args.id)}`, "no such item");
    }
    const [item] = typed(activeView, dialect, items);
    return {
      structured: { item },
      text: renderTable([item], ["id", "name", "address", "via", "when"]),
    };
  },
  async dryRun(args, { client }) {
    const dialect = await client.dialect();
    const [session] = await readViewOrNone(client, activeView, [{
      key: ".id",
      value: String(args.id),
    }]);
    const problems = session ? [] : [`no active session ${String(args.id)}`];
    if (dialect.major < 7) problems.push("RouterOS 6 has no /user active request-logout");
    return planned([logoutScript(dialect, String(args.id))], session ?? {}, problems);
  },
};

/** SSH public keys of users. */
export const sshKeyView = view("/user/ssh-keys", "users", "user SSH keys", {
  user: text("User the key belongs to"),
  "key-type": text("Key type: rsa, ed25519, ..."),
  bits: text("Key size in bits"),
  info: text("Key comment (RouterOS 7)"),
  "key-owner": text("Key comment (RouterOS 6)"),
  fingerprint: text("Key fingerprint"),
});

const KEY =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\r\n]*)?$/;

/** The file a public key goes through on versions that can only import. */
function keyFileName(user: string): string {
  const safe = user.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 32);
  return `mcp-key-${safe}`;
}

function addKeyScript(dialect: Dialect, user: string, key: string): string {
  const read = viewSection(dialect, sshKeyView, [{ key: "user", value: user }]);
  if (dialect.major > 7 || (dialect.major === 7 && dialect.minor >= 12)) {
    return `${commandLine("/user/ssh-keys/add", { args: { user, key } })}; ${read}`;
  }
  // Older versions import a key file: write it (`print file=` creates NAME.txt), then import.
  const file = keyFileName(user);
  return [
    `/file print file=${quoteValue(file)} where name=""`,
    ":delay 1s",
    `/file set [find where name=${quoteValue(file + ".txt")}] contents=${quoteValue(key)}`,
    `/user ssh-keys import ${renderArgs({ "public-key-file": file + ".txt", user })}`,
    read,
  ].join("; ");
}

/** `router_add_user_ssh_key`. */
export const addUserSshKey: ToolDef = {
  name: "router_add_user_ssh_key",
  title: "Add an SSH public key to a user",
  description:
    "Install an OpenSSH public key (one line: `ssh-ed25519 AAAA... comment`) for a router user, " +
    "so that user can log in with the matching private key. WARNING: once a user has a key, " +
    "RouterOS refuses password logins over SSH for that user; adding a key to the user this server " +
    "logs in with by password locks the server out, so that is refused unless allow_password_lockout " +
    "is true. Ed25519 keys need RouterOS 7.12 or later. Returns the user's keys afterwards.",
  toolset: "users",
  input: {
    user: z.string().min(1).max(255).describe("User name, e.g. backup"),
    public_key: z.string().max(4096).regex(KEY, "one OpenSSH public key line").describe(
      "OpenSSH public key line, e.g. ssh-ed25519 AAAAC3Nza... alice@laptop",
    ),
    allow_password_lockout: z.boolean().default(false).describe(
      "Allow adding a key to the user this server logs in with by password (it then stops working)",
    ),
  },
  output: { user: z.string(), keys: z.array(itemSchema(sshKeyView)) },
  annotations: WRITE,
  example: {
    user: "example-user",
    public_key:
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDnlmosE3pcyb9aH03X86BnfStWV1qAmvdhP6SkVuE9b example@mcp",
  },
  perDevice: true,
  async handler(args, { client }) {
    const user = String(args.user);
    refuseLockout(client.target, user, args.allow_password_lockout === true);
    const dialect = await client.dialect();
    const [items] = await client.write(
      dialect,
      viewSpec(sshKeyView),
      addKeyScript(dialect, user, String(args.public_key)),
      1,
    );
    const keys = typed(sshKeyView, dialect, items);
    return {
      structured: { user, keys },
      text: renderTable(keys, ["id", "user", "key_type", "bits", "info", "key_owner"]),
    };
  },
  async dryRun(args, { client }) {
    const user = String(args.user);
    const problems: string[] = [];
    try {
      refuseLockout(client.target, user, args.allow_password_lockout === true);
    } catch (e) {
      problems.push((e as Error).message);
    }
    const dialect = await client.dialect();
    const users = await readView(client, view("/user", "users", "users", { name: text("name") }), [
      { key: "name", value: user },
    ]);
    if (!users.length) problems.push(`user "${user}" does not exist`);
    const keys = await readView(client, sshKeyView, [{ key: "user", value: user }]);
    return planned([addKeyScript(dialect, user, String(args.public_key))], {
      user,
      keys: [...keys, { id: "(new)", user }],
    }, problems);
  },
};

function refuseLockout(
  target: { username: string; keyFilename?: string },
  user: string,
  allowed: boolean,
): void {
  if (!allowed && user === target.username && !target.keyFilename) {
    throw new RouterOsError(
      "invalid-value",
      `this server logs in as "${user}" with a password; a key on that user stops password logins over SSH. ` +
        "Configure key_filename for the device first, or set allow_password_lockout",
      "",
    );
  }
}

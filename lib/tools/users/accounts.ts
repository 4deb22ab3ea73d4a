/**
 * Users beyond CRUD: log out an active session, and add an SSH public key
 * to a user.
 *
 * @module
 */
import * as z from "zod";
import { cmd, refCondition } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError, UnsupportedError } from "../../routeros/errors.ts";
import { describeRange, inRange } from "../../routeros/release.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { activeUsers, sshKeys, users } from "../../routeros/schema/menus/users.ts";
import { Script } from "../../routeros/script.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, itemObject } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { DESTRUCTIVE, WRITE } from "../tool.ts";
import { keyEndsPassword } from "../guard/lockout_ssh_login.ts";

/**
 * How a session is ended, by release: `request-logout` up to 7.19 (the
 * 7.12.2 to 7.16.2 trees have it, 7.20.8 does not), `remove` from 7.20
 * (the 7.20.8 and later trees). RouterOS 6 has neither.
 */
function logoutCommand(dialect: Dialect): "request-logout" | "remove" {
  if (dialect.major < 7) {
    throw new UnsupportedError(
      `ending another user's session is not on RouterOS ${dialect.release.text}: it needs ` +
        "RouterOS 7 (RouterOS 6's /user active has no request-logout)",
    );
  }
  return inRange(dialect.release, { from: "7.20" }) ? "remove" : "request-logout";
}

function logoutScript(dialect: Dialect, id: string) {
  const script = new Script(dialect);
  const before = script.read(readSpecOf(activeUsers, dialect.release), [refCondition({ id })]);
  script.do(cmd(activeUsers.path, logoutCommand(dialect), { numbers: { id } }));
  return { script, before };
}

/** `router_disconnect_active_user`. */
export const disconnectActiveUser = defineTool({
  name: "router_disconnect_active_user",
  title: "Log out an active session",
  description:
    "End one active login session (from /user/active: ssh, winbox, api, ...), by its id. The user " +
    "can log in again; disable the user or change the password to keep them out. Returns the " +
    "session as it was. Needs RouterOS 7. Ending this server's own SSH session makes the call fail.",
  toolset: "users",
  input: { id: ID_SCHEMA.describe("Session id (.id) from the active sessions list, such as *1A") },
  output: { item: itemObject(activeUsers) },
  annotations: DESTRUCTIVE,
  perDevice: true,
  async handler(args, ctx) {
    const dialect = await ctx.client.dialect();
    const { script, before } = logoutScript(dialect, args.id);
    const [raw] = (await ctx.client.run(script, { idempotent: false, what: activeUsers.path }))
      .get(before).items;
    if (!raw) throw new RouterOsError("not-found", `no active session ${args.id}`, "no such item");
    const item = toItem(activeUsers, dialect.release, raw);
    return {
      structured: { item },
      text: renderTable([item], ["id", "name", "address", "via", "when"]),
    };
  },
  async dryRun(args, ctx) {
    const dialect = await ctx.client.dialect();
    const [raw] = await ctx.client.read(readSpecOf(activeUsers, dialect.release), [
      refCondition({ id: args.id }),
    ]).catch(() => []);
    const problems = raw ? [] : [`no active session ${args.id}`];
    let commands: string[] = [];
    try {
      commands = [logoutScript(dialect, args.id).script.toString()];
    } catch (err) {
      problems.push((err as Error).message);
    }
    return { commands, preview: raw ? toItem(activeUsers, dialect.release, raw) : {}, problems };
  },
});

const KEY =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\r\n]*)?$/;

/** Releases whose users can log in with an Ed25519 key (RouterOS 6 takes RSA and DSA keys only). */
const ED25519 = { from: "7.12" };

/** The file a public key goes through on releases that can only import it. */
function keyFileName(user: string): string {
  return `mcp-key-${user.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 32)}`;
}

/**
 * The script that installs a key, then reads the user's keys. `add key=`
 * exists from 7.12 (the 7.12.2 tree has it); RouterOS 6 imports a key file,
 * written first through `print file=` (which creates NAME.txt).
 */
function addKeyScript(dialect: Dialect, user: string, key: string) {
  if (key.startsWith("ssh-ed25519 ") && !inRange(dialect.release, ED25519)) {
    throw new UnsupportedError(
      `an Ed25519 key is not on RouterOS ${dialect.release.text}: it needs ${
        describeRange(ED25519)
      }; use an RSA key`,
    );
  }
  const script = new Script(dialect);
  if (inRange(dialect.release, { from: "7.12" })) {
    script.do(cmd(sshKeys.path, "add", { args: { user, key } }));
  } else {
    const file = keyFileName(user);
    script.do(cmd("/file", "print", { args: { file }, where: [{ key: "name", value: "" }] }));
    script.do(":delay 1s");
    script.do(cmd("/file", "set", {
      numbers: { key: "name", value: `${file}.txt` },
      args: { contents: key },
    }));
    script.do(cmd(sshKeys.path, "import", { args: { "public-key-file": `${file}.txt`, user } }));
  }
  const keys = script.read(readSpecOf(sshKeys, dialect.release), [{ key: "user", value: user }]);
  return { script, keys };
}

/** `router_add_user_ssh_key`. */
export const addUserSshKey = defineTool({
  name: "router_add_user_ssh_key",
  title: "Add an SSH public key to a user",
  description:
    "Install an OpenSSH public key (one line: `ssh-ed25519 AAAA... comment`) for a router user, " +
    "so that user can log in with the matching private key. Once a user has a key, RouterOS " +
    "refuses password logins over SSH for that user. Ed25519 keys need RouterOS 7.12 or later. " +
    "Returns the user's keys afterwards.",
  toolset: "users",
  input: {
    user: z.string().min(1).max(255).describe("User name, e.g. backup"),
    public_key: z.string().max(4096).regex(KEY, "one OpenSSH public key line").describe(
      "OpenSSH public key line, e.g. ssh-ed25519 AAAAC3Nza... alice@laptop",
    ),
  },
  output: { user: z.string(), keys: z.array(itemObject(sshKeys)) },
  annotations: WRITE,
  role: "admin",
  example: {
    user: "example-user",
    public_key:
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDnlmosE3pcyb9aH03X86BnfStWV1qAmvdhP6SkVuE9b example@mcp",
  },
  perDevice: true,
  lockout: (args, ctx) => keyEndsPassword(args.user, ctx),
  async handler(args, ctx) {
    const dialect = await ctx.client.dialect();
    const { script, keys } = addKeyScript(dialect, args.user, args.public_key);
    const out = await ctx.client.run(script, { idempotent: false, what: sshKeys.path });
    const items = out.get(keys).items.map((r) => toItem(sshKeys, dialect.release, r));
    return {
      structured: { user: args.user, keys: items },
      text: renderTable(items, ["id", "user", "key_type", "bits", "info", "key_owner"]),
    };
  },
  async dryRun(args, ctx) {
    const dialect = await ctx.client.dialect();
    const problems: string[] = [];
    const found = await ctx.client.read(readSpecOf(users, dialect.release), [
      { key: "name", value: args.user },
    ]);
    if (!found.length) problems.push(`user "${args.user}" does not exist`);
    const keys = (await ctx.client.read(readSpecOf(sshKeys, dialect.release), [
      { key: "user", value: args.user },
    ])).map((r) => toItem(sshKeys, dialect.release, r));
    return {
      commands: [addKeyScript(dialect, args.user, args.public_key).script.toString()],
      preview: { user: args.user, keys: [...keys, { id: "(new)", user: args.user }] },
      problems,
    };
  },
});

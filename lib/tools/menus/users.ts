/**
 * User menus: users, groups, active sessions and SSH keys.
 *
 * @module
 */
import { flag, list, num, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, FLAGS_X } from "./common.ts";

/** `/user`: router login accounts. */
export const users: Menu = {
  path: "/user",
  toolset: "users",
  singular: "user",
  plural: "users",
  noun: "router users",
  notes: "The password is write-only: RouterOS never shows it, and it is masked here. group " +
    "is read, write, full or a custom group. Removing or disabling the user this server " +
    "logs in as cuts its access.",
  key: "name",
  fields: {
    name: text("Login name", { required: true }),
    group: text("Group that sets the user's rights: read, write, full or custom", {
      required: true,
      ref: "/user/group",
    }),
    password: text("Password (write-only; never shown)", { secret: true }),
    address: list("Addresses or prefixes the user may log in from (empty: anywhere)"),
    "last-logged-in": state(text("When the user last logged in")),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "group", "address", "last-logged-in", "disabled", "comment"],
  flags: FLAGS_X,
  example: {
    add: { name: "example-user", group: "read", password: "Example-Pa55", comment: "example" },
    update: { group: "write", password: "Changed-Pa55" },
  },
};

/** `/user/group`: sets of policies users get. */
export const userGroups: Menu = {
  path: "/user/group",
  toolset: "users",
  singular: "user_group",
  plural: "user_groups",
  noun: "user groups",
  notes: "Policies: local, telnet, ssh, ftp, reboot, read, write, policy, test, winbox, " +
    "password, web, sniff, sensitive, api, romon, rest-api. sensitive allows seeing secrets; " +
    "policy allows managing users. The built-in groups read, write and full cannot be removed.",
  key: "name",
  fields: {
    name: text("Group name", { required: true }),
    policy: list('Policies granted, e.g. ["read", "test", "ssh"]', { required: true }),
    skin: text("WebFig skin (default: default)"),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "policy", "skin", "comment"],
  flags: {},
  example: {
    add: { name: "example-group", policy: ["read", "test", "ssh"], comment: "example" },
    update: { policy: ["read", "ssh"] },
  },
};

/** `/user/active`: sessions logged in now. */
export const activeUsers: Menu = {
  path: "/user/active",
  toolset: "users",
  singular: "active_user",
  plural: "active_users",
  noun: "active user sessions",
  notes: "Read-only: who is logged in now, from where and how (via ssh, winbox, api...). " +
    "This server's own SSH session is one of them.",
  fields: {
    name: state(text("User name")),
    when: state(text("When the session started")),
    address: state(text("Address the user came from")),
    via: state(text("How: console, ssh, telnet, winbox, web, api, ftp...")),
    group: state(text("User's group")),
    radius: state(flag("Whether RADIUS authenticated the user")),
  },
  verbs: ["list"],
  columns: ["name", "when", "address", "via", "group"],
  flags: { R: "radius" },
};

/** `/user/ssh-keys`: public keys that may log in over SSH. */
export const sshKeys: Menu = {
  path: "/user/ssh-keys",
  toolset: "users",
  singular: "ssh_key",
  plural: "ssh_keys",
  noun: "user SSH public keys",
  notes: "Once a user has a key, RouterOS refuses password logins over SSH for that user. " +
    "Removing the key this server uses locks it out.",
  fields: {
    user: state(text("User the key belongs to", { ref: "/user" })),
    "key-type": state(text("Key type, e.g. rsa or ed25519", { versions: { min: "7.12" } })),
    bits: state(num("Key length in bits")),
    "key-owner": state(text("Comment of the key (usually user@host)")),
    comment: state(text("Comment")),
  },
  verbs: ["list", "remove"],
  columns: ["user", "key-type", "bits", "key-owner"],
  flags: {},
};

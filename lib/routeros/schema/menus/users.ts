/**
 * Schema of the users menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, int, list, ref, state, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/user`. */
export const users = menu({
  path: "/user",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    name: text("Login name", { required: true }),
    group: ref("/user/group", "Group that sets the user's rights: read, write, full or custom", {
      required: true,
    }),
    password: text("Password (write-only; never shown)", { secret: true }),
    address: list("Addresses or prefixes the user may log in from (empty: anywhere)", {
      item: "address",
    }),
    "last-logged-in": state(text("When the user last logged in")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/user/group`. */
export const userGroups = menu({
  path: "/user/group",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: {},
  fields: {
    name: text("Group name", { required: true }),
    policy: list('Policies granted, e.g. ["read", "test", "ssh"]', { required: true }),
    skin: text("WebFig skin (default: default)"),
    comment: comment(),
  },
});

/** `/user/active`. */
export const activeUsers = menu({
  path: "/user/active",
  kind: "list",
  exports: false,
  // Before 7.20 a session is ended with request-logout (see lib/tools).
  writes: [["add", { from: "7.20" }], ["remove", { from: "7.20" }]],
  flags: { "R": "radius" },
  fields: {
    name: state(text("User name")),
    when: state(text("When the session started")),
    address: state(text("Address the user came from")),
    via: state(text("How: console, ssh, telnet, winbox, web, api, ftp...")),
    group: state(text("User's group")),
    radius: state(bool("Whether RADIUS authenticated the user")),
  },
});

/** `/user/ssh-keys`. */
export const sshKeys = menu({
  path: "/user/ssh-keys",
  kind: "list",
  exports: false,
  writes: ["add", "remove"],
  flags: {},
  fields: {
    user: state(ref("/user", "User the key belongs to")),
    "key-type": state(text("Key type, e.g. rsa or ed25519", { releases: { from: "7.12" } })),
    bits: state(int("Key length in bits")),
    "key-owner": state(
      text("Comment of the key (usually user@host; RouterOS 6)", { releases: { until: "6.49" } }),
    ),
    comment: state(text("Comment")),
    info: state(text("The key's own comment (user@host)", { releases: { from: "7.12" } })),
    fingerprint: state(text("Key fingerprint", { releases: { from: "7.12" } })),
  },
});

/** The menus of this family. */
export const USERS_SCHEMAS: readonly MenuSchema[] = [
  users,
  userGroups,
  activeUsers,
  sshKeys,
];

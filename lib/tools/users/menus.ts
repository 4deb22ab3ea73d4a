/**
 * Tools of the users menus and of the password policy: toolset, names,
 * verbs, columns, notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/users.ts and management.ts (`/user/settings`).
 *
 * @module
 */
import { activeUsers, sshKeys, userGroups, users } from "../../routeros/schema/menus/users.ts";
import { userSettings } from "../../routeros/schema/menus/management.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { ownGroup, ownUser } from "../guard/lockout.ts";
import { ownSshKey } from "../guard/lockout_ssh_login.ts";

/** `/user`. */
const usersTools: MenuTools = {
  schema: users,
  writeRole: "admin",
  toolset: "users",
  noun: noun("user", "router user"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "group", "address", "last-logged-in", "disabled", "comment"],
  notes:
    "The password is write-only: RouterOS never shows it, and it is masked here. group is read, write, full or a custom group. Removing or disabling the user this server logs in as cuts its access.",
  example: {
    "add": {
      "name": "example-user",
      "group": "read",
      "password": "Example-Pa55",
      "comment": "example",
    },
    "update": { "group": "write", "password": "Changed-Pa55" },
  },
  lockout: ownUser,
};

/** `/user/group`. */
const userGroupsTools: MenuTools = {
  schema: userGroups,
  writeRole: "admin",
  toolset: "users",
  noun: noun("user_group", "user group"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "policy", "skin", "comment"],
  notes:
    "Policies: local, telnet, ssh, ftp, reboot, read, write, policy, test, winbox, password, web, sniff, sensitive, api, romon, rest-api. sensitive allows seeing secrets; policy allows managing users. The built-in groups read, write and full cannot be removed.",
  example: {
    "add": { "name": "example-group", "policy": ["read", "test", "ssh"], "comment": "example" },
    "update": { "policy": ["read", "ssh"] },
  },
  lockout: ownGroup,
};

/** `/user/active`. */
const activeUsersTools: MenuTools = {
  schema: activeUsers,
  toolset: "users",
  noun: noun("active_user", "active user session"),
  verbs: ["list"],
  columns: ["name", "when", "address", "via", "group"],
  notes:
    "Read-only: who is logged in now, from where and how (via ssh, winbox, api...). This server's own SSH session is one of them.",
};

/** `/user/ssh-keys`. */
const sshKeysTools: MenuTools = {
  schema: sshKeys,
  writeRole: "admin",
  toolset: "users",
  noun: noun("ssh_key", "user SSH public key"),
  verbs: ["list", "remove"],
  columns: ["user", "key-type", "bits", "key-owner"],
  notes:
    "Once a user has a key, RouterOS refuses password logins over SSH for that user. Removing the key this server uses locks it out.",
  lockout: ownSshKey,
};

/** `/user/settings` (RouterOS 7). */
const userSettingsTools: MenuTools = {
  schema: userSettings,
  toolset: "users",
  noun: noun("user_settings", "password policy"),
  verbs: ["get", "update"],
  columns: ["minimum-password-length", "minimum-categories"],
  notes: "RouterOS 7. Applies to passwords set from now on; existing ones are not checked.",
  example: { update: { minimum_password_length: 12 } },
};

/** The menus of this family, in catalogue order. */
export const USERS_MENU_TOOLS: readonly MenuTools[] = [
  usersTools,
  userGroupsTools,
  activeUsersTools,
  sshKeysTools,
  userSettingsTools,
];

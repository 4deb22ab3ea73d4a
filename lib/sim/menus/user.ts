/**
 * `/user`, `/user/group`, `/user/ssh-keys`, `/user/active`.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { COMMENT, DISABLED, F_DISABLED, ro, str } from "./common.ts";
import { describeKey } from "../auth.ts";
import { fail } from "../errors.ts";

const POLICIES = [
  "local",
  "telnet",
  "ssh",
  "ftp",
  "reboot",
  "read",
  "write",
  "policy",
  "test",
  "winbox",
  "password",
  "web",
  "sniff",
  "sensitive",
  "api",
  "romon",
  "rest-api",
];

/** Policies of the built-in groups. */
export const GROUP_POLICIES: Record<string, string> = {
  read:
    "local,telnet,ssh,reboot,read,test,winbox,password,web,sniff,api,romon,rest-api,!ftp,!write,!policy,!sensitive",
  write:
    "local,telnet,ssh,reboot,read,write,test,winbox,password,web,sniff,api,romon,rest-api,!ftp,!policy,!sensitive",
  full:
    "local,telnet,ssh,ftp,reboot,read,write,policy,test,winbox,password,web,sniff,sensitive,api,romon,rest-api",
};

/** `/user`. */
export const USER: MenuDef = {
  path: "/user",
  kind: "list",
  key: "name",
  policy: true,
  props: [
    str("name", { required: true }),
    { name: "group", type: "ref", ref: "/user/group", required: true },
    str("password", { secret: true, default: "" }),
    str("address", { default: "" }),
    ro("last-logged-in", "str"),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  noExport: true,
  columns: ["name", "group", "address", "last-logged-in"],
  columns6: ["name", "group", "address", "last-logged-in"],
  unique: [{ props: ["name"], error: "failure: user with the same name already exists" }],
  defaults: (st) =>
    st.init.users.map((u) => ({
      name: u.name,
      group: u.group ?? "full",
      password: u.password ?? "",
      address: "",
      disabled: "false",
      ...(u.name === "admin" ? { comment: "system default user" } : {}),
    })),
};

/** `/user/group`. */
export const USER_GROUP: MenuDef = {
  path: "/user/group",
  kind: "list",
  key: "name",
  policy: true,
  props: [
    str("name", { required: true }),
    { name: "policy", type: "list", values: POLICIES, default: "" },
    str("skin", { default: "default" }),
    COMMENT,
  ],
  columns: ["name", "policy", "skin"],
  exportSkip: (it) => GROUP_POLICIES[it.name] === it.policy,
  unique: [{ props: ["name"], error: "failure: group with the same name already exists" }],
  defaults: () =>
    ["read", "write", "full"].map((name) => ({
      name,
      policy: GROUP_POLICIES[name],
      skin: "default",
    })),
};

/** `/user/ssh-keys`. */
export const SSH_KEYS: MenuDef = {
  path: "/user/ssh-keys",
  kind: "list",
  policy: true,
  // no set, enable, disable or comment in any 7.x tree
  verbs: ["print", "find", "get", "add", "remove"],
  // `add user= key=` from 7.12; before, keys come only from `import public-key-file=`
  addReleases: { from: "7.12" },
  props: [
    { name: "user", type: "ref", ref: "/user", required: true },
    str("key", { secret: true, required: true }),
    ro("key-type", "str"),
    ro("bits", "int"),
    ro("key-owner", "str"),
    ro("info", "str"),
    COMMENT,
  ],
  noExport: true,
  check: (it, st, old) => {
    if (old && old.key === it.key) return;
    const d = describeKey(it.key);
    if (typeof d === "string" || (st.v6 && d.type === "ed25519")) {
      throw fail("failure: unable to load key file (wrong format or bad passphrase)!");
    }
    it["key-type"] = d.type;
    it.bits = d.bits;
    it["key-owner"] = d.owner;
    it.info = d.owner;
  },
  commands: {
    import: {
      args: ["public-key-file", "user"],
      write: true,
      run: (c) => {
        const file = c.named.get("public-key-file") ?? "";
        const user = c.named.get("user") ?? c.user;
        const f = c.st.table("/file").items.find((x) => x.name === file);
        if (!f) throw fail("failure: no such file");
        if (!c.st.findByKey("/user", user)) throw fail("input does not match any value of user");
        const d = describeKey(f.contents ?? "");
        if (typeof d === "string" || (c.st.v6 && d.type === "ed25519")) {
          throw fail("failure: unable to load key file (wrong format or bad passphrase)!");
        }
        const t = c.st.table("/user/ssh-keys");
        t.items.push({
          ".id": c.st.newId(t),
          user,
          key: (f.contents ?? "").trim(),
          "key-type": d.type,
          bits: d.bits,
          "key-owner": d.owner,
          info: d.owner,
        });
        c.st.touch();
      },
    },
  },
  columns: ["user", "key-type", "bits", "key-owner"],
  columns6: ["user", "bits", "key-owner"],
};

/** User menus. */
export const USER_MENUS: MenuDef[] = [USER, USER_GROUP, SSH_KEYS];

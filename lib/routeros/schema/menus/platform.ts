/**
 * Schema of the platform menus: certificates, scripts, logging rules and
 * actions, containers. RouterOS facts only; tools live in lib/tools.
 *
 * @module
 */
import { bool, duration, int, list, mac, oneOf, ref, scriptText, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** `/certificate`. */
export const certificates = menu({
  path: "/certificate",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: {
    "K": "private-key",
    "A": "authority",
    "I": "issued",
    "R": "revoked",
    "E": "expired",
    "T": "trusted",
  },
  fields: {
    name: text("Certificate name"),
    "common-name": text("Subject common name (CN)"),
    "subject-alt-name": text("Subject alternative names, e.g. DNS:vpn.example.com"),
    "key-size": text("Key size or curve, e.g. 2048 or prime256v1"),
    "days-valid": int("Validity in days"),
    "key-usage": list('What the key may do, e.g. ["key-cert-sign", "crl-sign"] for a CA'),
    trusted: bool("Trusted as a CA for verifying peers"),
    issuer: state(text("Issuer")),
    fingerprint: state(text("SHA-256 fingerprint")),
    "serial-number": state(text("Serial number")),
    "invalid-before": state(text("Not valid before")),
    "invalid-after": state(text("Not valid after")),
    "expires-after": state(text("Time left until it expires", { releases: V7 })),
    "private-key": state(bool("Whether the router holds its private key")),
    ca: state(bool("Whether it is a CA certificate")),
    expired: state(bool("Whether it has expired")),
  },
});

/** `/system/script`. */
export const scripts = menu({
  path: "/system/script",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: { "I": "invalid" },
  fields: {
    name: text("Script name (scheduler tasks and other scripts run it by name)", {
      required: true,
    }),
    source: scriptText("Script text (RouterOS scripting language)"),
    policy: list('Policies it runs with, e.g. ["read", "write", "test"]'),
    "dont-require-permissions": bool("Run with the script's policies whoever starts it"),
    owner: state(text("User who created it")),
    "run-count": state(int("How many times it ran")),
    "last-started": state(text("When it last started")),
    invalid: state(bool("Invalid")),
    comment: comment(),
  },
});

/** `/system/logging/action`. */
export const loggingActions = menu({
  path: "/system/logging/action",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: { "*": "default" },
  fields: {
    name: text("Action name (memory, disk, echo and remote are built in)", { required: true }),
    target: oneOf(
      ["disk", "echo", "email", "memory", "remote", ["script", { from: "7.22" }]],
      "Where messages go",
    ),
    remote: text("Syslog server address (target remote)"),
    // 7.22 on: target script runs this for each message (its text, or a /system/script's name).
    script: scriptText("Script run for each message (target script)", {
      releases: { from: "7.22" },
    }),
    "remote-port": int("Syslog server port (default 514)", { min: 1, max: 65535 }),
    "src-address": text("Source address of syslog packets"),
    "syslog-facility": oneOf([
      "auth",
      "authpriv",
      "cron",
      "daemon",
      "ftp",
      "kern",
      "local0",
      "local1",
      "local2",
      "local3",
      "local4",
      "local5",
      "local6",
      "local7",
      "lpr",
      "mail",
      "news",
      "ntp",
      "syslog",
      "user",
      "uucp",
    ], "Syslog facility"),
    "syslog-severity": oneOf(
      ["alert", "auto", "critical", "debug", "emergency", "error", "info", "notice", "warning"],
      "Syslog severity (auto: from the topics)",
    ),
    "memory-lines": int("Lines kept in memory (target memory)", { min: 1 }),
    "disk-file-name": text("File name (target disk)"),
    "disk-file-count": int("Files kept (target disk)", { min: 1 }),
    "disk-lines-per-file": int("Lines per file (target disk)", { min: 1 }),
    "email-to": text("Recipient (target email)"),
    remember: bool("Keep messages shown by echo for new sessions"),
    default: state(bool("Built-in action", { releases: V7 })),
    comment: comment(),
  },
});

/** `/system/logging`. */
export const loggingRules = menu({
  path: "/system/logging",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "*": "default" },
  fields: {
    topics: list('Topics to log, e.g. ["firewall"] or ["ospf", "!debug"]', { required: true }),
    action: ref("/system/logging/action", "Action that takes the messages (default memory)"),
    prefix: text("Text put before each message"),
    default: state(bool("Built-in rule", { releases: V7 })),
    invalid: state(bool("Invalid (its action is gone)")),
    disabled: disabled(),
  },
});

/** `/container` (the container package, RouterOS 7.4 and later). */
export const containers = menu({
  path: "/container",
  kind: "list",
  writes: ["add", "set", "remove"],
  releases: { from: "7.4" },
  package: "container",
  flags: { "R": "running", "S": "stopped", "E": "extracting" },
  fields: {
    name: text("Container name", { releases: { from: "7.20" } }),
    "remote-image": text(
      "Image to pull, e.g. library/nginx:latest (registry in /container/config)",
    ),
    file: text("Or an image tar file on the router"),
    interface: text("veth interface of the container, e.g. veth1"),
    "root-dir": text("Where its files go, e.g. usb1/nginx"),
    cmd: text("Command (overrides the image's)"),
    entrypoint: text("Entry point (overrides the image's)"),
    hostname: text("Host name inside the container"),
    dns: text("DNS servers inside the container"),
    workdir: text("Working directory"),
    user: text("User to run as"),
    logging: bool("Send its output to the router's log"),
    "start-on-boot": bool("Start it when the router boots"),
    status: state(text("stopped, running, extracting or error")),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/**
 * `/container/envs`: environment variables, in named lists a container
 * takes (its envlist). The list's name is `name` up to 7.16 and `list` in
 * 7.20 (the real trees; 7.17 to 7.19 are taken to keep `name`).
 */
export const containerEnvs = menu({
  path: "/container/envs",
  kind: "list",
  writes: ["add", "set", "remove", ["enable", { from: "7.22" }], ["disable", { from: "7.22" }]],
  releases: { from: "7.4" },
  package: "container",
  flags: { "X": "disabled" },
  fields: {
    name: text("List the variable belongs to (a container's envlist)", {
      releases: { until: "7.19" },
    }),
    list: text("List the variable belongs to (a container's envlists)", {
      releases: { from: "7.20" },
    }),
    key: text("Variable name, e.g. TZ", { required: true }),
    value: text("Variable value (readable: keep secrets out)"),
    disabled: { ...disabled(), releases: { from: "7.22" } },
    comment: comment(),
  },
});

/**
 * `/container/mounts`: host directories mounted into containers. Named by
 * `name` up to 7.20 and `list` from 7.22; `read-only` in 7.20 and 7.22
 * (7.24 has `mode` instead).
 */
export const containerMounts = menu({
  path: "/container/mounts",
  kind: "list",
  writes: ["add", "set", "remove", ["enable", { from: "7.22" }], ["disable", { from: "7.22" }]],
  releases: { from: "7.4" },
  package: "container",
  flags: { "X": "disabled" },
  fields: {
    name: text("Mount name (a container's mounts)", { releases: { until: "7.21" } }),
    list: text("Mount list (a container's mountlists)", { releases: { from: "7.22" } }),
    src: text("Directory on the router, e.g. disk1/nginx-conf", { required: true }),
    dst: text("Path inside the container, e.g. /etc/nginx", { required: true }),
    "read-only": bool("Mounted read-only", { releases: { from: "7.20", until: "7.22" } }),
    disabled: { ...disabled(), releases: { from: "7.22" } },
    comment: comment(),
  },
});

/** `/container/config`. */
export const containerConfig = menu({
  path: "/container/config",
  kind: "singleton",
  writes: ["set"],
  releases: { from: "7.4" },
  package: "container",
  fields: {
    "registry-url": text("Image registry, e.g. https://registry-1.docker.io"),
    username: text("Registry user name"),
    password: text("Registry password (write-only: masked in all output)", { secret: true }),
    tmpdir: text("Where images are unpacked, e.g. disk1/pull"),
    "layer-dir": text("Where image layers are kept"),
  },
});

/** `/radius`. */
export const radiusServers = menu({
  path: "/radius",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled" },
  fields: {
    // With /user aaa use-radius=yes, a login server answers the router's
    // own logins (Winbox, SSH, API, WebFig) and its Access-Accept names the
    // user's group (Mikrotik-Group=full): who runs it manages the router.
    service: list('Services that ask it, e.g. ["ppp", "login"] (login: router users)', {
      required: true,
      privileged: "RADIUS for the router's own logins, whose answers grant any user group",
      privilegedValues: ["login"],
    }),
    address: text("RADIUS server address", { required: true }),
    secret: text("Shared secret (write-only: masked in all output)", { secret: true }),
    "authentication-port": int("Authentication port (default 1812)", { min: 1, max: 65535 }),
    "accounting-port": int("Accounting port (default 1813)", { min: 1, max: 65535 }),
    timeout: duration("How long to wait for an answer, e.g. 300ms"),
    "src-address": text("Source address of requests"),
    realm: text("Realm added to user names"),
    protocol: oneOf(["radsec", "udp"], "udp, or radsec (RADIUS over TLS)", { releases: V7 }),
    disabled: disabled(),
    comment: comment(),
  },
});

/** RouterOS 7's User Manager (the user-manager package; RouterOS 6 had `/tool user-manager`). */
const USER_MANAGER = { releases: { from: "7.1" }, package: "user-manager" };

const UM_GROUPS = "/user-manager/user/group";

/**
 * A User Manager user or group whose `attributes` name a router user group
 * (`Mikrotik-Group:full`): when the router's own logins go to its User
 * Manager (a login RADIUS server at 127.0.0.1, `/user aaa use-radius=yes`),
 * such a user logs in to the router with that group's policies, as a `/user`
 * would. Other attributes (rate limits, addresses) stay operate's.
 */
const ROUTER_LOGIN_ATTRIBUTE = {
  privileged: "a login to the router with the user group its Mikrotik-Group attribute names, " +
    "when the router's logins go to User Manager",
  privilegedValues: ["mikrotik-group:"],
} as const;

/** `/user-manager/user`. */
export const userManagerUsers = menu({
  path: "/user-manager/user",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  ...USER_MANAGER,
  flags: { "X": "disabled" },
  fields: {
    name: text("User name", { required: true }),
    password: text("Password (write-only: masked in all output)", { secret: true }),
    group: ref(UM_GROUPS, "User Manager group (default: default)", {
      privilegedThrough: { path: UM_GROUPS, field: "attributes", items: "named" },
    }),
    "shared-users": int("Sessions the user may have at once", { min: 1 }),
    "caller-id": text("Only from this caller id (MAC for hotspot/PPPoE)"),
    attributes: text(
      "RADIUS attributes sent back, e.g. Mikrotik-Rate-Limit:10M/10M",
      ROUTER_LOGIN_ATTRIBUTE,
    ),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/user-manager/user/group`: read here; written by admin's raw commands only. */
export const userManagerGroups = menu({
  path: UM_GROUPS,
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  ...USER_MANAGER,
  fields: {
    name: text("Group name", { required: true }),
    attributes: text(
      "RADIUS attributes sent back for each of its users, e.g. Mikrotik-Rate-Limit:10M/10M",
      ROUTER_LOGIN_ATTRIBUTE,
    ),
    "inner-auths": list("Inner authentication methods (EAP tunnels)"),
    "outer-auths": list("Authentication methods: pap, chap, mschap2, eap-tls..."),
    comment: comment(),
  },
});

/** `/user-manager/router`. */
export const userManagerRouters = menu({
  path: "/user-manager/router",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  ...USER_MANAGER,
  flags: { "X": "disabled" },
  fields: {
    name: text("Router (NAS) name", { required: true }),
    address: text("Address the NAS sends RADIUS requests from", { required: true }),
    "shared-secret": text("RADIUS shared secret (write-only: masked in all output)", {
      secret: true,
    }),
    "coa-port": int("Change-of-authorization port (default 3799)", { min: 1, max: 65535 }),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/hotspot`. */
export const hotspotServers = menu({
  path: "/ip/hotspot",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "S": "HTTPS" },
  fields: {
    name: text("Server name"),
    interface: ref("/interface", "Interface clients connect on (usually a bridge)", {
      required: true,
    }),
    "address-pool": text("IP pool for clients without an address (none: use theirs)"),
    profile: text("Hotspot server profile (login page, RADIUS, DNS name)"),
    "addresses-per-mac": text("Addresses a client MAC may use (a number or unlimited)"),
    "idle-timeout": duration("Log out after this long without traffic (none: never)", {
      words: ["none"],
    }),
    "login-timeout": duration("How long an unauthorized client may stay (none: forever)", {
      words: ["none"],
    }),
    invalid: state(bool("Invalid (its interface or pool is gone)")),
    disabled: disabled(),
  },
});

/** `/ip/hotspot/user`. */
export const hotspotUsers = menu({
  path: "/ip/hotspot/user",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic", "*": "default" },
  fields: {
    name: text("User name", { required: true }),
    password: text("Password (write-only: masked in all output)", { secret: true }),
    profile: text("User profile (rate limit, shared users; default: default)"),
    server: text("Hotspot server the user may log in to (all: any)"),
    "mac-address": mac("Only from this MAC address"),
    address: text("Address given to the user"),
    "limit-uptime": duration("Total time the user may be logged in (0s: no limit)"),
    "limit-bytes-total": int("Bytes the user may transfer in total (0: no limit)", { min: 0 }),
    uptime: state(text("Time logged in so far")),
    default: state(bool("The built-in default-trial user", { releases: { from: "7.0" } })),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/hotspot/active`. */
export const hotspotActive = menu({
  path: "/ip/hotspot/active",
  kind: "list",
  writes: [["add", { until: "7.20" }], ["set", { until: "7.20" }], "remove"],
  exports: false,
  flags: { "R": "radius", "B": "blocked" },
  fields: {
    user: state(text("User logged in")),
    server: state(text("Hotspot server")),
    address: state(text("Client address")),
    "mac-address": state(text("Client MAC address")),
    uptime: state(text("How long the session has been up")),
    "login-by": state(text("How the user logged in, e.g. http-chap, mac, trial")),
    "session-time-left": state(text("Time left before the limit logs the user out")),
  },
});

/** The menus of this family. */
export const PLATFORM_SCHEMAS: readonly MenuSchema[] = [
  certificates,
  scripts,
  loggingActions,
  loggingRules,
  containers,
  containerEnvs,
  containerMounts,
  containerConfig,
  radiusServers,
  userManagerUsers,
  userManagerGroups,
  userManagerRouters,
  hotspotServers,
  hotspotUsers,
  hotspotActive,
];

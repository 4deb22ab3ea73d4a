/**
 * Tools of the platform menus (certificates, scripts, logging, containers):
 * toolset, names, verbs, columns, notes and examples. The RouterOS facts
 * are in lib/routeros/schema/menus/platform.ts.
 *
 * @module
 */
import {
  certificates,
  containerConfig,
  containerEnvs,
  containerMounts,
  containers,
  hotspotActive,
  hotspotServers,
  hotspotUsers,
  loggingActions,
  loggingRules,
  radiusServers,
  scripts,
  userManagerGroups,
  userManagerRouters,
  userManagerUsers,
} from "../../routeros/schema/menus/platform.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { hotspotOn } from "../guard/lockout_members.ts";

/** `/certificate`. */
const certificatesTools: MenuTools = {
  schema: certificates,
  toolset: "platform",
  noun: noun("certificate", "certificate"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "common-name", "issuer", "invalid-after", "private-key", "trusted"],
  notes:
    "Certificates the router holds: for SSTP/OpenVPN/IPsec/HTTPS, or trusted CAs that verify peers. add makes a template; router_sign_certificate gives it its key. Private keys are never shown. Removing one that a service uses breaks that service.",
  example: {
    "add": {
      "name": "cert-example",
      "common_name": "ca.example",
      "key_usage": ["key-cert-sign", "crl-sign"],
      "days_valid": 3650,
    },
    "update": { "trusted": true },
  },
};

/** `/system/script`. */
const scriptsTools: MenuTools = {
  schema: scripts,
  writeRole: "admin",
  toolset: "platform",
  noun: noun("script", "system script"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "owner", "policy", "run-count", "last-started", "comment"],
  notes:
    "Named RouterOS scripts, run by the scheduler, netwatch or router_run_script. policy limits what a script may do.",
  example: {
    "add": {
      "name": "script-example",
      "source": ':log info "example"',
      "policy": ["read", "write", "test"],
      "comment": "example",
    },
    "update": { "source": ':log info "changed"' },
  },
};

/** `/system/logging/action`. */
const loggingActionsTools: MenuTools = {
  schema: loggingActions,
  toolset: "platform",
  noun: noun("logging_action", "logging action"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "target", "remote", "remote-port", "memory-lines", "default"],
  notes:
    "Where logging rules send messages: memory (the log), disk, echo (console), remote (syslog server) or email. memory, disk, echo and remote are built in.",
  example: {
    "add": {
      "name": "syslog-example",
      "target": "remote",
      "remote": "192.0.2.60",
      "remote_port": 514,
    },
    "update": { "syslog_facility": "local0" },
  },
};

/** `/system/logging`. */
const loggingRulesTools: MenuTools = {
  schema: loggingRules,
  toolset: "platform",
  noun: noun("logging_rule", "logging rule"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["topics", "action", "prefix", "default", "disabled"],
  notes:
    'Which topics go to which action: e.g. topics ["firewall"] to a remote action sends firewall log lines to syslog. A message matches when it has all listed topics (!topic excludes).',
  example: {
    "requires": ["/system/logging/action"],
    "add": { "topics": ["firewall"], "action": "syslog-example", "prefix": "fw" },
    "update": { "prefix": "firewall" },
  },
};

/** `/container`. */
const containersTools: MenuTools = {
  schema: containers,
  writeRole: "admin",
  toolset: "platform",
  noun: noun("container", "container"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "remote-image", "interface", "root-dir", "status", "comment"],
  notes:
    "OCI containers on the router: needs the container package and device-mode container. interface is a veth interface; root_dir should be on external storage.",
  example: {
    "add": {
      "remote_image": "library/nginx:latest",
      "interface": "veth1",
      "root_dir": "disk1/nginx",
      "comment": "example",
    },
    "update": { "start_on_boot": true },
  },
};

/** `/container/config`. */
const containerConfigTools: MenuTools = {
  schema: containerConfig,
  writeRole: "admin",
  toolset: "platform",
  noun: noun("container_config", "container settings"),
  verbs: ["get", "update"],
  columns: ["registry-url", "username", "tmpdir", "layer-dir"],
  notes: "Where images come from and where they are unpacked; the registry password is write-only.",
  example: { "update": { "registry_url": "https://registry-1.docker.io", "tmpdir": "disk1/pull" } },
};

/** `/container/envs`. */
const containerEnvsTools: MenuTools = {
  schema: containerEnvs,
  writeRole: "admin",
  toolset: "platform",
  noun: noun("container_env", "container environment variable"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "list", "key", "value", "disabled"],
  notes:
    "Environment variables in named lists; a container takes a list by name (its envlist). The list is `name` up to RouterOS 7.19 and `list` from 7.20. Values are readable: keep secrets out.",
  example: {
    "add": { "name": "env-example", "list": "env-example", "key": "TZ", "value": "UTC" },
    "update": { "value": "Europe/Riga" },
  },
};

/** `/container/mounts`. */
const containerMountsTools: MenuTools = {
  schema: containerMounts,
  writeRole: "admin",
  toolset: "platform",
  noun: noun("container_mount", "container mount"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "list", "src", "dst", "disabled"],
  notes:
    "A router directory (src) seen inside containers at dst; a container takes mounts by name. Named by `name` up to RouterOS 7.21 and `list` from 7.22.",
  example: {
    "add": {
      "name": "mount-example",
      "list": "mount-example",
      "src": "disk1/conf",
      "dst": "/conf",
    },
    "update": { "dst": "/etc/conf" },
  },
};

/** `/radius`. */
const radiusServersTools: MenuTools = {
  schema: radiusServers,
  toolset: "platform",
  noun: noun("radius_server", "RADIUS server"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable", "move"],
  columns: ["service", "address", "protocol", "timeout", "disabled", "comment"],
  notes:
    "Servers that authenticate PPP, router logins (login, with /user aaa use-radius), hotspot, wifi and 802.1X; asked in order. The secret is write-only.",
  example: {
    "add": {
      "service": ["ppp"],
      "address": "192.0.2.70",
      "secret": "Example-Radius-1",
      "comment": "example",
    },
    "update": { "timeout": "1s" },
  },
};

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;

/** `/user-manager/user`. */
const userManagerUsersTools: MenuTools = {
  schema: userManagerUsers,
  toolset: "platform",
  noun: noun("user_manager_user", "User Manager user"),
  verbs: VERBS,
  columns: ["name", "group", "shared-users", "caller-id", "disabled", "comment"],
  notes:
    "Users of the router's own RADIUS server (User Manager), for PPP, hotspot and 802.1X on this and other routers. The password is write-only.",
  example: {
    "add": { "name": "um-example", "password": "Example-Um-1", "comment": "example" },
    "update": { "shared_users": 2 },
  },
};

/** `/user-manager/user/group`: read only (its attributes may grant router logins). */
const userManagerGroupsTools: MenuTools = {
  schema: userManagerGroups,
  toolset: "platform",
  noun: noun("user_manager_group", "User Manager group"),
  verbs: ["list", "get"],
  columns: ["name", "attributes", "outer-auths", "comment"],
  notes:
    "Groups of User Manager users; a group's attributes go back to each of its users. Read only here.",
  example: { target: { name: "default" } },
};

/** `/user-manager/router`. */
const userManagerRoutersTools: MenuTools = {
  schema: userManagerRouters,
  toolset: "platform",
  noun: noun("user_manager_router", "User Manager router (NAS)", {
    many: "User Manager routers (NASes)",
  }),
  verbs: VERBS,
  columns: ["name", "address", "coa-port", "disabled", "comment"],
  notes:
    "Routers allowed to ask User Manager; each needs the same shared_secret in its own RADIUS settings (router_add_radius_server). The secret is write-only.",
  example: {
    "add": {
      "name": "nas-example",
      "address": "192.0.2.80",
      "shared_secret": "Example-Nas-1",
      "comment": "example",
    },
    "update": { "coa_port": 1700 },
  },
};

/** `/ip/hotspot`. */
const hotspotServersTools: MenuTools = {
  schema: hotspotServers,
  toolset: "platform",
  noun: noun("hotspot_server", "hotspot server"),
  verbs: VERBS,
  columns: ["name", "interface", "address-pool", "profile", "idle-timeout", "disabled"],
  notes:
    "A captive portal on interface: clients must log in (hotspot users, User Manager or RADIUS) before they get through. It adds its own firewall and NAT rules.",
  example: {
    "add": { "name": "hotspot-example", "interface": "ether5" },
    "update": { "idle_timeout": "10m" },
  },
  lockout: hotspotOn,
};

/** `/ip/hotspot/user`. */
const hotspotUsersTools: MenuTools = {
  schema: hotspotUsers,
  toolset: "platform",
  noun: noun("hotspot_user", "hotspot user"),
  verbs: VERBS,
  columns: ["name", "server", "profile", "limit-uptime", "uptime", "disabled", "comment"],
  notes: "Local hotspot logins; limits end the session when reached. The password is write-only.",
  example: {
    "add": {
      "name": "hs-example",
      "password": "Example-Hs-1",
      "limit_uptime": "1h",
      "comment": "example",
    },
    "update": { "limit_bytes_total": 1000000000 },
  },
};

/** `/ip/hotspot/active`. */
const hotspotActiveTools: MenuTools = {
  schema: hotspotActive,
  toolset: "platform",
  noun: noun("hotspot_session", "active hotspot session"),
  verbs: ["list"],
  columns: ["server", "user", "address", "mac-address", "uptime", "login-by"],
  notes: "Read-only: users logged in to the hotspot now.",
};

/** The menus of this family, in catalogue order. */
export const PLATFORM_MENU_TOOLS: readonly MenuTools[] = [
  certificatesTools,
  scriptsTools,
  loggingActionsTools,
  loggingRulesTools,
  containersTools,
  containerConfigTools,
  containerEnvsTools,
  containerMountsTools,
  radiusServersTools,
  userManagerUsersTools,
  userManagerGroupsTools,
  userManagerRoutersTools,
  hotspotServersTools,
  hotspotUsersTools,
  hotspotActiveTools,
];

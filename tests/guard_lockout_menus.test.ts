/**
 * Lock-out holes of hostile re-test 2 (issue 31): the interface, ssh service
 * and SSH server rules were attached to some menus and arguments only, so
 * these writes cut this server's own access with no `confirm`:
 *
 * - the interface that carries the session disabled when it was not an
 *   `/interface`, ethernet, VLAN or bridge tool's (WireGuard, VRRP, EoIP, the
 *   bond itself); the interface rule now comes from the schema for every menu
 *   of interfaces, and a test below holds that each has it;
 * - `/ip/ssh ciphers` (7.20 on) that this server's SSH client (ssh2) cannot
 *   negotiate;
 * - `/ip/ssh password-authentication=no` (7.22 on) while this server logs in
 *   with a password, and the other ways a login method ends (key options,
 *   `always-allow-password-login`, keys added or removed);
 * - `/ip/service ssh vrf=...` (and `max-sessions`).
 *
 * Each case runs on every simulated release where its setting exists, as
 * the real command trees in `../shared/fidelity` say (6.49, which has no
 * tree, where MikroTik's v6 manual has it), and the commands the guard sends
 * are held against the release's tree. The simulator listens on 127.0.0.2
 * and holds that address on the interface under test, so the server's
 * session runs over it (as in tests/guard_lockout.test.ts).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { ALL_MENUS } from "../lib/sim/menus/registry.ts";
import { release } from "../lib/routeros/release.ts";
import { itemsAreInterfaces } from "../lib/routeros/schema/menu.ts";
import { MENU_TOOLS } from "../lib/tools/catalogue.ts";
import { menuTools } from "../lib/tools/menu_tools/menu_tools.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { makeKey, writeKey } from "./helpers/keys.ts";
import { PROFILES } from "./helpers/profiles.ts";
import { argsOf, nearestTree, trees, treesAvailable } from "./helpers/trees.ts";
import { callOk, commandsInTree, lockoutRefused } from "./helpers/lockout.ts";

const HOST = "127.0.0.2";
const ON_ETHER2 = `/ip address add address=${HOST}/8 interface=ether2`;

interface Case {
  name: string;
  /** The release the case runs on when the trees are absent. */
  version: string;
  /** The menu, command and argument whose releases the case runs on (from the trees). */
  where: readonly [path: string, command: string, arg: string];
  /** Whether RouterOS 6.49 has it (no tree: MikroTik's v6 manual). */
  v6?: boolean;
  setup: string[];
  tool: string;
  args: Record<string, unknown>;
  why: RegExp;
}

const CASES: Case[] = [
  {
    name: "disabling the WireGuard interface that carries the session",
    version: "7.16.2",
    where: ["/interface/wireguard", "add", "listen-port"],
    setup: [
      "/interface wireguard add name=wg-mgmt listen-port=13231",
      `/ip address add address=${HOST}/8 interface=wg-mgmt`,
    ],
    tool: "router_disable_wireguard_interface",
    args: { name: "wg-mgmt" },
    why: /interface wg-mgmt carries the address this server's SSH session uses/,
  },
  {
    name: "disabling the VRRP interface whose address the session reaches",
    version: "7.16.2",
    where: ["/interface/vrrp", "add", "vrid"],
    v6: true,
    setup: [
      "/interface vrrp add name=vrrp1 interface=ether2 vrid=7",
      `/ip address add address=${HOST}/8 interface=vrrp1`,
    ],
    tool: "router_disable_vrrp_interface",
    args: { name: "vrrp1" },
    why: /interface vrrp1 carries the address/,
  },
  {
    name: "disabling the EoIP tunnel that carries the session",
    version: "7.16.2",
    where: ["/interface/eoip", "add", "tunnel-id"],
    v6: true,
    setup: [
      "/interface eoip add name=eoip1 remote-address=10.0.0.9 tunnel-id=5",
      `/ip address add address=${HOST}/8 interface=eoip1`,
    ],
    tool: "router_disable_eoip_tunnel",
    args: { name: "eoip1" },
    why: /interface eoip1 carries the address/,
  },
  {
    name: "disabling the bond that carries the session",
    version: "7.16.2",
    where: ["/interface/bonding", "add", "slaves"],
    v6: true,
    setup: [
      "/interface bonding add name=bond1 slaves=ether4,ether5",
      `/ip address add address=${HOST}/8 interface=bond1`,
    ],
    tool: "router_disable_bond",
    args: { name: "bond1" },
    why: /interface bond1 carries the address/,
  },
  {
    name: "SSH ciphers this server's client cannot negotiate (aes-cbc)",
    version: "7.24",
    where: ["/ip/ssh", "set", "ciphers"],
    setup: [ON_ETHER2],
    tool: "router_update_ssh_server",
    args: { ciphers: ["aes-cbc"] },
    why:
      /ciphers=aes-cbc leaves the router's SSH server only aes128-cbc, .*this server's SSH client offers only .*aes128-gcm@openssh\.com/,
  },
  {
    name: "password logins turned off while this server logs in with a password",
    version: "7.24",
    where: ["/ip/ssh", "set", "password-authentication"],
    setup: [ON_ETHER2],
    tool: "router_update_ssh_server",
    args: { password_authentication: "no" },
    why:
      /password_authentication=no turns SSH password logins off, and this server logs in as "admin" with a password/,
  },
  {
    name: "the ssh service moved into another VRF",
    version: "7.16.2",
    where: ["/ip/service", "set", "vrf"],
    setup: [ON_ETHER2, "/ip vrf add name=v1 interfaces=ether5"],
    tool: "router_update_ip_service",
    args: { name: "ssh", vrf: "v1" },
    why: /it moves ssh into VRF v1, and this server's session arrives in VRF main/,
  },
];

/**
 * The simulated releases that have `where`: the suite's release lines and
 * the tree releases, each where its tree (the newest not newer than it) has
 * the argument; 6.49 by the case. Without the trees: the case's own release.
 */
function releasesOf(c: Case): string[] {
  if (!treesAvailable()) return [c.version];
  const [path, command, arg] = c.where;
  const candidates = [...new Set([...PROFILES, ...trees().map((t) => t.version)])];
  return candidates.filter((v) => {
    if (release(v).major < 7) return c.v6 === true;
    const tree = nearestTree(v);
    return tree !== undefined && argsOf(tree, path, command)?.has(arg) === true;
  });
}

for (const c of CASES) {
  const versions = releasesOf(c);
  Deno.test(`lock-out needs confirm: ${c.name} (${c.tool}; ${versions.join(", ")})`, async () => {
    assert.ok(versions.length > 0, `no release has ${c.where.join(" ")}`);
    for (const version of versions) {
      const commands: string[] = [];
      const sim = await startSimulator({
        host: HOST,
        version,
        onCommand: (cmd) => commands.push(cmd),
      });
      for (const line of c.setup) {
        const r = sim.run(line);
        assert.equal(r.exitCode, 0, `${version}: ${line}: ${r.output}`);
      }
      const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
      try {
        await lockoutRefused(session, sim, c.tool, c.args, c.why);
        commandsInTree(version, commands);
      } finally {
        await session.close();
        await sim.close();
      }
    }
  });
}

Deno.test("lock-out of interfaces: what keeps the session's interface carrying it needs no confirm", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.20.8" });
  for (
    const line of [
      "/interface wireguard add name=wg-mgmt listen-port=13231",
      "/interface wireguard add name=wg-other listen-port=13232",
      `/ip address add address=${HOST}/8 interface=wg-mgmt`,
      "/interface eoip add name=eoip1 remote-address=10.0.0.9 tunnel-id=5",
      "/interface vrrp add name=vrrp1 interface=ether3 vrid=7",
    ]
  ) assert.equal(sim.run(line).exitCode, 0, line);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    await callOk(session, "router_update_wireguard_interface", {
      name: "wg-mgmt",
      comment: "mgmt",
    });
    await callOk(session, "router_update_wireguard_interface", {
      name: "wg-mgmt",
      new_name: "wg0",
    });
    // The value it has already: nothing changes.
    await callOk(session, "router_update_wireguard_interface", { name: "wg0", listen_port: 13231 });
    await callOk(session, "router_disable_wireguard_interface", { name: "wg-other" });
    await callOk(session, "router_update_wireguard_interface", {
      name: "wg-other",
      listen_port: 1,
    });
    await lockoutRefused(
      session,
      sim,
      "router_update_wireguard_interface",
      { name: "wg0", listen_port: 13299 },
      /interface wg0 carries .* \(changing listen_port may take its link down/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_remove_wireguard_interface",
      { name: "wg0" },
      /interface wg0 carries the address this server's SSH session uses/,
    );

    // A tunnel's far end or a VRRP's parent, when they carry the session.
    sim.run(`/ip address set [find address="${HOST}/8"] interface=eoip1`);
    await lockoutRefused(
      session,
      sim,
      "router_update_eoip_tunnel",
      { name: "eoip1", remote_address: "10.0.0.10" },
      /interface eoip1 carries .*changing remote_address/,
    );
    sim.run(`/ip address set [find address="${HOST}/8"] interface=vrrp1`);
    await lockoutRefused(
      session,
      sim,
      "router_disable_interface",
      { name: "ether3" },
      /interface ether3 is the parent of vrrp1, which carries this server's SSH session/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_ethernet_port",
      { name: "ether3", mtu: 1400 },
      /interface ether3 is the parent of vrrp1, .*changing mtu/,
    );
    await callOk(session, "router_update_ethernet_port", { name: "ether4", mtu: 1400 });
    // With confirm it goes through.
    await callOk(session, "router_update_vrrp_interface", {
      name: "vrrp1",
      priority: 200,
      confirm: true,
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out of interfaces: every menu of interfaces has the rule, from its schema", () => {
  const interfaceMenus = MENU_TOOLS.filter((s) => itemsAreInterfaces(s.schema));
  const writesWithout = interfaceMenus.flatMap((spec) =>
    menuTools(spec).filter((t) =>
      /^router_(update|remove|disable)_/.test(t.name) && t.lockout === undefined
    ).map((t) => `${t.name} (${spec.schema.path})`)
  );
  assert.deepEqual(writesWithout, [], "interface writes without the lock-out rule");
  // Every kind the catalogue has one of; the families RouterOS keeps under /interface.
  const paths = new Set(interfaceMenus.map((s) => s.schema.path));
  for (
    const p of [
      "/interface",
      "/interface/ethernet",
      "/interface/vlan",
      "/interface/bridge",
      "/interface/bonding",
      "/interface/wireguard",
      "/interface/eoip",
      "/interface/gre",
      "/interface/ipip",
      "/interface/vxlan",
      "/interface/vrrp",
      "/interface/pppoe-client",
      "/interface/l2tp-client",
      "/interface/sstp-client",
      "/interface/ovpn-client",
      "/interface/wifi",
      "/interface/wireless",
      "/caps-man/interface",
      "/interface/ethernet/poe",
    ]
  ) assert.ok(paths.has(p), `${p} is not a menu of interfaces`);
  for (
    const p of [
      "/interface/list",
      "/interface/wifi/configuration",
      "/interface/wireless/security-profiles",
      "/interface/ovpn-server/server",
    ]
  ) assert.ok(!paths.has(p), `${p} holds no interfaces`);

  // Independently: every simulated menu whose items live in /interface is one.
  const presented = new Map(MENU_TOOLS.map((s) => [s.schema.path, s.schema]));
  const missed = ALL_MENUS.filter((m) => m.table === "/interface" && presented.has(m.path))
    .map((m) => m.path).filter((p) => !itemsAreInterfaces(presented.get(p)!));
  assert.deepEqual(missed, [], "simulated menus of interfaces the schema does not call so");
});

Deno.test("lock-out of the SSH server: what this server's client and login still meet needs no confirm", async () => {
  const commands: string[] = [];
  const sim = await startSimulator({
    host: HOST,
    version: "7.24",
    onCommand: (c) => commands.push(c),
  });
  assert.equal(sim.run(ON_ETHER2).exitCode, 0);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    await callOk(session, "router_update_ssh_server", { ciphers: ["aes-gcm"] });
    await callOk(session, "router_update_ssh_server", { ciphers: ["aes-ctr"] });
    await callOk(session, "router_update_ssh_server", {
      strong_crypto: true,
      ciphers: ["aes-ctr"],
    });
    await lockoutRefused(
      session,
      sim,
      "router_update_ssh_server",
      { ciphers: ["3des-cbc"] },
      /ciphers=3des-cbc \(with strong_crypto on\) leaves the router's SSH server no cipher, and this server's SSH client offers only/,
    );
    await callOk(session, "router_update_ssh_server", { password_authentication: "yes" });
    // yes-if-no-key: refused only once the user has a key.
    await callOk(session, "router_update_ssh_server", { password_authentication: "yes-if-no-key" });
    await callOk(session, "router_update_ssh_server", { password_authentication: "yes" });
    const key = makeKey("ed25519", "openssh").publicKey;
    assert.equal(sim.run(`/user ssh-keys add user=admin key="${key}"`).exitCode, 0);
    await lockoutRefused(
      session,
      sim,
      "router_update_ssh_server",
      { password_authentication: "yes-if-no-key" },
      /yes-if-no-key refuses the password of a user with an SSH key, user "admin" has one/,
    );
    // A key option binds key logins; this server logs in with a password.
    await callOk(session, "router_update_ssh_server", {
      publickey_authentication_options: "touch-required",
    });
    commandsInTree("7.24", commands);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out of logins: always-allow-password-login and adding a key, up to 7.21", async () => {
  for (const version of ["6.49.13", "7.20.8"]) {
    const commands: string[] = [];
    const sim = await startSimulator({ host: HOST, version, onCommand: (c) => commands.push(c) });
    assert.equal(sim.run(ON_ETHER2).exitCode, 0);
    const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
    const key = makeKey("rsa", "openssh").publicKey;
    try {
      // always-allow-password-login=no (the default): a key on admin ends its password.
      await lockoutRefused(
        session,
        sim,
        "router_add_user_ssh_key",
        { user: "admin", public_key: key },
        /logs in as "admin" with a password, and a key on that user makes the router refuse its password \(always-allow-password-login=no\)/,
      );
      await callOk(session, "router_update_ssh_server", { always_allow_password_login: true });
      await callOk(session, "router_update_ssh_server", { always_allow_password_login: false });
      await callOk(session, "router_update_ssh_server", { always_allow_password_login: true });
      await callOk(session, "router_add_user_ssh_key", { user: "admin", public_key: key });
      await lockoutRefused(
        session,
        sim,
        "router_update_ssh_server",
        { always_allow_password_login: false },
        /always_allow_password_login=no refuses the password of a user with an SSH key/,
      );
      commandsInTree(version, commands);
    } finally {
      await session.close();
      await sim.close();
    }
  }
});

Deno.test("lock-out of logins: with a key, its key options and the user's keys", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lockout-keys-" });
  const key = makeKey("ed25519", "openssh");
  const sim = await startSimulator({
    host: HOST,
    version: "7.24",
    users: [{ name: "admin", group: "full", publicKeys: [key.publicKey] }],
  });
  assert.equal(sim.run(ON_ETHER2).exitCode, 0);
  const inventory = [{
    title: "R1",
    host: HOST,
    port: sim.port,
    username: "admin",
    key_filename: await writeKey(dir, key),
  }];
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    await callOk(session, "router_update_ssh_server", { password_authentication: "no" });
    await lockoutRefused(
      session,
      sim,
      "router_update_ssh_server",
      { publickey_authentication_options: "verify-required" },
      /publickey_authentication_options=verify-required asks key logins to prove/,
    );
    const id = sim.items("/user/ssh-keys")[0][".id"];
    await lockoutRefused(
      session,
      sim,
      "router_remove_ssh_key",
      { id },
      /logs in as "admin" with an SSH key, and this may be that key/,
    );
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lock-out of the ssh service: its VRF and max-sessions", async () => {
  const commands: string[] = [];
  const sim = await startSimulator({
    host: HOST,
    version: "7.20.8",
    onCommand: (c) => commands.push(c),
  });
  for (const line of [ON_ETHER2, "/ip vrf add name=v1 interfaces=ether5"]) {
    assert.equal(sim.run(line).exitCode, 0, line);
  }
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  const other = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    await callOk(session, "router_update_ip_service", { name: "ssh", vrf: "main" });
    await callOk(session, "router_update_ip_service", { name: "telnet", vrf: "v1" });
    await callOk(session, "router_update_ip_service", { name: "ssh", max_sessions: 5 });
    // A second server's session: two in use.
    await callOk(other, "router_list_ip_addresses", {});
    await lockoutRefused(
      session,
      sim,
      "router_update_ip_service",
      { name: "ssh", max_sessions: 1 },
      /max_sessions=1 is fewer than the 2 SSH sessions the router serves now/,
    );
    await callOk(session, "router_update_ip_service", { name: "ssh", max_sessions: 2 });
    // The session's interface moved into v1 (with confirm): ssh follows it there.
    await callOk(session, "router_update_vrf", {
      name: "v1",
      interfaces: ["ether2"],
      confirm: true,
    });
    await callOk(session, "router_update_ip_service", { name: "ssh", vrf: "v1" });
    await lockoutRefused(
      session,
      sim,
      "router_update_ip_service",
      { name: "ssh", vrf: "main" },
      /it moves ssh into VRF main, and this server's session arrives in VRF v1/,
    );
    commandsInTree("7.20.8", commands);
  } finally {
    await other.close();
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out of logins: the method the live connection logged in with decides, not the configuration", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lockout-login-" });
  const key = makeKey("ed25519", "openssh");
  const keyFile = await writeKey(dir, key);
  // Key and password configured: the router has the key (it refuses the password of a user with one).
  const withKey = await startSimulator({
    host: HOST,
    version: "7.24",
    users: [{ name: "admin", password: "Pw-1-unused", group: "full", publicKeys: [key.publicKey] }],
  });
  // Key and password configured: the router lacks the key, so the password logs in.
  const withoutKey = await startSimulator({ host: "127.0.0.3", version: "7.24" });
  for (const [sim, host] of [[withKey, HOST], [withoutKey, "127.0.0.3"]] as const) {
    assert.equal(sim.run(`/ip address add address=${host}/8 interface=ether2`).exitCode, 0);
  }
  const both = { username: "admin", key_filename: keyFile };
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify([
      { title: "K", host: HOST, port: withKey.port, password: "Pw-1-unused", ...both },
      { title: "P", host: "127.0.0.3", port: withoutKey.port, password: "", ...both },
    ]),
  ]);
  try {
    await callOk(session, "router_update_ssh_server", {
      device: "K",
      password_authentication: "no",
    });
    await lockoutRefused(
      session,
      withoutKey,
      "router_update_ssh_server",
      { device: "P", password_authentication: "no" },
      /this server logs in as "admin" with a password$|this server logs in as "admin" with a password\./,
    );
  } finally {
    await session.close();
    await withKey.close();
    await withoutKey.close();
    await Deno.remove(dir, { recursive: true });
  }
});

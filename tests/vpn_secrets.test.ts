/**
 * VPN secrets are write-only: PPP passwords, IPsec pre-shared keys, the
 * L2TP server's IPsec secret, RADIUS secrets, User Manager and hotspot
 * passwords and certificate passphrases reach the router but never show in
 * a result, a dry run, a duplicate-name error, the export, stderr or the
 * audit log (a key exported with a passphrase comes back only with it); and
 * the IPsec overview. Through MCP against the simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, spawnServer } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const PPP_PASSWORD = "Vq7-ppp-distinctive-Pa55";
const PSK = "Xk4-ipsec-distinctive-Psk";
const L2TP_PSK = "Wm2-l2tp-distinctive-Psk";
const RADIUS_SECRET = "Rt5-radius-distinctive-Secret";
const UM_PASSWORD = "Um8-usermanager-distinctive-Pa55";
const HS_PASSWORD = "Hs3-hotspot-distinctive-Pa55";
const CERT_PASSPHRASE = "Cp6-certificate-distinctive-Pass";

Deno.test("PPP, IPsec, RADIUS, User Manager, hotspot and certificate secrets reach the router and no output channel", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "vpn-secrets-" });
  const audit = `${dir}/audit.jsonl`;
  const session = await spawnServer([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "vpn,files,platform",
    "--audit-log",
    audit,
    // A certificate's private key leaves the router only with the operator's leave.
    "--reveal-secrets",
  ]);
  const answers: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await callTool(session, name, args);
    answers.push(r);
    return r;
  };
  try {
    const secret = { name: "road-user", password: PPP_PASSWORD, service: "l2tp" };
    await call("router_add_ppp_secret", { ...secret, dry_run: true });
    const added = await call("router_add_ppp_secret", secret);
    assert.notEqual(added.isError, true, added.content[0].text);
    const dup = await call("router_add_ppp_secret", secret);
    assert.equal(dup.isError, true, "a second secret of that name fails on the router");
    await call("router_list_ppp_secrets", {});
    await call("router_get_ppp_secret", { name: "road-user" });

    const peer = await call("router_add_ipsec_peer", { name: "branch", address: "192.0.2.40" });
    assert.notEqual(peer.isError, true, peer.content[0].text);
    const identity = await call("router_add_ipsec_identity", { peer: "branch", secret: PSK });
    assert.notEqual(identity.isError, true, identity.content[0].text);
    await call("router_list_ipsec_identities", {});
    const server = await call("router_update_l2tp_server", {
      enabled: true,
      use_ipsec: "required",
      ipsec_secret: L2TP_PSK,
    });
    assert.notEqual(server.isError, true, server.content[0].text);
    await call("router_get_l2tp_server", {});
    const radius = await call("router_add_radius_server", {
      service: ["ppp"],
      address: "192.0.2.71",
      secret: RADIUS_SECRET,
    });
    assert.notEqual(radius.isError, true, radius.content[0].text);
    await call("router_list_radius_servers", {});
    const um = await call("router_add_user_manager_user", {
      name: "um-user",
      password: UM_PASSWORD,
    });
    assert.notEqual(um.isError, true, um.content[0].text);
    await call("router_get_user_manager_user", { name: "um-user" });
    const hs = await call("router_add_hotspot_user", { name: "hs-user", password: HS_PASSWORD });
    assert.notEqual(hs.isError, true, hs.content[0].text);
    await call("router_list_hotspot_users", {});
    await call("router_export_config", {});

    // A CA signs a server certificate, whose key leaves and comes back with its passphrase.
    const ca = { name: "ca", common_name: "ca", key_usage: ["key-cert-sign", "crl-sign"] };
    assert.notEqual((await call("router_add_certificate", ca)).isError, true);
    assert.notEqual((await call("router_sign_certificate", { name: "ca" })).isError, true);
    await call("router_add_certificate", { name: "srv", common_name: "vpn.example" });
    const signed = await call("router_sign_certificate", { name: "srv", ca: "ca" });
    assert.notEqual(signed.isError, true, signed.content[0].text);
    const cert = (signed.structuredContent as { item: Record<string, unknown> }).item;
    assert.deepEqual([cert.issuer, cert.private_key, cert.ca], ["CN=ca", true, false]);
    const exported = await call("router_export_certificate", {
      name: "srv",
      export_passphrase: CERT_PASSPHRASE,
    });
    assert.deepEqual(exported.structuredContent, {
      files: ["cert_export_srv.crt", "cert_export_srv.key"],
    });
    sim.run("/certificate remove srv");
    const crt = await call("router_import_certificate", { file_name: "cert_export_srv.crt" });
    assert.equal((crt.structuredContent as Record<string, number>).certificates_imported, 1);
    const key = { file_name: "cert_export_srv.key" };
    const wrong = await call("router_import_certificate", { ...key, passphrase: "not-it-at-all" });
    assert.equal((wrong.structuredContent as Record<string, number>).decryption_failures, 1);
    const right = await call("router_import_certificate", { ...key, passphrase: CERT_PASSPHRASE });
    assert.equal((right.structuredContent as Record<string, number>).private_keys_imported, 1);

    // The secrets did reach the router...
    assert.ok(sim.items("/ppp/secret").some((s) => s.password === PPP_PASSWORD));
    assert.ok(sim.items("/ip/ipsec/identity").some((i) => i.secret === PSK));
    assert.equal(sim.items("/interface/l2tp-server/server")[0]["ipsec-secret"], L2TP_PSK);
    assert.ok(sim.items("/radius").some((r) => r.secret === RADIUS_SECRET));
    assert.ok(sim.items("/user-manager/user").some((u) => u.password === UM_PASSWORD));
    assert.ok(sim.items("/ip/hotspot/user").some((u) => u.password === HS_PASSWORD));
    // ...and nowhere else.
    const channels = {
      answers: JSON.stringify(answers),
      stderr: session.stderr(),
      audit: await Deno.readTextFile(audit),
    };
    assert.ok(channels.audit.includes("router_add_ppp_secret"), "the calls are audited");
    for (const [channel, text] of Object.entries(channels)) {
      for (
        const s of [
          PPP_PASSWORD,
          PSK,
          L2TP_PSK,
          RADIUS_SECRET,
          UM_PASSWORD,
          HS_PASSWORD,
          CERT_PASSPHRASE,
        ]
      ) {
        assert.ok(!text.includes(s), `${channel} shows ${s}`);
      }
    }
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("router_ipsec_status lists each peer and policy with its state, templates left out", async () => {
  const sim = await startSimulator({ version: "7.20.8" });
  sim.run("/ip ipsec peer add name=branch address=192.0.2.40/32 exchange-mode=ike2");
  sim.run(
    "/ip ipsec policy add peer=branch src-address=10.1.0.0/24 dst-address=10.2.0.0/24 tunnel=yes",
  );
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "vpn",
  ]);
  try {
    const r = await callTool(session, "router_ipsec_status", {});
    assert.notEqual(r.isError, true, r.content[0].text);
    const s = r.structuredContent as {
      peers: { name: string; address: string; established: boolean; state: string }[];
      policies: { peer: string; dst_address: string; ph2_state: string }[];
      established: number;
      active_policies: number;
    };
    assert.deepEqual(s.peers.map((p) => [p.name, p.address, p.established, p.state]), [
      ["branch", "192.0.2.40/32", false, "no phase 1"],
    ]);
    assert.deepEqual(s.policies.map((p) => [p.peer, p.dst_address, p.ph2_state]), [
      ["branch", "10.2.0.0/24", "no-phase2"],
    ], "the default template policy is left out");
    assert.equal(s.established, 0);
    assert.equal(s.active_policies, 0);
    assert.match(r.content[0].text, /0 of 1 peers established, 0 of 1 policies active/);
  } finally {
    await session.close();
    await sim.close();
  }
});

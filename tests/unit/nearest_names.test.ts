/**
 * "Did you mean" (lib/tools/nearest_names.ts): near spellings, and names
 * with a word too many or too few, closest first; nothing far off.
 */
import assert from "node:assert/strict";
import { nearest } from "../../lib/tools/nearest_names.ts";

const TOOLS = [
  "router_get_identity",
  "router_get_ipsec_identity",
  "router_get_system_health",
  "router_add_ipsec_identity",
  "router_list_ip_addresses",
  "router_list_ipv6_addresses",
  "router_add_ip_address",
];

Deno.test("nearest names: a word too many finds the name meant first", () => {
  assert.equal(nearest("router_get_system_identity", TOOLS)[0], "router_get_identity");
});

Deno.test("nearest names: a near spelling finds its name", () => {
  assert.equal(nearest("router_list_ip_adresses", TOOLS)[0], "router_list_ip_addresses");
  assert.deepEqual(nearest("adress", ["address", "add", "interface"]), ["address"]);
});

Deno.test("nearest names: nothing for a name far from every other", () => {
  assert.deepEqual(nearest("router_reboot_everything_now", TOOLS), []);
});

Deno.test("nearest names: a short name is not near every other short name", () => {
  // `/ip arp` on a router without it once suggested "vrf, dns", and a
  // bridge without `host` "port, get, set": two edits of three letters.
  assert.deepEqual(nearest("arp", ["vrf", "dns", "address", "pool"]), []);
  assert.deepEqual(nearest("host", ["port", "get", "set", "vlan"]), []);
  assert.deepEqual(nearest("/ip/arpp", ["/ip/arp", "/ip/address", "/snmp"])[0], "/ip/arp");
});

Deno.test("nearest names: a long name costs no edit distance against names far shorter", () => {
  // Hostile re-test 3 (issue 31): a 256-character unknown tool name cost
  // 26 ms against the catalogue's ~800 names, per call.
  const names = Array.from({ length: 800 }, (_, i) => `router_list_something_${i}_items`);
  const work = { cells: 0 };
  assert.deepEqual(nearest("ab_".repeat(86).slice(0, 256), names, work), []);
  assert.equal(work.cells, 0);
  // A name of about their length is still compared, and still found.
  assert.deepEqual(
    nearest("router_list_somthing_7_items", names, work)[0],
    "router_list_something_7_items",
  );
  assert.ok(work.cells > 0);
});

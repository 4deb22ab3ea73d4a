/**
 * What raw console text would show of the router's secrets, told by its
 * shape before it is sent (`rawRevealsSecrets`): a table of commands
 * refused (show-sensitive and its abbreviations, a read or filter naming a
 * secret, at any depth) and of everyday commands that are not; and the
 * masking of raw output (`maskRawOutput`) on real RouterOS captures.
 */
import assert from "node:assert/strict";
import { maskRawOutput, rawRevealsSecrets } from "../../lib/routeros/raw_reveal.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";

Deno.test("rawRevealsSecrets: commands that would show secrets", () => {
  const refused = [
    "/export show-sensitive",
    "/ppp secret export show-sensitive",
    "/ppp/secret/export show-sensitive",
    "/ppp secret export show-sen",
    "/ppp secret export terse show",
    "/ppp secret exp s",
    "/interface wireguard print show-sensitive",
    "/interface wireguard peers show-client-config show-sensitive",
    ":put [/export show-sensitive]",
    ':execute "/export show-sensitive file=x"',
    ':put [:parse "/ppp secret export show-sensitive"]',
    ":put [/ppp secret get [find name=road] password]",
    ":put [/ppp/secret/get [find name=road] pass]",
    "/interface wireguard get wg1 private-key",
    ":foreach s in=[/ppp secret find] do={:put [/ppp secret get $s password]}",
    "{:local p [/ppp secret get 0 password]; :put $p}",
    '/ppp secret print where password="guess"',
    '/ppp secret print count-only where password~"^a"',
    ":put [/ppp secret find password=guess]",
    "/ppp secret print proplist=name,password",
    "/ppp secret print as-value proplist=password",
    "/interface wireless security-profiles print where static-key-0=x",
    ":put [/ppp secret get value-name=password number=0]",
    ':if ([/user get admin password] = "x") do={:put yes}',
  ];
  for (const command of refused) {
    assert.ok(rawRevealsSecrets(command), `not refused: ${command}`);
  }
  assert.match(rawRevealsSecrets("/export show-sensitive")!, /show-sensitive/);
  assert.match(rawRevealsSecrets(":put [/ppp secret get 0 password]")!, /secret property password/);
  assert.match(rawRevealsSecrets("/ppp secret print where password=x")!, /filters on the secret/);
  // Too deep to tell is refused.
  const deep = "[".repeat(40) + ":put 1" + "]".repeat(40);
  assert.match(rawRevealsSecrets(deep)!, /too deep/);
});

Deno.test("rawRevealsSecrets: everyday commands are not refused", () => {
  const allowed = [
    "/export",
    "/export terse",
    "/export compact file=backup",
    "/ppp secret export",
    "/ppp secret print",
    "/ppp secret print detail",
    "/ppp secret print where name=road",
    "/ip address print terse",
    "/interface print stats",
    "/ip route print show-ids",
    "/system identity get name",
    ":put [/system identity get name]",
    ":put [/interface get ether1 mtu]",
    "/ppp secret add name=road password=Secret-1 service=l2tp",
    "/user set admin password=x; /user print",
    '/system script add name=x source="/ip address print"',
    ':log info "show sensitive data"',
    "/interface wireguard peers print",
    "/ip firewall filter print where chain=input",
    "/container envs print where key=TZ",
  ];
  for (const command of allowed) {
    assert.equal(rawRevealsSecrets(command), undefined, command);
  }
});

Deno.test("maskRawOutput: secrets in output, by name, in every printed form", () => {
  const M = "********";
  const table: [string, string][] = [
    [
      '0   name="road" service=l2tp password="Ppp-1" profile=default',
      `0   name="road" service=l2tp password="${M}" profile=default`,
    ],
    [".id=*1;name=road;password=Ppp-1;service=l2tp", `.id=*1;name=road;password=${M};service=l2tp`],
    [
      '[{".id":"*1","name":"road","password":"Ppp-1","service":"l2tp"}]',
      `[{".id":"*1","name":"road","password":"${M}","service":"l2tp"}]`,
    ],
    ['{"private-key": "YWJj"}', `{"private-key": "${M}"}`],
    ["Ppp-1", "Ppp-1"], // a bare value names nothing
  ];
  for (const [output, masked] of table) assert.equal(maskRawOutput(output), masked);
});

Deno.test("maskRawOutput: real captures keep no secret", () => {
  if (!realOutputAvailable()) return;
  const cases: [string, RegExp][] = [
    ["print-wireguard-v7-docs.txt", /private-key="(?!\*{8}")[^"]/],
    ["terse-wireguard-v7.txt", /private-key=(?!\*{8}\s)\S/],
    ["export-show-sensitive-v7.15.2-exec-oxidized.txt", /password=(?!\*{8})\S/],
  ];
  for (const [file, clear] of cases) {
    const text = capture(file).blocks.join("\n");
    assert.match(text, clear, `${file} has the secret to begin with`);
    const masked = maskRawOutput(text);
    assert.doesNotMatch(masked, clear, `${file}: a secret survives`);
    assert.match(masked, /\*{8}/);
  }
});

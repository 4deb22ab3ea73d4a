/**
 * The passwords written in exported scripts are masked on each command as
 * one line (RouterOS wraps long lines, inside quoted values too), with the
 * command's menu known; commands without secrets stay as RouterOS wrote
 * them. On the simulator's wrapped export form and a real capture.
 */
import assert from "node:assert/strict";
import { maskExportSecrets } from "../../lib/routeros/export_secrets.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";

const M = "********";

Deno.test("maskExportSecrets: a wrapped script value is masked whole; the rest is kept", () => {
  const text = [
    "# 2026-01-01 00:00:00 by RouterOS 7.17",
    "/system script",
    "add dont-require-permissions=no name=rotate owner=admin policy=\\",
    '    ftp,reboot,read source="/\\',
    "    user set [find name=backup] password=Rotate-Me-0815-and-a-long-enough-text\\",
    '    -to-wrap-the-line"',
    "/ip dhcp-server",
    'add interface=bridge lease-script=":local p 1; /ppp secret set 0 password=Pw-\\',
    '    In-Lease" name=defconf',
    "/container envs",
    "add key=TZ name=e value=UTC",
    "/ip address",
    "add address=192.168.88.1/24 interface=\\",
    "    bridge",
    "",
  ].join("\n");
  assert.equal(
    maskExportSecrets(text),
    [
      "# 2026-01-01 00:00:00 by RouterOS 7.17",
      "/system script",
      "add dont-require-permissions=no name=rotate owner=admin policy=ftp,reboot,read source=" +
      `"/user set [find name=backup] password=${M}"`,
      "/ip dhcp-server",
      `add interface=bridge lease-script=":local p 1; /ppp secret set 0 password=${M}" ` +
      "name=defconf",
      "/container envs",
      "add key=TZ name=e value=UTC",
      "/ip address",
      "add address=192.168.88.1/24 interface=\\",
      "    bridge",
      "",
    ].join("\n"),
  );
  // A terse export (full paths on each line) knows its menu from the line.
  assert.equal(
    maskExportSecrets(
      "/container envs add key=TZ value=UTC\n/ip ipsec key psk add key=s1 name=k\n",
    ),
    `/container envs add key=TZ value=UTC\n/ip ipsec key psk add key=${M} name=k\n`,
  );
});

Deno.test("maskExportSecrets: a real export keeps no secret and changes nothing else", () => {
  if (!realOutputAvailable()) return;
  const text = capture("export-show-sensitive-v7.15.2-exec-oxidized.txt").blocks.join("\n");
  const masked = maskExportSecrets(text);
  assert.match(text, /password=(?!\*{8})\S/);
  assert.doesNotMatch(masked, /password=(?!\*{8})\S/);
  // Each line is RouterOS's own, or a command with a masked secret.
  const original = new Set(text.split("\n"));
  const changed = masked.split("\n").filter((l) => !original.has(l));
  assert.ok(changed.length > 0);
  for (const line of changed) assert.match(line, /\*{8}/, line);
});

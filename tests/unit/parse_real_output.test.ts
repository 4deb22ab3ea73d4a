/**
 * The client's parsers on real RouterOS output (`../shared/real-output`,
 * each file names its source and release): terse lines, `key: value`
 * views, `:serialize` JSON, error texts, durations and counters.
 */
import assert from "node:assert/strict";
import { classifyError } from "../../lib/routeros/errors.ts";
import { parseJsonItems } from "../../lib/routeros/parse_json.ts";
import {
  DEFAULT_FLAGS,
  parseSingletonPrint,
  parseTerse,
  parseTerseItems,
} from "../../lib/routeros/parse_terse.ts";
import { durationMs, isoDate, logTime } from "../../lib/routeros/values.ts";
import { formatDate, parseRouterTime } from "../../lib/routeros/scheduler.ts";
import { numberOf } from "../../lib/routeros/schema/convert.ts";
import { capture, captures, realOutputAvailable } from "../helpers/real_output.ts";

const ignore = !realOutputAvailable();

/** The keys a terse capture uses (the parser is given the menu's keys). */
function keysOf(text: string): string[] {
  return [...new Set([...text.matchAll(/(?:^|\s)([a-z][a-z0-9.-]*)=/g)].map((m) => m[1]))];
}

function terse(file: string, flags = DEFAULT_FLAGS) {
  const body = capture(file).blocks[0];
  return parseTerse(body, keysOf(body), flags);
}

Deno.test({
  name: "terse: every capture parses, one item per printed item",
  ignore,
  fn() {
    for (const file of captures("terse-")) {
      const body = capture(file).blocks[0];
      const items = parseTerse(body, keysOf(body), { X: "disabled", D: "dynamic" });
      const printed = body.replace(/\r\n/g, "\n").split("\n")
        .filter((l) =>
          /^\s*(\d+|\*[0-9A-F]+)?\s*[A-Za-z*+ ]*\s[a-z][a-z0-9.-]*=/.test(l) ||
          /^[A-Za-z]+ [a-z-]+=/.test(l)
        )
        .length;
      assert.equal(items.length, printed, file);
    }
  },
});

Deno.test({
  name: 'terse: values sometimes quoted, sometimes not; empty as key= and key=""',
  ignore,
  fn() {
    const mixed = terse("terse-dhcp-lease-mixed.txt");
    assert.equal(mixed[0].comment, "UniFi1");
    assert.equal(mixed[0]["address-lists"], "", 'address-lists=""');
    assert.equal(mixed[3]["address-lists"], "", "address-lists=");
    assert.equal(mixed[3]["dhcp-option"], "");
    assert.equal(mixed[3].dynamic, true);
    const quoted = terse("terse-dhcp-lease-quoted-values.txt");
    assert.equal(quoted[1]["client-id"], "1:30:7:4d:f5:7:49");
    assert.ok(quoted.some((i) => i["host-name"] === "Galaxy-S8"), 'host-name="Galaxy-S8"');
    const wg = terse("terse-wireguard-peers-v7.txt");
    assert.equal(wg[0]["endpoint-address"], "");
    assert.equal(wg[0]["preshared-key"], "");
  },
});

Deno.test({
  name: "terse: unquoted values with spaces, flags before the first key",
  ignore,
  fn() {
    const ifaces = terse("terse-interface-v6-flags.txt", {
      X: "disabled",
      D: "dynamic",
      R: "running",
      S: "slave",
    });
    assert.equal(ifaces[2].name, "ether3 UniFi1");
    assert.equal(ifaces[0]["last-link-up-time"], "aug/16/1970 13:05:43");
    assert.deepEqual(
      [ifaces[9].dynamic, ifaces[9].disabled, ifaces[9].slave, ifaces[9].running],
      [true, true, true, false],
    );
    const lists = terse("terse-address-list-v4.txt");
    assert.equal(lists.length, 16);
    assert.equal(lists[13].disabled, true);
    assert.equal(lists[14].timeout, "4m52s");
    assert.equal(lists[15].list, "snmp-monitoring-address-list");
    const hosts = terse("terse-bridge-host-v7.txt", { X: "disabled", I: "invalid", D: "dynamic" });
    assert.equal(hosts[5].comment, "test comment");
    assert.equal(hosts[6].disabled, true);
  },
});

Deno.test({
  name: "terse: v7 dynamic routes without an index, and a log echo line, in one capture",
  ignore,
  fn() {
    const routes = terse("terse-ip-route-mixed-v6-v7.txt", { X: "disabled", D: "dynamic" });
    assert.equal(routes.length, 12);
    assert.equal(routes[7].comment, "Test IP-220929-95531");
    assert.equal(routes[8]["dst-address"], "192.168.1.0/24");
    assert.equal(routes[8].dynamic, true);
    assert.equal(routes[8]["local-address"], "192.168.1.254%bridge-lan");
    assert.ok(!routes.some((r) => String(Object.values(r).join(" ")).includes("echo:")));
  },
});

Deno.test({
  name: "terse: counters with space thousands separators read as numbers",
  ignore,
  fn() {
    const conns = terse("terse-firewall-connection-v7.txt");
    assert.equal(conns[1]["orig-packets"], "7 269");
    assert.equal(numberOf(conns[1]["orig-packets"]), 7269);
    assert.equal(numberOf("47 603"), 47603);
    assert.equal(numberOf("47 60"), undefined, "not a thousands grouping");
  },
});

Deno.test({
  name: "terse: an error line after normal output fails the read; LF-only and CR LF alike",
  ignore,
  fn() {
    const body = capture("terse-address-list-v4.txt").blocks[0];
    const error = capture("error-messages-7.23.2-tik4net.txt").blocks[0].split("\n")
      .find((l) => l === "no such item")!;
    assert.throws(() => parseTerse(body + error + "\n", keysOf(body)), /no such item/);
    const crlf = body.replace(/\n/g, "\r\n");
    assert.deepEqual(parseTerse(crlf, keysOf(body)), parseTerse(body, keysOf(body)));
    const { ambiguous } = parseTerseItems(body, keysOf(body));
    assert.equal(ambiguous.size, 0);
  },
});

Deno.test({
  name: "key: value views: v6 and v7 resource, 7.18 padded values, clock, package update",
  ignore,
  fn() {
    for (const file of captures("print-system-resource-v")) {
      const block = capture(file).blocks[0].split("\n").filter((l) => !/^\[.*\].*> /.test(l))
        .join("\n");
      const item = parseSingletonPrint(block);
      assert.match(String(item.version), /^\d+\.\d+/, file);
      assert.ok(!String(item.version).endsWith(" "), `${file}: padding kept`);
    }
    const padded = parseSingletonPrint(
      capture("print-system-resource-v7.18.2-padded-exec-oxidized.txt").blocks[0],
    );
    assert.equal(padded.uptime, "3h5m54s");
    assert.equal(padded["board-name"], "RB5009UPr+S+");
    const clock = parseSingletonPrint(capture("print-system-clock-v7.txt").blocks[0]);
    assert.equal(clock.date, "jul/21/2023");
    assert.equal(clock["gmt-offset"], "+03:00");
    const update = parseSingletonPrint(
      capture("print-system-package-update-v7.16-exec-oxidized.txt").blocks[0],
    );
    assert.equal(update.status, "New version is available");
    assert.equal(update["latest-version"], "7.16.1");
  },
});

Deno.test({
  name: ":serialize JSON of 7.23.2: a singleton is a bare object, [] is no match",
  ignore,
  fn() {
    const lines = capture("json-serialize-resource-certificate-file-7.23.2-tik4net.txt").blocks[0]
      .split("\n").filter((l) => /^[[{]/.test(l));
    const [file] = parseJsonItems(lines[0]);
    assert.equal(file.size, 752);
    assert.equal(file[".id"], "**iCZmBt9q4djvHQJupsHY er1RuFc04iP0l");
    const [resource] = parseJsonItems(lines[1]);
    assert.equal(resource["cpu-count"], 16);
    assert.equal(resource.uptime, "06:42:44");
    const [cert] = parseJsonItems(lines[2]);
    assert.deepEqual(cert["key-usage"], ["key-cert-sign", "crl-sign"]);
    assert.deepEqual(parseJsonItems(lines[3]), []);
  },
});

Deno.test({
  name: "error texts of real routers are recognised, with their kind",
  ignore,
  fn() {
    const kinds = new Map<string, string | null>();
    for (
      const file of [
        "error-messages-7.23.2-tik4net.txt",
        "error-bad-command-name-po-ntc.txt",
        "error-bad-command-name-poe-ntc.txt",
        "error-input-does-not-match-policy-issue.txt",
        "error-resolve-failure-docs.txt",
        "error-syntax-error-local-scope-docs.txt",
        "error-expected-closing-brace-v7.18.2-issue.txt",
        "error-get-value-name-v6.49.13-issue.txt",
      ]
    ) {
      for (const line of capture(file).blocks[0].split("\n")) {
        if (line.trim() === "" || /\] >|^Messages|^\[|^#|^\{|channel:/.test(line)) continue;
        kinds.set(line.trim(), classifyError(line));
      }
    }
    const expect: Record<string, string> = {
      "value of mtu contains invalid trailing characters": "invalid-value",
      "input does not match any value of interface": "missing-reference",
      "invalid value of mac, mac address required": "invalid-value",
      "action cancelled": "failure",
      "no such item": "not-found",
      "bad command name po (line 1 column 7)": "bad-command",
      "input does not match any value of policy": "missing-reference",
      "failure: dns name does not exist": "failure",
      "syntax error (line 1 column 7)": "syntax",
      "expected closing brace (line 660 column 82)": "syntax",
      "expected end of command (line 1 column 45)": "syntax",
    };
    for (const [line, kind] of Object.entries(expect)) assert.equal(kinds.get(line), kind, line);
    assert.equal(classifyError("failure: duplicate address"), "already-exists");
  },
});

Deno.test("durations in every form real routers print", () => {
  const cases: [string, number][] = [
    ["6m51s", 411_000],
    ["35w12h24m42s", ((35 * 7 * 24 + 12) * 3600 + 24 * 60 + 42) * 1000],
    ["6w5d11h55m45s", (((6 * 7 + 5) * 24 + 11) * 3600 + 55 * 60 + 45) * 1000],
    ["06:42:44", (6 * 3600 + 42 * 60 + 44) * 1000],
    ["1d00:00:00", 86_400_000],
    ["2735w21:41:43.481891543", (2735 * 7 * 86400 + 21 * 3600 + 41 * 60 + 43.481891543) * 1000],
    [
      "2735w1d21:41:43.481891543",
      ((2735 * 7 + 1) * 86400 + 21 * 3600 + 41 * 60 + 43.481891543) * 1000,
    ],
    ["1970-01-01 00:00:01", 1000],
    ["1970-01-02 01:00:00", 90_000_000],
    ["12ms", 12],
    ["350us", 0.35],
  ];
  for (const [text, ms] of cases) {
    const got = durationMs(text);
    assert.ok(got !== undefined && Math.abs(got - ms) < 0.001, `${text}: ${got} != ${ms}`);
  }
  assert.equal(durationMs("never"), undefined);
  assert.equal(durationMs("2024-06-26 11:42:37"), undefined, "a date is not a duration");
});

/** The log line ntc-templates spliced into its fixtures (print-firewall-nat-all-v6.txt). */
function echoLine(): string {
  return capture("print-firewall-nat-all-v6.txt").blocks[0].split("\n")
    .find((l) => / echo: /.test(l))!;
}

Deno.test({
  name: "key: value views: an echoed log line is no property, in every form of its time",
  ignore,
  fn() {
    const block = capture("print-system-resource-v6.48.6-ntc.txt").blocks[0];
    const clean = parseSingletonPrint(block);
    const lines = block.split("\n");
    const echo = echoLine();
    assert.match(echo, /^17:20:06 echo: system,error,critical login failure/);
    for (
      const form of [
        echo,
        echo.replace("17:20:06", "jan/02 17:20:06"), // 6.x, an entry of another day
        echo.replace("17:20:06", "jan/02/2023 17:20:06"), // 6.x, of another year
        echo.replace("17:20:06", "2024-01-02 17:20:06"), // 7.x
        "\r" + echo, // after the terminal's carriage return (ssh-pty-async-critical-log-echo)
      ]
    ) {
      const noisy = [lines[0], form, ...lines.slice(1, 4), form, ...lines.slice(4)].join("\n");
      assert.deepEqual(parseSingletonPrint(noisy), clean, form);
    }
    assert.equal(clean["17"], undefined);
    // Issue 34's shape: the same line in a settings print of 7.x.
    const issue = parseSingletonPrint(
      "  name: r1\n17:20:06 echo: system,error,critical login failure for user admin from " +
        "10.0.0.1 via ssh\n",
    );
    assert.deepEqual(issue, { name: "r1" });
  },
});

Deno.test({
  name: "key: value views: a ;;; note before the properties; a value of several lines",
  ignore,
  fn() {
    const rb = parseSingletonPrint(
      capture("print-system-routerboard-warning-comment-v7.txt").blocks[0],
    );
    assert.equal(rb["board-name"], "hAP ac^3");
    assert.equal(rb["upgrade-firmware"], "7.5");
    assert.equal(Object.keys(rb).length, 8);
    // An SFP EEPROM dump, in the shape of `/interface/ethernet/monitor sfp1 once` on a 7.x
    // RB3011 (OpenWrt forum thread 131699, "Mikrotik hEX S - Checksum failure on fiber module"):
    // further lines of the value start at the value column.
    const sfp = parseSingletonPrint([
      "                      name: sfp1",
      "           eeprom-checksum: good",
      "                    eeprom: 0000: 03 04 07 00 00 00 02 00  00 00 00 06 0d 00 0a 64  ........ .......d",
      "                            0010: 00 00 00 00 53 45 52 43  4f 4d 4d 20 20 20 20 20  ....SERC OMM     ",
      "                            00b0: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  ........ ........",
      "            sfp-wavelength: 1310nm",
    ].join("\n"));
    assert.deepEqual(Object.keys(sfp), ["name", "eeprom-checksum", "eeprom", "sfp-wavelength"]);
    const dump = String(sfp.eeprom).split("\n");
    assert.equal(dump.length, 3);
    assert.match(dump[1], /^0010: 00 00 00 00 53 45/);
    assert.match(dump[2], /^00b0: /);
    // A continuation that reads `word: text` at the value column is still the value.
    const note = parseSingletonPrint(
      "  show-at-login: yes\n           note: call the ISP\n                 ISP: 555-0100",
    );
    assert.deepEqual(note, { "show-at-login": "yes", note: "call the ISP\nISP: 555-0100" });
  },
});

Deno.test({
  name: "terse: echoed log lines with a date are skipped too; a value of two lines stays one value",
  ignore,
  fn() {
    const body = capture("terse-address-list-v4.txt").blocks[0];
    const dated = body.replace(
      /\n/,
      `\n${echoLine().replace("17:20:06", "2024-01-02 17:20:06")}\n`,
    );
    assert.deepEqual(parseTerse(dated, keysOf(body)), parseTerse(body, keysOf(body)));
    // A comment of two lines (print-interface-detail-multiline-comment.txt prints
    // ";;; very very long" then "multiline description" at column 0), in terse form.
    const [item] = parseTerse(
      " 7 DRS comment=very very long\nmultiline description name=pptp-out1 type=pptp-out mtu=1450",
      ["comment", "name", "type", "mtu"],
    );
    assert.equal(item.comment, "very very long\nmultiline description");
    assert.equal(item.name, "pptp-out1");
  },
});

Deno.test("terse: a RouterOS 7 group shorthand is read in full when the full name is a known key", () => {
  // Exports and `print` of 7.x abbreviate groups (issue 34; the 7.x forum print of
  // /interface/wifi/configuration shows `security.authentication-types=... .passphrase=...`).
  // No real terse capture shows it; a shorthand whose full name the menu has is read in full.
  const keys = ["name", "output.network", "output.redistribute", "remote.address", "remote.as"];
  const [peer] = parseTerse(
    " 0   name=peer1 output.network=bgp-networks .redistribute=connected,static " +
      "remote.address=10.0.0.1 .as=65001",
    keys,
  );
  assert.equal(peer["output.network"], "bgp-networks");
  assert.equal(peer["output.redistribute"], "connected,static");
  assert.equal(peer["remote.address"], "10.0.0.1");
  assert.equal(peer["remote.as"], "65001");
  // A shorthand that names no known key stays in the value it is written in.
  const [other] = parseTerse(" 1   name=x output.network=a .b=c", keys);
  assert.equal(other["output.network"], "a .b=c");
});

Deno.test({
  name: "dates and times in each release's form: the clock, logs and build times read the same",
  ignore,
  fn() {
    // 6.x and 7.x before 7.10 write `jul/21/2023`; 7.10 on `2023-07-21`; build-time keeps a
    // capitalised month up to 7.12 (`Jun/27/2023 09:03:02`, 7.10.1) and is ISO from 7.13
    // (lib/sim/timefmt.ts says where each change is seen).
    const clock = parseSingletonPrint(capture("print-system-clock-v7.txt").blocks[0]);
    assert.equal(isoDate(String(clock.date)), "2023-07-21");
    const at = parseRouterTime(String(clock.date), String(clock.time))!;
    assert.deepEqual([at.year, at.month, at.day, at.hour, at.legacyDate], [2023, 7, 21, 10, true]);
    assert.equal(formatDate(at), "jul/21/2023", "a revert job's start-date in the router's form");
    for (
      const file of [
        "print-system-resource-v7.10.1-chr-exec-oxidized.txt",
        "print-system-resource-v7.15.2-exec-oxidized.txt",
      ]
    ) {
      const built = String(parseSingletonPrint(capture(file).blocks[0])["build-time"]).trim();
      const [date] = built.split(" ");
      assert.match(isoDate(date) ?? "", /^20\d\d-\d\d-\d\d$/, `${file}: ${built}`);
      assert.equal(parseRouterTime(date, "00:00:00")?.legacyDate, file.includes("7.10.1"));
    }
    // log times: `jul/19 14:27:01` (this year) on print-log-detail-v6.txt, ISO on 7.10 and later
    const log = capture("print-log-detail-v6.txt").blocks[0];
    const time = /time=(\S+ \S+)/.exec(log)![1];
    assert.equal(logTime(time, "2023-07-21"), "2023-07-19 14:27:01");
    assert.equal(logTime("Jul/19/2023 14:27:01", "2024-01-01"), "2023-07-19 14:27:01");
    assert.equal(logTime("2024-06-26 11:42:37", "2024-06-27"), "2024-06-26 11:42:37");
  },
});

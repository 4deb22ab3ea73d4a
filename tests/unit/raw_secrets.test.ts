/**
 * Secrets in raw console text: a table of commands and their masked text,
 * a property (no secret value given as `name=value` of a secret name
 * survives, however it is quoted or nested), and the list of secret names
 * held against the schema's secret fields and the real command trees.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { maskingWork, maskRawCommand, rawSecretValues } from "../../lib/routeros/raw_secrets.ts";
import {
  isSecretArgument,
  KEY_IS_NOT_SECRET_IN,
  NOT_ABBREVIATIONS,
  NOT_SECRET,
  RELEASE_6_ONLY,
  SECRET_ARGUMENTS,
} from "../../lib/routeros/secret_args.ts";
import { REAL_OUTPUT, realOutputAvailable } from "../helpers/real_output.ts";
import { quoteValue } from "../../lib/routeros/quote.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";

const M = "********";

Deno.test("maskRawCommand: a table of raw commands and their masked text", () => {
  const table: [string, string][] = [
    [
      "/user add name=ops group=full password=Secr3t",
      `/user add name=ops group=full password=${M}`,
    ],
    ['/user add name=ops password="a b c"', `/user add name=ops password="${M}"`],
    ['/user set ops password="a\\"b" comment=x', `/user set ops password="${M}" comment=x`],
    ['/user set ops password=a\\"b comment=x', `/user set ops password=${M}`],
    ["/user/set ops password=x;/user/print", `/user/set ops password=${M};/user/print`],
    [
      '/ppp secret add name=u password="p;w" service=any',
      `/ppp secret add name=u password="${M}" service=any`,
    ],
    [
      '/password old-password="o" new-password="n1" confirm-new-password="n1"',
      `/password old-password="${M}" new-password="${M}" confirm-new-password="${M}"`,
    ],
    [
      '/interface wireguard add name=wg0 private-key="YWJj+/=="',
      `/interface wireguard add name=wg0 private-key="${M}"`,
    ],
    [
      "/interface wireguard peers add interface=wg0 preshared-key=K1 public-key=P1",
      `/interface wireguard peers add interface=wg0 preshared-key=${M} public-key=P1`,
    ],
    [
      '/ip ipsec identity add peer=p1 secret="s1" remote-key=k1',
      `/ip ipsec identity add peer=p1 secret="${M}" remote-key=k1`,
    ],
    ['/ip ipsec key psk add name=k key="topsecret"', `/ip ipsec key psk add name=k key="${M}"`],
    ["/container envs add key=TZ value=UTC name=e", "/container envs add key=TZ value=UTC name=e"],
    ["/container/envs/add key=TZ value=UTC", "/container/envs/add key=TZ value=UTC"],
    ["add key=TZ value=UTC", `add key=${M} value=UTC`], // relative: the menu is unknown
    [
      "/interface wireless security-profiles add wpa2-pre-shared-key=abcdefgh",
      `/interface wireless security-profiles add wpa2-pre-shared-key=${M}`,
    ],
    [
      '/interface wifi set wifi1 security.passphrase="x y"',
      `/interface wifi set wifi1 security.passphrase="${M}"`,
    ],
    [
      "/routing ospf interface-template add auth=md5 auth-key=abc",
      `/routing ospf interface-template add auth=md5 auth-key=${M}`,
    ],
    [
      "/snmp community add name=c1 authentication-password=ap encryption-password=ep",
      `/snmp community add name=c1 authentication-password=${M} encryption-password=${M}`,
    ],
    [
      "/tool snmp-get address=10.0.0.1 community=public oid=1.3",
      `/tool snmp-get address=10.0.0.1 community=${M} oid=1.3`,
    ],
    ["/user add name=x pass=abbreviated", `/user add name=x pass=${M}`],
    [
      "/ip firewall filter add chain=input protocol=tcp",
      "/ip firewall filter add chain=input protocol=tcp",
    ],
    ['/user print where password="guess"', `/user print where password="${M}"`],
    [
      '/user print where password~"^a" and password!=b',
      `/user print where password~"${M}" and password!=${M}`,
    ],
    ["{ /user set 0 password=x; :put ok }", `{ /user set 0 password=${M}; :put ok }`],
    [":do { /user set 0 password=x } on-error={}", `:do { /user set 0 password=${M} } on-error={}`],
    ["/user set 0 password=[:pick $p 0 4] comment=c", `/user set 0 password=${M} comment=c`],
    [
      "/user set [find name=a] password=($a . $b) comment=c",
      `/user set [find name=a] password=${M} comment=c`,
    ],
    ['/user set 0 password=""', '/user set 0 password=""'],
    [
      ':execute script="/system backup load name=\\"b.backup\\" password=\\"Zq9 x\\""',
      `:execute script="/system backup load name=\\"b.backup\\" password=\\"${M}\\""`,
    ],
    [
      '/system script add name=s source="/user set 0 password=\\"a\\\\\\"b\\"; :put done"',
      `/system script add name=s source="/user set 0 password=\\"${M}\\"; :put done"`,
    ],
    [
      '/system scheduler add name=s on-event=":execute script=\\"/user set 0 password=\\\\\\"deep\\\\\\"\\""',
      `/system scheduler add name=s on-event=":execute script=\\"/user set 0 password=\\\\\\"${M}\\\\\\"\\""`,
    ],
    [
      '/system script add source="/user set 0 pass\\77ord=hexed"',
      `/system script add source="/user set 0 pass\\77ord=${M}"`,
    ],
    [
      '/tool fetch url="sftp://admin:pw1@10.0.0.2/f.rsc" upload=yes',
      `/tool fetch url="sftp://admin:${M}@10.0.0.2/f.rsc" upload=yes`,
    ],
    [
      '/tool fetch url="https://h/x" user=u password="p w"',
      `/tool fetch url="https://h/x" user=u password="${M}"`,
    ],
    // Any quoted string may be a script: a comment that reads like one is masked too.
    [
      '/ip address add comment="password=hidden" address=10.0.0.1/24',
      `/ip address add comment="password=${M}" address=10.0.0.1/24`,
    ],
    [
      '/ip address add comment="no password here" address=10.0.0.1/24',
      '/ip address add comment="no password here" address=10.0.0.1/24',
    ],
    ["/system identity set name=password", "/system identity set name=password"],
    ['/user set 0 password="unterminated', `/user set 0 password=${M}`],
    // Credentials in HTTP headers of /tool fetch (http-header-field, a comma-separated list).
    [
      '/tool fetch url="https://api.example.com/v1/x" http-header-field="Authorization: Bearer ey.J9.x" output=user',
      `/tool fetch url="https://api.example.com/v1/x" http-header-field="Authorization: Bearer ${M}" output=user`,
    ],
    [
      '/tool fetch url=https://h/x http-header-field="Content-Type: application/json,authorization:Basic YTpi"',
      `/tool fetch url=https://h/x http-header-field="Content-Type: application/json,authorization:Basic ${M}"`,
    ],
    [
      '/tool fetch url=https://h/x http-header-field="Cookie: sid=abc; theme=dark,X-API-Key: k1,Accept: */*"',
      `/tool fetch url=https://h/x http-header-field="Cookie: ${M},X-API-Key: ${M},Accept: */*"`,
    ],
    [
      "/tool fetch url=https://h/x http-header=X-Auth-Token:t0k3n,Accept:text/plain",
      `/tool fetch url=https://h/x http-header=X-Auth-Token:${M},Accept:text/plain`,
    ],
    [
      '/tool fetch url=https://h/x http-header-field="Accept: application/json" output=user',
      '/tool fetch url=https://h/x http-header-field="Accept: application/json" output=user',
    ],
    // A secret held in a variable first: the value it was given is masked where it was given.
    [
      ':local pw "Var-Held-0815"; /user set admin password=$pw',
      `:local pw "${M}"; /user set admin password=${M}`,
    ],
    [
      ":global pw Var-Held-1; :local p2 $pw; /user set admin password=$p2",
      `:global pw ${M}; :local p2 ${M}; /user set admin password=${M}`,
    ],
    [
      ':local pw; :set pw "late"; /system script add source="/user set 0 password=$pw"',
      `:local pw; :set pw "${M}"; /system script add source="/user set 0 password=${M}"`,
    ],
    [
      ':local tok "abc.def"; /tool fetch url=https://h/x http-header-field="Authorization: Bearer $tok"',
      `:local tok "${M}"; /tool fetch url=https://h/x http-header-field="Authorization: Bearer ${M}"`,
    ],
    [
      ':local t "zz9"; /tool fetch url=https://h/x http-header-field=("Authorization: Bearer " . $t)',
      `:local t "${M}"; /tool fetch url=https://h/x http-header-field=("Authorization: Bearer ${M}`,
    ],
    [
      ':local name "ops"; /user set [find name=$name] comment=$name',
      ':local name "ops"; /user set [find name=$name] comment=$name',
    ],
    // Credentials of web requests, by their shape (raw_secret_shapes.ts).
    [
      '/tool fetch url="https://dyn.example.net/nic/update?hostname=gw&password=P1" keep-result=no',
      `/tool fetch url="https://dyn.example.net/nic/update?hostname=gw&password=${M}" keep-result=no`,
    ],
    [
      "/tool fetch url=https://h/x?access_token=T1&id=2 output=user",
      `/tool fetch url=https://h/x?access_token=${M}&id=2 output=user`,
    ],
    [
      '/tool fetch url="https://h/x?name=a&id=2" output=user',
      '/tool fetch url="https://h/x?name=a&id=2" output=user',
    ],
    [
      '/tool fetch url="https://api/x" http-method=post http-data="api_key=K3&text=up"',
      `/tool fetch url="https://api/x" http-method=post http-data="api_key=${M}&text=up"`,
    ],
    [
      '/tool fetch url="https://api/x" http-data="{\\"token\\":\\"T4\\",\\"text\\":\\"up\\"}"',
      `/tool fetch url="https://api/x" http-data="{\\"token\\":\\"${M}\\",\\"text\\":\\"up\\"}"`,
    ],
    [
      '/tool fetch url="https://api.telegram.org/bot123456789:AAE-abcdefghijklmnopqrstuvwxyz01/sendMessage?chat_id=1"',
      `/tool fetch url="https://api.telegram.org/bot${M}/sendMessage?chat_id=1"`,
    ],
    // A URL's password built by concatenation, and the variable that holds it.
    [
      ':local pass "P2"; /tool fetch url=("https://gw:" . $pass . "@b.example.net/u") keep-result=no',
      `:local pass "${M}"; /tool fetch url=("https://gw:" . ${M} . "@b.example.net/u") keep-result=no`,
    ],
    [
      ':local p "P3"; /tool fetch url=("https://" . $u . ":" . $p . "@h/") keep-result=no',
      `:local p "${M}"; /tool fetch url=("https://" . $u . ":" . ${M} . "@h/") keep-result=no`,
    ],
    [
      ':put ("time: " . [/system clock get time])',
      ':put ("time: " . [/system clock get time])',
    ],
    // A function's argument that the function uses as a secret.
    [
      ':local notify do={/tool fetch url="https://n/" user=gw password=$pw}; $notify pw=F5 to=ops',
      `:local notify do={/tool fetch url="https://n/" user=gw password=${M}}; $notify pw=${M} to=ops`,
    ],
    [
      ":local notify do={:log info $msg}; $notify msg=up",
      ":local notify do={:log info $msg}; $notify msg=up",
    ],
  ];
  for (const [raw, masked] of table) assert.equal(maskRawCommand(raw), masked, raw);
});

Deno.test("rawSecretValues: each value as written and as RouterOS reads it", () => {
  assert.deepEqual(rawSecretValues('/user set 0 password="a\\"b" comment=c'), ['a\\"b', 'a"b']);
  assert.deepEqual(rawSecretValues("/ip address print"), []);
});

/** Secret names to generate values for (`key` where it is a secret). */
const NAMES = [...SECRET_ARGUMENTS];
/** Unquoted values RouterOS reads as one word. */
const PLAIN_WORD = /^[A-Za-z0-9._@%+,:/*-]+$/;

/** A header list item that starts another header (RouterOS splits `http-header-field` there). */
const NEXT_HEADER = /,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*:/;

/**
 * Ways a secret value is written in a raw command, each built from the value
 * and from how a variable holding it is used (`use("s")`: `$s`, or masked, the mask).
 */
const FORMS: ((name: string, value: string, use: (v: string) => string) => string | undefined)[] = [
  (n, v) => `/ppp secret add name=u ${n}=${quoteValue(v)} comment=c`,
  (n, v) => PLAIN_WORD.test(v) ? `/user set 0 ${n}=${v}; /user print` : undefined,
  (n, v) => `{ /user set 0 ${n}=${quoteValue(v)} }`,
  (n, v) => `/user print where ${n}=${quoteValue(v)} and name="a"`,
  (n, v) => `/system script add name=s source=${quoteValue(`/user set 0 ${n}=${quoteValue(v)}`)}`,
  (n, v) =>
    `/system scheduler add name=s on-event=${
      quoteValue(`:execute script=${quoteValue(`/user set 0 ${n}=${quoteValue(v)}`)}`)
    }`,
  (n, v, use) => `:local s ${quoteValue(v)}; /user set 0 ${n}=${use("s")}`,
  (n, v, use) =>
    `:global s ${quoteValue(v)}; :global t ${use("s")}; ` +
    `/system script add name=x source=${quoteValue(`/user set 0 ${n}=${use("t")}`)}`,
  (_n, v) =>
    /^\S/.test(v) && !NEXT_HEADER.test(v)
      ? `/tool fetch url=https://h/x http-header-field=${
        quoteValue(`Accept: */*,Authorization: Bearer ${v}`)
      } output=user`
      : undefined,
];

Deno.test("maskRawCommand: no secret value survives, quoted, nested, in a header or a variable", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...NAMES),
      fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
      fc.nat(FORMS.length - 1),
      (name, value, form) => {
        const command = FORMS[form](name, value, (v) => `$${v}`);
        fc.pre(command !== undefined);
        // The same command with the mask as the value (and each variable's use): what masking gives.
        assert.equal(maskRawCommand(command!), FORMS[form](name, M, () => M));
      },
    ),
    { numRuns: 1000 },
  );
});

/**
 * Texts that made the scan quadratic or could (a statement of many
 * arguments, brackets nested deep, many strings, variables, headers), each
 * as a function of its size.
 */
const HARD_TEXTS: Record<string, (n: number) => string> = {
  "many secrets": (n) => "password=a ".repeat(n),
  "many arguments": (n) => "/ip address add address=1.2.3.4 ".repeat(n),
  "nested brackets": (n) => "[".repeat(n) + "a=1" + "] b=1".repeat(n),
  "concatenated URLs": (n) => '("https://u:" . $p . "@h") '.repeat(n),
  "query strings": (n) => '"https://h/?a=1&password=x&token=y" '.repeat(n),
  "JSON bodies": (n) => '"{\\"api_key\\":\\"v\\"}" '.repeat(n),
  "variable chains": (n) =>
    Array.from({ length: n }, (_, i) => `:local v${i} $v${i + 1};`).join("") + " password=$v0",
  "function calls": (n) => "$f pw=x ".repeat(n) + ":local f do={password=$pw}",
  "quotes": (n) => '"'.repeat(n),
  "an unterminated string": (n) => '"' + "a".repeat(n),
  "headers": (n) => 'http-header-field="' + "Authorization: x,".repeat(n) + '"',
  "assignments": (n) => "l;".repeat(n),
};

Deno.test("maskingWork: masking is linear in the text, whatever its shape", () => {
  for (const [shape, text] of Object.entries(HARD_TEXTS)) {
    const small = text(500);
    const large = text(8000);
    const ratio = maskingWork(large) / maskingWork(small);
    const lengths = large.length / small.length;
    // Linear: 16 times the text is about 16 times the work (a quadratic scan is 256 times).
    assert.ok(ratio < lengths * 1.25, `${shape}: ${ratio.toFixed(1)} times the work`);
    assert.ok(maskingWork(large) < 40 * large.length, `${shape}: over 40 steps a character`);
  }
  // At the largest input an admin may send (64 KiB), in one piece: it ends.
  const big = "password=a ".repeat(6000);
  assert.equal(maskRawCommand(big), `password=${M} `.repeat(6000));
});

Deno.test("SECRET_ARGUMENTS: every secret field of the schema is in it", () => {
  const missing: string[] = [];
  for (const menu of MENU_SCHEMAS) {
    for (const [name, field] of Object.entries(menu.fields)) {
      if (!field.secret) continue;
      for (const ros of [name, field.v6Name].filter((n): n is string => !!n)) {
        if (!isSecretArgument(ros, menu.path)) missing.push(`${menu.path} ${ros}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

/** Every argument name of the real command trees, with the menus that have it. */
function treeArguments(): Map<string, Set<string>> | undefined {
  const dir = new URL("../../../shared/fidelity/", import.meta.url).pathname;
  let files: string[];
  try {
    files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
  } catch {
    console.log(`skip: ${dir} is absent, so the names are not held against the command trees`);
    return undefined;
  }
  const names = new Map<string, Set<string>>();
  for (const file of files) {
    const tree = JSON.parse(Deno.readTextFileSync(dir + file));
    for (const [menu, m] of Object.entries<{ c?: Record<string, string> }>(tree.menus)) {
      for (const args of Object.values(m.c ?? {})) {
        for (const a of args.split(" ").filter(Boolean)) {
          if (!names.has(a)) names.set(a, new Set());
          names.get(a)!.add(menu);
        }
      }
    }
  }
  return names;
}

/** Names that look like they hold a secret. */
const LOOKS_SECRET = /pass|secret|key|psk|community|private|token|(^|[-.])pin$/;

/** The names of `names` that look secret and are judged neither way. */
function unjudged(names: Iterable<string>): string[] {
  return [...names].filter((n) =>
    LOOKS_SECRET.test(n) && n !== "key" && !SECRET_ARGUMENTS.has(n) && !NOT_SECRET.has(n) &&
    !/^(passive|passthrough)/.test(n) && !/\.passive$/.test(n) &&
    !n.startsWith("output.remove")
  );
}

/**
 * RouterOS 6 has no public command tree: the `name=` words of every real
 * 6.x capture (exports, terse and detail prints) are judged instead, so a
 * name 7 renamed (OSPF's and RIP's `authentication-key`, 7's `auth-key`)
 * is not left out. Hostile re-test 3 (issue 31) found it unmasked in a
 * 6.49 export read by a `read` key and in an admin's raw command in the
 * audit log.
 */
Deno.test("secret names: every secret-looking argument of real RouterOS 6 output is judged", () => {
  if (!realOutputAvailable()) return;
  const names = new Set<string>();
  for (const e of Deno.readDirSync(REAL_OUTPUT)) {
    if (!/-v6([.-]|\.txt$)/.test(e.name) || /-v7/.test(e.name)) continue;
    const text = Deno.readTextFileSync(REAL_OUTPUT + e.name);
    for (const m of text.matchAll(/(?:^|\s)([a-z][a-z0-9.-]*)=/gm)) names.add(m[1]);
  }
  assert.ok(names.has("authentication-key"), "the OSPF interface capture of 6 was read");
  assert.deepEqual(unjudged(names), [], "add each to SECRET_ARGUMENTS or NOT_SECRET");
  for (const name of ["authentication-key", "tcp-md5-key", "password", "secret", "key"]) {
    assert.ok(isSecretArgument(name, undefined), name);
  }
  assert.ok(!isSecretArgument("authentication-key-id", "/routing/ospf/interface"));
});

Deno.test("secret names: every secret-looking argument of the command trees is judged", () => {
  const names = treeArguments();
  if (!names) return;
  assert.deepEqual(unjudged(names.keys()), [], "add each to SECRET_ARGUMENTS or NOT_SECRET");
  for (const n of [...SECRET_ARGUMENTS, ...NOT_SECRET]) {
    if (RELEASE_6_ONLY.has(n)) assert.ok(!names.has(n), `${n} is in a tree of 7: not 6 only`);
    else assert.ok(names.has(n), `${n} is an argument of the command trees`);
  }
  for (const menu of KEY_IS_NOT_SECRET_IN) {
    assert.ok(names.get("key")!.has(menu), `${menu} takes key`);
  }
  // The tree names that begin a secret name: exactly NOT_ABBREVIATIONS.
  const prefixes = [...names.keys()].filter((n) =>
    !SECRET_ARGUMENTS.has(n) && n !== "key" &&
    [...SECRET_ARGUMENTS, "key"].some((s) => s !== n && s.startsWith(n))
  ).sort();
  assert.deepEqual(prefixes, [...NOT_ABBREVIATIONS].sort());
});

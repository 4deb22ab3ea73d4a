/**
 * `/certificate`: templates made by `add`, `sign` (self-signed, or by a CA
 * the router holds with its key), `export-certificate` (PEM files, the key
 * only with a passphrase) and `import` (a certificate file, or a key file
 * with its passphrase), through the simulated file store.
 *
 * @module
 */
import type { CommandCtx, Item, MenuDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { onRelease, V7 } from "../releases.ts";
import { fmtDateTime } from "../timefmt.ts";
import { isTrue } from "../values.ts";
import { bool, int, oneOf, ro, str } from "./common.ts";

const CERT_BEGIN = "-----BEGIN CERTIFICATE-----";
const KEY_BEGIN = "-----BEGIN ENCRYPTED PRIVATE KEY-----";

/** A stable hex digest (not cryptographic: the simulator's fingerprints). */
function digest(text: string, length: number): string {
  let out = "";
  let h = 2166136261;
  for (let round = 0; out.length < length; round++) {
    for (const ch of `${round}:${text}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, length);
}

const signed = (i: Item) => (i.fingerprint ?? "") !== "";

function pem(begin: string, body: Record<string, string>): string {
  const end = begin.replace("BEGIN", "END");
  return `${begin}\n${btoa(JSON.stringify(body))}\n${end}\n`;
}

function unpem(text: string): Record<string, string> | undefined {
  const body = text.split("\n")[1];
  try {
    return JSON.parse(atob(body ?? ""));
  } catch {
    return undefined;
  }
}

/** `sign`: the template becomes a certificate with its key (a CA when self-signed). */
function sign(c: CommandCtx): void {
  const all = c.st.stored(CERTIFICATE);
  const caName = c.named.get("ca");
  const ca = caName === undefined ? undefined : all.find((i) => i.name === caName);
  if (caName !== undefined && !ca) throw fail("failure: no such CA certificate");
  if (ca && (!isTrue(ca.ca) || !isTrue(ca["private-key"]))) {
    throw fail("failure: CA certificate must be a CA with a private key");
  }
  for (const it of all.filter((x) => c.ids.includes(x[".id"]))) {
    if (signed(it)) throw fail("failure: certificate is already signed");
    const now = c.st.now();
    const after = new Date(now.getTime() + Number(it["days-valid"] ?? "365") * 86_400_000);
    it.fingerprint = digest(`${it.name}|${now.toISOString()}`, 64);
    it["serial-number"] = digest(it.fingerprint, 16).toUpperCase();
    it.issuer = `CN=${ca ? (ca["common-name"] ?? ca.name) : (it["common-name"] ?? it.name)}`;
    it["invalid-before"] = fmtDateTime(now, c.st.legacyDates);
    it["invalid-after"] = fmtDateTime(after, c.st.legacyDates);
    it["private-key"] = "true";
    it.ca = String(!ca);
    it.trusted = String(!ca || isTrue(it.trusted));
    const rename = c.named.get("name");
    if (rename !== undefined) it.name = rename;
    if (c.interactive) c.print("  progress: done");
  }
  c.st.touch();
}

/** `export-certificate`: `<file-name>.crt`, and `.key` when a passphrase is given. */
function exportCertificate(c: CommandCtx): void {
  const type = c.named.get("type") ?? "pem";
  for (const it of c.st.stored(CERTIFICATE).filter((x) => c.ids.includes(x[".id"]))) {
    if (!signed(it)) throw fail("failure: certificate is not signed");
    const base = c.named.get("file-name") ?? `cert_export_${it.name}`;
    const cert = { fingerprint: it.fingerprint, "common-name": it["common-name"] ?? "" };
    const pass = c.named.get("export-passphrase") ?? "";
    if (type === "pkcs12") {
      const body = { ...cert, ...(pass ? { key: digest(pass, 16) } : {}) };
      c.st.writeFile(`${base}.p12`, pem(CERT_BEGIN, body), ".p12 file");
      continue;
    }
    c.st.writeFile(`${base}.crt`, pem(CERT_BEGIN, cert), ".crt file");
    if (pass && isTrue(it["private-key"])) {
      const key = { fingerprint: it.fingerprint, lock: digest(pass, 16) };
      c.st.writeFile(`${base}.key`, pem(KEY_BEGIN, key), ".key file");
    }
  }
}

/** `import`: a certificate, or the key of one the router holds; prints the counts. */
function importFile(c: CommandCtx): void {
  const name = c.named.get("file-name") ?? "";
  const file = c.st.table("/file").items.find((f) => f.name === name);
  if (!file) throw fail("failure: no such file");
  const counts = { certs: 0, keys: 0, failures: 0, orphans: 0 };
  const body = unpem(file.contents ?? "");
  if (!body) throw fail("failure: unable to read file");
  const all = c.st.stored(CERTIFICATE);
  const same = all.find((i) => i.fingerprint === body.fingerprint);
  if ((file.contents ?? "").startsWith(KEY_BEGIN)) {
    if (body.lock !== digest(c.named.get("passphrase") ?? "", 16)) counts.failures++;
    else if (!same) counts.orphans++;
    else {
      same["private-key"] = "true";
      counts.keys++;
    }
  } else if (!same) {
    const stem = name.replace(/\.[a-z0-9]+$/i, "");
    let cert = `${stem}_0`;
    for (let n = 1; all.some((i) => i.name === cert); n++) cert = `${stem}_${n}`;
    const table = c.st.table(CERTIFICATE.path);
    table.items.push({
      ".id": c.st.newId(table),
      ...defaults(c.st),
      name: cert,
      "common-name": body["common-name"] ?? "",
      fingerprint: body.fingerprint ?? "",
      "private-key": String(
        body.key !== undefined &&
          body.key === digest(c.named.get("passphrase") ?? "", 16),
      ),
      trusted: "true",
    });
    counts.certs++;
  }
  c.st.touch();
  c.print(`     certificates-imported: ${counts.certs}`);
  c.print(`     private-keys-imported: ${counts.keys}`);
  c.print(`            files-imported: ${counts.certs + counts.keys ? 1 : 0}`);
  c.print(`       decryption-failures: ${counts.failures}`);
  c.print(`  keys-with-no-certificate: ${counts.orphans}`);
}

function defaults(st: RouterState): Item {
  const out: Item = {};
  for (const p of CERTIFICATE.props) {
    if (typeof p.default === "string" && onRelease(st.release, p.releases)) {
      out[p.name] = p.default;
    }
  }
  return out;
}

/** `/certificate`. */
export const CERTIFICATE: MenuDef = {
  path: "/certificate",
  kind: "list",
  key: "name",
  verbs: ["print", "find", "get", "set", "add", "remove"],
  props: [
    str("name", {
      default: (i, st) => i["common-name"] ?? `cert${st.stored(CERTIFICATE).length + 1}`,
    }),
    str("common-name"),
    str("subject-alt-name"),
    str("country"),
    str("state"),
    str("locality"),
    str("organization"),
    str("unit"),
    oneOf("key-size", [
      "1024",
      "1536",
      "2048",
      "4096",
      "8192",
      "prime256v1",
      "secp384r1",
      "secp521r1",
    ], "2048"),
    int("days-valid", 365, { min: 1 }),
    {
      name: "key-usage",
      type: "list",
      values: [
        "code-sign",
        "content-commitment",
        "crl-sign",
        "data-encipherment",
        "decipher-only",
        "digital-signature",
        "dvcs",
        "email-protect",
        "encipher-only",
        "key-agreement",
        "key-cert-sign",
        "key-encipherment",
        "ocsp-sign",
        "timestamp",
        "tls-client",
        "tls-server",
      ],
    },
    bool("trusted", false),
    ro("issuer", "str"),
    ro("fingerprint", "str"),
    ro("serial-number", "str"),
    ro("invalid-before", "str"),
    ro("invalid-after", "str"),
    ro("expires-after", "str", { releases: V7 }),
    ro("private-key", "bool", { default: "false" }),
    ro("ca", "bool", { default: "false" }),
    ro("expired", "bool", { default: "false" }),
  ],
  flags: [
    { ch: "K", name: "private-key", group: 0, test: (i) => isTrue(i["private-key"]) },
    { ch: "A", name: "authority", group: 1, test: (i) => isTrue(i.ca) },
    { ch: "T", name: "trusted", group: 2, test: (i) => isTrue(i.trusted) },
  ],
  columns: ["name", "common-name", "fingerprint"],
  unique: [{ props: ["name"], error: "failure: certificate with the same name already exists" }],
  commands: {
    sign: {
      numbers: true,
      numbersName: "number",
      args: ["ca", "name"],
      write: true,
      run: sign,
    },
    "export-certificate": {
      numbers: true,
      args: ["export-passphrase", "file-name", "type"],
      write: true,
      run: exportCertificate,
    },
    import: { args: ["file-name", "passphrase"], write: true, run: importFile },
  },
};

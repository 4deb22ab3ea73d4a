/**
 * The commands of `/certificate` beyond its list: `router_sign_certificate`
 * (a template becomes a certificate, self-signed or by a CA the router
 * holds), `router_export_certificate` (files in /file; the key only with a
 * passphrase, and only with the operator's `--reveal-secrets`) and `router_import_certificate` (a certificate or key file
 * from /file). Passphrases are write-only: masked in dry runs, errors and
 * audit lines, never returned.
 *
 * @module
 */
import * as z from "zod";
import { cmd, type ItemRef, refCondition } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { Script } from "../../routeros/script.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { certificates } from "../../routeros/schema/menus/platform.ts";
import { defineTool } from "../define.ts";
import { ID_SCHEMA, itemObject, menuDialect, refOn } from "../menu_tools/read_tools.ts";
import { toItem } from "../menu_tools/fields.ts";
import { renderTable } from "../render.ts";
import { type ToolContext, WRITE } from "../tool.ts";

const PATH = certificates.path;
const NAME = z.string().min(1).max(255);
const PASSPHRASE = z.string().min(1).max(255);
const COLUMNS = ["id", "name", "common_name", "issuer", "invalid_after", "private_key", "ca"];
const WHICH = {
  id: ID_SCHEMA.optional().describe("Certificate id (.id), such as *1"),
  name: NAME.optional().describe("Or the certificate's name; give id or name"),
};

function certRef(args: { id?: string; name?: string }): ItemRef {
  if (args.id !== undefined) return { id: args.id };
  if (args.name !== undefined) return { key: "name", value: args.name };
  throw new ArgumentError("give id or name to say which certificate");
}

/** The certificate `args` names, read: its id and its raw record. */
async function find(
  args: { id?: string; name?: string },
  ctx: ToolContext,
): Promise<{ dialect: Dialect; id: string; raw: Record<string, unknown> }> {
  const dialect = await menuDialect(certificates, ctx);
  const ref = refOn(certificates, certRef(args), dialect.release);
  const [raw] = await ctx.client.read(readSpecOf(certificates, dialect.release), [
    refCondition(ref),
  ]);
  if (!raw) throw new RouterOsError("not-found", "no such certificate", "no such item");
  return { dialect, id: String(raw[".id"]), raw };
}

/** `router_sign_certificate`. */
export const signCertificate = defineTool({
  name: "router_sign_certificate",
  title: "Sign a certificate",
  description:
    "Sign a certificate template (router_add_certificate) so it gets its key: by `ca`, a CA " +
    "certificate the router holds with its private key, or self-signed without `ca` (how a CA " +
    "starts). Returns the certificate afterwards.",
  toolset: "platform",
  input: {
    ...WHICH,
    ca: NAME.optional().describe("Name of the CA certificate that signs it (none: self-signed)"),
  },
  requireOneOf: ["id", "name"],
  output: { item: itemObject(certificates) },
  example: { name: "cert-example" },
  annotations: WRITE,
  perDevice: true,
  async handler(args, ctx) {
    const { dialect, id } = await find(args, ctx);
    const script = new Script(dialect);
    // RouterOS prints its progress ("progress: done") while it signs.
    script.lines(cmd(PATH, "sign", { ids: { number: id }, args: { ca: args.ca } }));
    const read = script.read(readSpecOf(certificates, dialect.release), [refCondition({ id })]);
    const [raw] = (await ctx.client.run(script, { idempotent: false, what: PATH })).get(read)
      .items;
    if (!raw) throw new RouterOsError("not-found", "the certificate is gone", "no such item");
    const item = toItem(certificates, dialect.release, raw);
    return { structured: { item }, text: renderTable([item], COLUMNS) };
  },
});

/** `router_export_certificate`. */
export const exportCertificate = defineTool({
  name: "router_export_certificate",
  title: "Export a certificate to files",
  description: "Export a signed certificate to /file (router_read_file, router_list_files): PEM " +
    "`<file_name>.crt`, plus `<file_name>.key` when export_passphrase is given (the key is " +
    "encrypted with it); pkcs12 writes one `.p12`. export_passphrase is write-only. Exporting " +
    "the private key (export_passphrase, pkcs12) needs the server's --reveal-secrets.",
  toolset: "platform",
  input: {
    ...WHICH,
    file_name: NAME.optional().describe("File name without extension (default cert_export_<name>)"),
    type: z.enum(["pem", "pkcs12"]).optional().describe("File format (default pem)"),
    export_passphrase: PASSPHRASE.optional().describe(
      "Passphrase that encrypts the exported private key (write-only; none: no key)",
    ),
  },
  requireOneOf: ["id", "name"],
  secretArgs: ["export_passphrase"],
  output: { files: z.array(z.string()).describe("Files the export made") },
  example: { name: "cert-example" },
  annotations: WRITE,
  perDevice: true,
  // The key leaves the router, encrypted with a passphrase the caller chose: a secret shown.
  revealsSecrets: (args) =>
    (args.export_passphrase !== undefined || args.type === "pkcs12") &&
    "would take the certificate's private key out of the router (export_passphrase or pkcs12)",
  async handler(args, ctx) {
    const { dialect, id, raw } = await find(args, ctx);
    const base = args.file_name ?? `cert_export_${raw.name}`;
    const names = args.type === "pkcs12" ? [`${base}.p12`] : [`${base}.crt`, `${base}.key`];
    const script = new Script(dialect);
    script.do(cmd(PATH, "export-certificate", {
      numbers: { id },
      args: {
        "file-name": args.file_name,
        type: args.type,
        "export-passphrase": args.export_passphrase,
      },
    }));
    const spec = readSpecOf(files, dialect.release);
    const reads = names.map((n) => script.read(spec, [{ key: "name", value: n }]));
    const out = await ctx.client.run(script, { idempotent: false, what: PATH });
    const made = names.filter((_, i) => out.get(reads[i]).items.length > 0);
    return { structured: { files: made }, text: made.join("\n") + "\n" };
  },
});

const COUNTS = [
  "certificates-imported",
  "private-keys-imported",
  "files-imported",
  "decryption-failures",
  "keys-with-no-certificate",
] as const;

/** `router_import_certificate`. */
export const importCertificate = defineTool({
  name: "router_import_certificate",
  title: "Import a certificate file",
  description:
    "Import a certificate or private key file from /file (upload it with router_upload_file). " +
    "A key needs the passphrase it was exported with (write-only) and joins its certificate. " +
    "Returns RouterOS's counts: a wrong passphrase shows as a decryption failure.",
  toolset: "platform",
  input: {
    file_name: NAME.describe("File in /file, e.g. cert_export_vpn.crt"),
    passphrase: PASSPHRASE.optional().describe("Passphrase of an encrypted key (write-only)"),
  },
  secretArgs: ["passphrase"],
  output: Object.fromEntries(COUNTS.map((c) => [c.replaceAll("-", "_"), z.number()])),
  example: { file_name: "cert_export_cert-example.crt" },
  annotations: WRITE,
  perDevice: true,
  async handler(args, ctx) {
    const dialect = await menuDialect(certificates, ctx);
    const script = new Script(dialect);
    const lines = script.lines(cmd(PATH, "import", {
      args: { "file-name": args.file_name, passphrase: args.passphrase },
    }));
    const out = (await ctx.client.run(script, { idempotent: false, what: PATH })).get(lines);
    const counts: Record<string, number> = {};
    for (const line of out) {
      const m = /^\s*([a-z-]+):\s*(\d+)\s*$/.exec(line);
      if (m && (COUNTS as readonly string[]).includes(m[1])) {
        counts[m[1].replaceAll("-", "_")] = Number(m[2]);
      }
    }
    for (const c of COUNTS) counts[c.replaceAll("-", "_")] ??= 0;
    return {
      structured: counts,
      text: renderTable([counts], Object.keys(counts)),
    };
  },
});

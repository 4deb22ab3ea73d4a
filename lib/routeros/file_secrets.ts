/**
 * Secrets written in a file of the router's storage, as its text is shown
 * (`router_read_file`, the `contents` that `router_print` reads from
 * `/file`): one masking for every way a file's text leaves the router.
 *
 * - A private key's file (`.key`, `.p12`, `.pfx`: what `/certificate
 *   export-certificate` writes with `export-passphrase`) is a secret whole:
 *   its passphrase is the exporter's choice, so the key is as good as in
 *   clear to whoever chose it.
 * - A PEM private key block anywhere (`-----BEGIN ... PRIVATE KEY-----` to
 *   its `-----END`, or to the end when it has none) keeps its two lines and
 *   loses its body.
 * - Text that is not text (a control character other than a tab or a line
 *   break: a binary backup or key renamed) is withheld whole.
 * - Everything else is masked as an export is ({@linkcode maskExportSecrets}):
 *   an `.rsc` written by `export show-sensitive file=` holds every secret of
 *   the router, and scripts are shown as the reader may see them.
 *
 * @module
 */
import { SECRET_MASK } from "../secret_mask.ts";
import { maskExportSecrets, type ScriptText } from "./export_secrets.ts";

/** Files that hold a private key: PEM keys and PKCS#12 bundles. */
const KEY_FILE = /\.(key|p12|pfx)$/i;

/** A PEM private key block: its first line, its body, and its last line (or the end). */
const PRIVATE_KEY =
  /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/** A character no text file holds: C0 controls but tab, line feed, form feed and carriage return. */
// deno-lint-ignore no-control-regex
const BINARY = /[\x00-\x08\x0b\x0e-\x1f\x7f]/;

/** Whether a file's name says it holds a private key (its text is a secret whole). */
export function isKeyFile(name: string): boolean {
  return KEY_FILE.test(name);
}

/**
 * A file's text as a reader may see it: `whole` with the operator's
 * `--reveal-secrets`; otherwise with every secret masked, a key file's and
 * a binary file's text withheld, and scripts as `scripts` says.
 */
export function maskFileText(name: string, text: string, scripts: ScriptText): string {
  if (scripts === "whole") return text;
  if (text === "") return text;
  if (isKeyFile(name) || BINARY.test(text)) return SECRET_MASK;
  const keys = text.replace(
    PRIVATE_KEY,
    (_, begin: string, end: string) => `${begin}\n${SECRET_MASK}${end ? `\n${end}` : ""}`,
  );
  return maskExportSecrets(keys, scripts);
}

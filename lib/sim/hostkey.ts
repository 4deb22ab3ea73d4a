/** SSH host keys: one generated ed25519 key shared by every router of the process. */
import ssh2 from "ssh2";
import { createHash } from "node:crypto";
const { utils } = ssh2;

let shared: string | null = null;

/** The process-wide default host key (OpenSSH private key text), generated once. */
export function sharedHostKey(): string {
  if (!shared) shared = generateHostKey();
  return shared;
}

/** A fresh ed25519 private key in OpenSSH format. */
export function generateHostKey(): string {
  return utils.generateKeyPairSync("ed25519").private;
}

/** `SHA256:<base64 without padding>` of a private key's public half, as OpenSSH prints it. */
export function fingerprint(privateKey: string): string {
  const parsed = utils.parseKey(privateKey);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (key instanceof Error) throw key;
  const blob = key.getPublicSSH() as Uint8Array;
  const digest = createHash("sha256").update(blob).digest("base64");
  return "SHA256:" + digest.replace(/=+$/, "");
}

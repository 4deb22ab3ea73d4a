/** SSH host keys: one generated ed25519 key shared by every router of the process. */
import { createHash } from "node:crypto";
import { parseKey, utils } from "./ssh2.ts";

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
  const key = parseKey(privateKey);
  if (key instanceof Error) throw key;
  const digest = createHash("sha256").update(key.getPublicSSH()).digest("base64");
  return "SHA256:" + digest.replace(/=+$/, "");
}

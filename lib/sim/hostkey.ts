/**
 * SSH host keys of the simulator: ed25519 keys made with node:crypto and
 * written in the OpenSSH format here (ssh2's generator strips every leading
 * zero byte of the public key, so about one key in 256 came out 31 bytes
 * long and failed to load with "Malformed OpenSSH private key"), one
 * generated key shared by every router of the process, and a key kept in a
 * file across restarts.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { parseKey } from "./ssh2.ts";

let shared: string | null = null;

/** The process-wide default host key (OpenSSH private key text), generated once. */
export function sharedHostKey(): string {
  if (!shared) shared = generateHostKey();
  return shared;
}

/** A fresh ed25519 private key in OpenSSH format. */
export function generateHostKey(): string {
  return generateEd25519Pair().private;
}

/** An OpenSSH ed25519 key pair: private key file text and public key line. */
export interface Ed25519Pair {
  private: string;
  public: string;
}

/** A fresh ed25519 key pair in OpenSSH format (unencrypted), with `comment`. */
export function generateEd25519Pair(comment = ""): Ed25519Pair {
  const { privateKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" }) as { d: string; x: string };
  const seed = Buffer.from(jwk.d, "base64url");
  const pub = Buffer.from(jwk.x, "base64url");
  if (seed.length !== 32 || pub.length !== 32) {
    throw new Error(`node:crypto gave an ed25519 key of ${seed.length}/${pub.length} bytes`);
  }
  const blob = Buffer.concat([sshString("ssh-ed25519"), sshString(pub)]);
  const line = `ssh-ed25519 ${blob.toString("base64")}${comment ? ` ${comment}` : ""}`;
  return { private: openSshPrivateKey(seed, pub, blob, comment), public: line };
}

function sshString(b: Uint8Array | string): Buffer {
  const body = Buffer.from(b as string);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** An unencrypted `openssh-key-v1` file (PROTOCOL.key in OpenSSH) for one ed25519 key. */
function openSshPrivateKey(seed: Buffer, pub: Buffer, pubBlob: Buffer, comment: string): string {
  const check = randomBytes(4).readUInt32BE(0);
  let priv = Buffer.concat([
    u32(check),
    u32(check),
    sshString("ssh-ed25519"),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  const pad: number[] = [];
  for (let i = 1; (priv.length + pad.length) % 8 !== 0; i++) pad.push(i);
  priv = Buffer.concat([priv, Buffer.from(pad)]);
  const body = Buffer.concat([
    Buffer.from("openssh-key-v1\0"),
    sshString("none"),
    sshString("none"),
    sshString(""),
    u32(1),
    sshString(pubBlob),
    sshString(priv),
  ]);
  const b64 = body.toString("base64").replace(/(.{70})/g, "$1\n").replace(/\n$/, "");
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** `SHA256:<base64 without padding>` of a private key's public half, as OpenSSH prints it. */
export function fingerprint(privateKey: string): string {
  const key = parseKey(privateKey);
  if (key instanceof Error) throw key;
  const digest = createHash("sha256").update(key.getPublicSSH()).digest("base64");
  return "SHA256:" + digest.replace(/=+$/, "");
}

/** Why a host key file cannot be used, as one sentence naming the file and the fix. */
export class HostKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostKeyFileError";
  }
}

/**
 * The host key kept in `path`: read when the file exists, else generated
 * and written there (mode 600), so that a restarted simulator presents the
 * same key and pinned or `accept-new` clients keep trusting it.
 */
export async function loadOrCreateHostKey(path: string): Promise<string> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) {
      throw new HostKeyFileError(
        `cannot read the host key file ${path} (${(err as Error).message}); ` +
          `fix its permissions or choose another --host-key-file`,
      );
    }
    const key = generateHostKey();
    try {
      await Deno.writeTextFile(path, key, { mode: 0o600, createNew: true });
    } catch (e) {
      // Another process created it meanwhile: use that one.
      if (e instanceof Deno.errors.AlreadyExists) return await loadOrCreateHostKey(path);
      throw new HostKeyFileError(
        `cannot write the host key file ${path} (${(e as Error).message}); ` +
          `choose a writable --host-key-file`,
      );
    }
    return key;
  }
  const key = parseKey(text);
  if (key instanceof Error || !key.isPrivateKey()) {
    throw new HostKeyFileError(
      `the host key file ${path} holds no usable private key; ` +
        `delete it to have a new key made, or point --host-key-file at an OpenSSH or PEM private key`,
    );
  }
  return text;
}

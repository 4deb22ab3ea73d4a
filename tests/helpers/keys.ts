/**
 * Test helpers: SSH key pairs of every type (ed25519, ecdsa, rsa) in OpenSSH
 * format and PEM (node:crypto: PKCS#1 for rsa, SEC1 for ecdsa, PKCS#8 for
 * ed25519), optionally encrypted with a passphrase.
 *
 * OpenSSH ed25519 keys come from the simulator's generator: ssh2's strips
 * every leading zero byte of the public key, so about one key in 256 was 31
 * bytes long and failed to load ("Malformed OpenSSH private key"). ssh2's
 * generator is still the only one that encrypts OpenSSH keys; for an
 * encrypted ed25519 key its output is checked and a short key made again.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { generateEd25519Pair } from "../../lib/sim/hostkey.ts";
import { parseKey, utils } from "../../lib/ssh/ssh2.ts";

/** Key algorithms. */
export type KeyType = "ed25519" | "ecdsa" | "rsa";
/** Private key file formats. */
export type KeyFormat = "openssh" | "pem";

/** A generated key pair. */
export interface TestKey {
  type: KeyType;
  format: KeyFormat;
  /** Private key file contents. */
  privateKey: string;
  /** OpenSSH public key line (`ssh-ed25519 AAAA... comment`). */
  publicKey: string;
}

function sshString(b: Uint8Array | string): Buffer {
  const body = Buffer.from(b as string);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function publicLine(key: KeyObject, type: KeyType): string {
  if (type === "ed25519") {
    const x = Buffer.from((key.export({ format: "jwk" }) as { x: string }).x, "base64url");
    const blob = Buffer.concat([sshString("ssh-ed25519"), sshString(x)]);
    return `ssh-ed25519 ${blob.toString("base64")} test`;
  }
  const pem = String(key.export({ type: type === "rsa" ? "pkcs1" : "sec1", format: "pem" }));
  const k = parseKey(pem);
  if (k instanceof Error) throw k;
  return `${k.type} ${Buffer.from(k.getPublicSSH()).toString("base64")} test`;
}

/** Length of the key in an `ssh-ed25519 AAAA...` public key line (32 when whole). */
function ed25519PublicLength(line: string): number {
  const blob = Buffer.from(line.split(" ")[1], "base64");
  const typeLen = blob.readUInt32BE(0);
  return blob.readUInt32BE(4 + typeLen);
}

/** An encrypted OpenSSH ed25519 pair from ssh2, made again while its public key is short. */
function encryptedEd25519(passphrase: string): { private: string; public: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519", {
      comment: "test",
      passphrase,
      cipher: "aes256-ctr",
      rounds: 4,
    });
    if (ed25519PublicLength(pair.public) === 32) return pair;
  }
}

/** Generate a key pair of `type` in `format`, encrypted when `passphrase` is given. */
export function makeKey(type: KeyType, format: KeyFormat, passphrase?: string): TestKey {
  if (format === "openssh" && type === "ed25519") {
    const pair = passphrase ? encryptedEd25519(passphrase) : generateEd25519Pair("test");
    return { type, format, privateKey: pair.private, publicKey: pair.public };
  }
  if (format === "openssh") {
    const options = {
      comment: "test",
      ...(passphrase ? { passphrase, cipher: "aes256-ctr", rounds: 4 } : {}),
    };
    const pair = type === "rsa"
      ? utils.generateKeyPairSync("rsa", { bits: 2048, ...options })
      : utils.generateKeyPairSync("ecdsa", { bits: 256, ...options });
    return { type, format, privateKey: pair.private, publicKey: pair.public };
  }
  const { privateKey } = type === "rsa"
    ? generateKeyPairSync("rsa", { modulusLength: 2048 })
    : type === "ecdsa"
    ? generateKeyPairSync("ec", { namedCurve: "P-256" })
    : generateKeyPairSync("ed25519");
  const encoding = type === "rsa" ? "pkcs1" : type === "ecdsa" ? "sec1" : "pkcs8";
  const text = String(privateKey.export({
    type: encoding as "pkcs1",
    format: "pem",
    ...(passphrase ? { cipher: "aes-256-cbc", passphrase } : {}),
  }));
  return { type, format, privateKey: text, publicKey: publicLine(privateKey, type) };
}

/** Write a private key to `dir` (mode 600) and return its path. */
export async function writeKey(dir: string, key: TestKey, name?: string): Promise<string> {
  const path = `${dir}/${name ?? `id_${key.type}_${key.format}`}`;
  await Deno.writeTextFile(path, key.privateKey, { mode: 0o600 });
  return path;
}

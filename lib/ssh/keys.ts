/**
 * Private keys for public key authentication: ed25519, ecdsa and rsa, in
 * OpenSSH format or PEM (PKCS#1, SEC1 and PKCS#8), optionally encrypted
 * with a passphrase. Parsed once per file and passphrase, with messages that
 * say what to fix and never show the passphrase.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createPrivateKey, randomBytes } from "node:crypto";
import { SshError } from "./errors.ts";
import type { ParsedKey } from "./ssh2.ts";
import { loadSsh2 } from "./ssh2_load.ts";
import { describeTarget, type SshTarget } from "./target.ts";

export type { ParsedKey } from "./ssh2.ts";

const PASSPHRASE_FIX =
  "set key_passphrase in the inventory entry (or --key-passphrase / ROUTER_KEY_PASSPHRASE)";

type ParseKey = (typeof import("./ssh2.ts"))["parseKey"];

/**
 * Parse private key text. Rejects with an Error whose message says what is
 * wrong (without the passphrase).
 */
export async function parsePrivateKey(text: string, passphrase?: string): Promise<ParsedKey> {
  const { parseKey } = await loadSsh2();
  return parseWith(parseKey, text, passphrase);
}

function parseWith(parseKey: ParseKey, text: string, passphrase?: string): ParsedKey {
  const pass = passphrase === "" ? undefined : passphrase;
  if (/-----BEGIN (ENCRYPTED )?PRIVATE KEY-----/.test(text)) {
    return parseWith(parseKey, parsePkcs8(text, pass));
  }
  const key = parseKey(text, pass);
  if (key instanceof Error) throw new Error(explain(key.message, pass !== undefined));
  if (!key.isPrivateKey()) {
    throw new Error(
      "this is a public key; point key_filename at the private key file (the one without .pub)",
    );
  }
  try {
    return normalise(parseKey, key);
  } catch {
    // node:crypto cannot re-encode it (e.g. P-521 on Deno): use ssh2's own form.
    return key;
  }
}

/**
 * Re-encode rsa and ecdsa keys through node:crypto. ssh2 signs with the PEM it
 * builds itself, which strict DER decoders (Deno's) refuse in two cases: a
 * decrypted legacy PEM keeps its cipher padding after the DER, and an
 * OpenSSH-format ecdsa key carries its scalar as an mpint with a leading zero.
 */
function normalise(parseKey: ParseKey, key: ParsedKey): ParsedKey {
  const isRsa = key.type === "ssh-rsa";
  const curve = EC_CURVES[key.type];
  if (!isRsa && !curve) return key;
  const pem = key.getPrivatePEM();
  const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  let der = new Uint8Array(Buffer.from(body, "base64"));
  der = der.subarray(0, derElement(der, 0).end);
  let text: string;
  if (isRsa) {
    const obj = createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs1" });
    text = obj.export({ type: "pkcs1", format: "pem" }) as string;
  } else {
    // SEC1: SEQUENCE { INTEGER 1, OCTET STRING d, [0] curve OID, [1] BIT STRING point }
    const seq = derElement(der, 0);
    const version = derElement(der, seq.start);
    const d = derElement(der, version.end);
    let point: Uint8Array | null = null;
    for (let at = d.end; at < seq.end;) {
      const el = derElement(der, at);
      if (der[at] === 0xa1) point = der.subarray(derElement(der, el.start).start + 1, el.end);
      at = el.end;
    }
    if (!point || point[0] !== 4) return key;
    const size = curve.size;
    const x = point.subarray(1, 1 + size);
    const y = point.subarray(1 + size, 1 + 2 * size);
    const obj = createPrivateKey({
      key: {
        kty: "EC",
        crv: curve.crv,
        d: fixedLength(der.subarray(d.start, d.end), size).toString("base64url"),
        x: Buffer.from(x).toString("base64url"),
        y: Buffer.from(y).toString("base64url"),
      },
      format: "jwk",
    });
    text = obj.export({ type: "sec1", format: "pem" }) as string;
  }
  const again = parseKey(text);
  return again instanceof Error ? key : again;
}

const EC_CURVES: Record<string, { crv: string; size: number }> = {
  "ecdsa-sha2-nistp256": { crv: "P-256", size: 32 },
  "ecdsa-sha2-nistp384": { crv: "P-384", size: 48 },
  "ecdsa-sha2-nistp521": { crv: "P-521", size: 66 },
};

/** Left-pad or strip leading zeros to exactly `size` bytes. */
function fixedLength(bytes: Uint8Array, size: number): Buffer {
  let b = bytes;
  while (b.length > size && b[0] === 0) b = b.subarray(1);
  const out = Buffer.alloc(size);
  out.set(b, size - b.length);
  return out;
}

/** Content start and element end of the DER element at `at`. */
function derElement(der: Uint8Array, at: number): { start: number; end: number } {
  let len = der[at + 1];
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i];
    start += n;
  }
  if (start + len > der.length) throw new Error("the key is malformed (truncated DER)");
  return { start, end: start + len };
}

function explain(message: string, hadPassphrase: boolean): string {
  if (/no passphrase given/i.test(message)) {
    return `the key is encrypted with a passphrase, and none was given: ${PASSPHRASE_FIX}`;
  }
  if (/bad passphrase|integrity check failed|bad decrypt/i.test(message)) {
    return "the passphrase does not decrypt the key; check key_passphrase";
  }
  if (/invalid curve/i.test(message)) {
    return "this ecdsa curve cannot be used in this format; use an ed25519, ecdsa P-256 or " +
      "P-384, or rsa key (or the OpenSSH format)";
  }
  if (/unsupported key format/i.test(message)) {
    return "not a private key in a supported format (ed25519, ecdsa or rsa; OpenSSH or PEM)";
  }
  if (hadPassphrase && /encrypted|decrypt|malformed/i.test(message)) {
    return "the passphrase does not decrypt the key; check key_passphrase";
  }
  return `the key cannot be used: ${message}`;
}

/** PKCS#8 (`BEGIN PRIVATE KEY`, encrypted or not) via node:crypto, as a key ssh2 reads. */
function parsePkcs8(text: string, passphrase?: string): string {
  const encrypted = text.includes("BEGIN ENCRYPTED PRIVATE KEY");
  if (encrypted && passphrase === undefined) {
    throw new Error(
      `the key is encrypted with a passphrase, and none was given: ${PASSPHRASE_FIX}`,
    );
  }
  let key;
  try {
    key = createPrivateKey({ key: text, format: "pem", passphrase });
  } catch (err) {
    throw new Error(
      encrypted
        ? "the passphrase does not decrypt the key; check key_passphrase"
        : `the key cannot be read: ${(err as Error).message}`,
    );
  }
  let converted: string;
  switch (key.asymmetricKeyType) {
    case "rsa":
      converted = key.export({ type: "pkcs1", format: "pem" }) as string;
      break;
    case "ec":
      converted = key.export({ type: "sec1", format: "pem" }) as string;
      break;
    case "ed25519": {
      const jwk = key.export({ format: "jwk" }) as { d: string; x: string };
      converted = openSshEd25519(
        Buffer.from(jwk.d, "base64url"),
        Buffer.from(jwk.x, "base64url"),
      );
      break;
    }
    default:
      throw new Error(
        `${key.asymmetricKeyType} keys are not supported; use an ed25519, ecdsa or rsa key`,
      );
  }
  return converted;
}

/** An unencrypted `openssh-key-v1` private key for an ed25519 seed and public key. */
function openSshEd25519(seed: Uint8Array, pub: Uint8Array): string {
  const str = (b: Uint8Array | string) => {
    const body = typeof b === "string" ? Buffer.from(b) : Buffer.from(b);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    return Buffer.concat([len, body]);
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const pubBlob = Buffer.concat([str("ssh-ed25519"), str(pub)]);
  const check = randomBytes(4).readUInt32BE(0);
  let priv = Buffer.concat([
    u32(check),
    u32(check),
    str("ssh-ed25519"),
    str(pub),
    str(Buffer.concat([seed, pub])),
    str(""),
  ]);
  const pad: number[] = [];
  for (let i = 1; (priv.length + pad.length) % 8 !== 0; i++) pad.push(i);
  priv = Buffer.concat([priv, Buffer.from(pad)]);
  const body = Buffer.concat([
    Buffer.from("openssh-key-v1\0"),
    str("none"),
    str("none"),
    str(""),
    u32(1),
    str(pubBlob),
    str(priv),
  ]);
  const b64 = body.toString("base64").replace(/(.{70})/g, "$1\n");
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** Loads and caches the private keys of targets. */
export class KeyStore {
  #cache = new Map<string, { mtime: number; key: ParsedKey }>();

  /** The target's parsed private key, or undefined when it has no key file. */
  async load(target: SshTarget): Promise<ParsedKey | undefined> {
    const path = target.keyFilename;
    if (!path) return undefined;
    const who = describeTarget(target);
    let text: string;
    let mtime = 0;
    try {
      const info = await Deno.stat(path);
      mtime = info.mtime?.getTime() ?? 0;
      const cacheKey = `${path}\0${target.keyPassphrase ?? ""}`;
      const hit = this.#cache.get(cacheKey);
      if (hit && hit.mtime === mtime) return hit.key;
      text = await Deno.readTextFile(path);
    } catch (err) {
      const why = err instanceof Deno.errors.NotFound
        ? "does not exist"
        : err instanceof Deno.errors.PermissionDenied
        ? "cannot be read (permission denied)"
        : `cannot be read (${(err as Error).message})`;
      throw new SshError("key-error", `${who}: key file ${path} ${why}; check key_filename`);
    }
    let key: ParsedKey;
    try {
      key = await parsePrivateKey(text, target.keyPassphrase);
    } catch (err) {
      throw new SshError("key-error", `${who}: key file ${path}: ${(err as Error).message}`);
    }
    this.#cache.set(`${path}\0${target.keyPassphrase ?? ""}`, { mtime, key });
    return key;
  }
}

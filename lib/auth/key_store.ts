/**
 * The API keys file, loaded and kept current: read at start (a bad file
 * stops the server with the error), then read again when it changes on
 * disk or on SIGHUP. A reload that fails keeps the keys loaded before and
 * logs why, so a typo while rotating never locks every client out nor
 * lets anyone in.
 *
 * @module
 */
import { ConfigError } from "../config/errors.ts";
import { loadYamlParser, yamlParser } from "../config/yaml_parser.ts";
import { log } from "../log.ts";
import {
  type ApiKey,
  findKey,
  keyPrincipal,
  MAX_KEYS_FILE_BYTES,
  parseApiKeys,
} from "./api_keys.ts";
import type { Principal } from "./principal.ts";

/** Read and check a keys file; throws `ConfigError` naming the file, entry and field. */
export async function readKeysFile(path: string): Promise<ApiKey[]> {
  await loadYamlParser();
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new ConfigError(`API keys file ${path}: is not a file`);
    if (info.size > MAX_KEYS_FILE_BYTES) {
      throw new ConfigError(`API keys file ${path}: larger than ${MAX_KEYS_FILE_BYTES} bytes`);
    }
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const why = err instanceof Deno.errors.NotFound
      ? "does not exist"
      : err instanceof Deno.errors.PermissionDenied
      ? "cannot be read (permission denied)"
      : `cannot be read (${(err as Error).message})`;
    throw new ConfigError(`API keys file ${path} ${why}; check the path given for the keys file`);
  }
  const YAML = yamlParser();
  const doc = YAML.parseDocument(text, { uniqueKeys: true });
  const e = doc.errors[0];
  if (e) {
    const pos = e.linePos?.[0];
    throw new ConfigError(
      `API keys file ${path}: YAML syntax error${
        pos ? ` at line ${pos.line}, column ${pos.col}` : ""
      }: ${e.message.split("\n")[0].replace(/ at line \d+, column \d+.*$/, "")}`,
    );
  }
  // Every scalar as written: `name: 2024` is the name "2024", not a number.
  YAML.visit(doc, {
    Scalar(_, node) {
      if (node.value !== null && typeof node.value !== "string" && node.source !== undefined) {
        node.value = node.source;
      }
    },
  });
  return parseApiKeys(doc.toJS(), path);
}

/** The keys of one file, reloadable. */
export class KeyStore {
  readonly path: string;
  #keys: ApiKey[];
  #watcher?: Deno.FsWatcher;
  #sighup?: () => void;
  #debounce?: ReturnType<typeof setTimeout>;
  #reloading: Promise<boolean> = Promise.resolve(true);

  private constructor(path: string, keys: ApiKey[]) {
    this.path = path;
    this.#keys = keys;
  }

  /** Load `path`; throws `ConfigError` when it is missing or wrong. */
  static async open(path: string): Promise<KeyStore> {
    return new KeyStore(path, await readKeysFile(path));
  }

  /** How many keys are loaded. */
  get size(): number {
    return this.#keys.length;
  }

  /** The principal of a presented key, or undefined. */
  find(presented: string): Principal | undefined {
    const key = findKey(this.#keys, presented);
    return key ? keyPrincipal(key) : undefined;
  }

  /** Read the file again; true when the new keys are in use (else the old ones stay). */
  reload(): Promise<boolean> {
    this.#reloading = this.#reloading.then(async () => {
      try {
        const keys = await readKeysFile(this.path);
        this.#keys = keys;
        log("info", `API keys file ${this.path}: reloaded, ${keys.length} key(s)`);
        return true;
      } catch (err) {
        log(
          "error",
          `${(err as Error).message} \u2014 the reload failed, so the ` +
            `${this.#keys.length} key(s) loaded before stay in use`,
        );
        return false;
      }
    });
    return this.#reloading;
  }

  /** Reload when the file changes (its directory is watched: editors replace files) or on SIGHUP. */
  watch(): void {
    const schedule = () => {
      clearTimeout(this.#debounce);
      this.#debounce = setTimeout(() => void this.reload(), 200);
    };
    try {
      this.#sighup = () => {
        log("info", `SIGHUP: reloading the API keys file ${this.path}`);
        void this.reload();
      };
      Deno.addSignalListener("SIGHUP", this.#sighup);
    } catch {
      this.#sighup = undefined; // no SIGHUP on this system
    }
    const dir = this.path.includes("/")
      ? this.path.slice(0, this.path.lastIndexOf("/")) || "/"
      : ".";
    const base = this.path.slice(this.path.lastIndexOf("/") + 1);
    try {
      this.#watcher = Deno.watchFs(dir, { recursive: false });
    } catch (err) {
      log("warning", `cannot watch ${dir} for changes (${(err as Error).message}); use SIGHUP`);
      return;
    }
    const watcher = this.#watcher;
    (async () => {
      try {
        for await (const event of watcher) {
          if (event.paths.some((p) => p.slice(p.lastIndexOf("/") + 1) === base)) schedule();
        }
      } catch {
        // closed
      }
    })();
  }

  /** Stop watching. */
  close(): void {
    clearTimeout(this.#debounce);
    try {
      this.#watcher?.close();
    } catch {
      // already closed
    }
    if (this.#sighup) Deno.removeSignalListener("SIGHUP", this.#sighup);
    this.#sighup = undefined;
  }
}

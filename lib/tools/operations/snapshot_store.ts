/**
 * Configuration snapshots on local disk, under `<state-dir>/snapshots/<device>/`:
 * one JSON file per snapshot (the export text, the release, the time and
 * the SHA-256 of the content), readable only by the server's user.
 *
 * @module
 */
import { ArgumentError } from "../../routeros/errors.ts";

/** What is known of a snapshot without its text. */
export interface SnapshotMeta {
  /** `<device>/<UTC time>`, e.g. `core-1/20261125T003656123Z`. */
  id: string;
  device: string;
  /** RouterOS release the export came from. */
  version: string;
  /** ISO time it was taken. */
  time: string;
  /** SHA-256 (hex) of the export without its timestamp line. */
  sha256: string;
  bytes: number;
  /** Secrets are in the text (taken with show_sensitive). */
  show_sensitive: boolean;
  note?: string;
}

/** A snapshot with its export text. */
export interface Snapshot extends SnapshotMeta {
  config: string;
}

/** The form of a snapshot id (what `id` of a snapshot looks like). */
export const SNAPSHOT_ID = /^[a-z0-9][a-z0-9._-]{0,63}\/\d{8}T\d{9}Z$/;

/** A device title as a directory name. */
export function deviceSlug(title: string): string {
  const s = title.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return (s || "device").slice(0, 64);
}

/** `2026-11-25T00:36:56.123Z` -> `20261125T003656123Z`. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:.]/g, "");
}

/** SHA-256 of an export without the line that dates it (`# ... by RouterOS ...`). */
export async function contentHash(config: string): Promise<string> {
  const body = config.split("\n").filter((l) => !/^# .* by RouterOS /.test(l)).join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The snapshots kept under one state directory. */
export class SnapshotStore {
  readonly root: string;

  constructor(stateDir: string) {
    this.root = `${stateDir.replace(/\/+$/, "")}/snapshots`;
  }

  #file(id: string): string {
    if (!SNAPSHOT_ID.test(id)) {
      throw new ArgumentError(
        `"${id}" is not a snapshot id (device/YYYYMMDDTHHMMSSmmmZ, as router_list_snapshots shows)`,
        "id",
      );
    }
    return `${this.root}/${id}.json`;
  }

  /** Store a snapshot taken now; its id is unique (a later millisecond when one is taken). */
  async save(s: Omit<Snapshot, "id" | "time">, now = new Date()): Promise<SnapshotMeta> {
    const dir = `${this.root}/${deviceSlug(s.device)}`;
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    for (let t = now.getTime();; t++) {
      const time = new Date(t);
      const id = `${deviceSlug(s.device)}/${stamp(time)}`;
      const full: Snapshot = { id, time: time.toISOString(), ...s };
      try {
        await Deno.writeTextFile(this.#file(id), JSON.stringify(full), {
          createNew: true,
          mode: 0o600,
        });
      } catch (err) {
        if (err instanceof Deno.errors.AlreadyExists) continue;
        throw err;
      }
      const { config: _, ...meta } = full;
      return meta;
    }
  }

  /** One snapshot with its text; ArgumentError when there is none. */
  async load(id: string): Promise<Snapshot> {
    try {
      return JSON.parse(await Deno.readTextFile(this.#file(id))) as Snapshot;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        throw new ArgumentError(`no snapshot ${id}; router_list_snapshots lists them`, "id");
      }
      throw err;
    }
  }

  /** Every snapshot (of one device, when given), oldest first. */
  async list(device?: string): Promise<SnapshotMeta[]> {
    const out: SnapshotMeta[] = [];
    const dirs = device === undefined ? await this.#entries(this.root) : [deviceSlug(device)];
    for (const dir of dirs) {
      for (const name of await this.#entries(`${this.root}/${dir}`)) {
        if (!name.endsWith(".json")) continue;
        const id = `${dir}/${name.slice(0, -5)}`;
        if (!SNAPSHOT_ID.test(id)) continue;
        const { config: _, ...meta } = await this.load(id);
        if (device === undefined || meta.device === device) out.push(meta);
      }
    }
    return out.sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
  }

  async #entries(dir: string): Promise<string[]> {
    try {
      const names: string[] = [];
      for await (const e of Deno.readDir(dir)) names.push(e.name);
      return names.sort();
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
  }

  /** The newest snapshot of a device, or undefined. */
  async latest(device: string): Promise<SnapshotMeta | undefined> {
    return (await this.list(device)).at(-1);
  }

  /** Delete one snapshot. */
  async remove(id: string): Promise<void> {
    await Deno.remove(this.#file(id));
  }
}

/**
 * Resolve the configuration: flag beats environment beats default, an inline
 * inventory beats an inventory file, and an inventory beats the
 * single-device settings.
 *
 * @module
 */
import { ConfigError } from "./errors.ts";
import { type DeviceConfig, parseInventory, readInventoryFile } from "./inventory.ts";
import { SETTINGS, type SettingValue, SINGLE_DEVICE } from "./settings.ts";

/** The server's resolved configuration. */
export interface Config {
  /** The devices to manage. */
  devices: DeviceConfig[];
  /** True when the devices come from an inventory (tools then take `device`). */
  fleet: boolean;
  /** Every setting's resolved value, by name. */
  settings: Record<string, SettingValue | undefined>;
  /** Where each setting came from. */
  sources: Record<string, "flag" | "env" | "default" | "unset">;
  /** Info and warning lines for stderr. */
  notices: string[];
}

/** Raw flag values as the CLI parsed them: text, or true for switches. */
export type FlagValues = Record<string, string | boolean | undefined>;

/** Default single-device host inside the container image. */
export const CONTAINER_DEFAULT_HOST = "192.168.88.1";

/** Resolve every setting, then the devices. */
export function loadConfig(flags: FlagValues, env: Record<string, string | undefined>): Config {
  const settings: Config["settings"] = {};
  const sources: Config["sources"] = {};
  for (const s of SETTINGS) {
    const flag = flags[s.name];
    const fromEnv = env[s.env];
    let raw: string | boolean | undefined;
    let source: Config["sources"][string];
    if (flag !== undefined) [raw, source] = [flag, "flag"];
    else if (fromEnv !== undefined && fromEnv !== "") [raw, source] = [fromEnv, "env"];
    else [raw, source] = [undefined, s.default === undefined ? "unset" : "default"];
    sources[s.name] = source;
    if (raw === undefined) {
      settings[s.name] = s.default;
      continue;
    }
    if (raw === true) {
      settings[s.name] = true;
      continue;
    }
    try {
      settings[s.name] = s.parse(String(raw));
    } catch (err) {
      const shown = s.secret ? "" : ` ${JSON.stringify(String(raw))}`;
      const origin = source === "flag" ? `--${s.name}` : `${s.env} (--${s.name})`;
      throw new ConfigError(`invalid value${shown} for ${origin}: ${(err as Error).message}`);
    }
  }
  const notices: string[] = [];
  const container = settings.container === true;
  const inline = settings.inventory as string | undefined;
  const file = settings["inventory-file"] as string | undefined;
  let devices: DeviceConfig[];
  let fleet = false;
  if (inline !== undefined || file !== undefined) {
    fleet = true;
    devices = inline !== undefined
      ? parseInventory(inline, "inline")
      : readInventoryFile(file as string, container);
    if (inline !== undefined && file !== undefined) {
      notices.push("info: --inventory is set, so --inventory-file is ignored");
    }
    const ignored = [...SINGLE_DEVICE, "key-filename", "key-passphrase"].filter((n) =>
      sources[n] === "flag" || sources[n] === "env"
    );
    if (ignored.length > 0) {
      notices.push(
        `info: an inventory is set, so the single-device settings are ignored: ${
          ignored.map((n) => `--${n}`).join(", ")
        }`,
      );
    }
  } else {
    let host = settings.host as string | undefined;
    if (host === undefined && container) host = CONTAINER_DEFAULT_HOST;
    if (host === undefined && settings.simulate !== true) {
      throw new ConfigError(
        "no router given: set --host (ROUTER_HOST), or an inventory with --inventory-file (ROUTER_INVENTORY_FILE)",
      );
    }
    const secretsInEnv = ["password", "key-passphrase"].filter((n) => sources[n] === "env");
    if (container && secretsInEnv.length > 0) {
      const names = secretsInEnv.map((n) =>
        n === "password" ? "ROUTER_PASSWORD" : "ROUTER_KEY_PASSPHRASE"
      );
      notices.push(
        `warning: ${names.join(" and ")} ${
          names.length > 1 ? "are" : "is"
        } set in the environment, where anyone who can inspect the container sees it; a mounted inventory file is safer`,
      );
    }
    devices = host === undefined ? [] : [{
      title: host,
      host,
      port: settings.port as number,
      username: settings.username as string,
      password: settings.password as string,
      keyFilename: settings["key-filename"] as string | undefined,
      keyPassphrase: settings["key-passphrase"] as string | undefined,
      tags: [],
      readOnly: false,
    }];
  }
  return { devices, fleet, settings, sources, notices };
}

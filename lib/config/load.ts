/**
 * Resolve the configuration: flag beats environment beats default, an inline
 * inventory beats an inventory file, and an inventory beats the
 * single-device settings.
 *
 * @module
 */
import { expandHome, HOME_PATHS } from "./local_paths.ts";
import { ConfigError } from "./errors.ts";
import { type DeviceConfig, parseInventory, readInventoryFile } from "./inventory.ts";
import { type JumpConfig, parseJumpText } from "./jump.ts";
import { BadPart, type Vocabulary } from "./parsers.ts";
import { loadYamlParser } from "./yaml_parser.ts";
import {
  type AnySetting,
  type SettingName,
  SETTINGS,
  type Settings,
  SINGLE_DEVICE,
} from "./settings.ts";

export type { Vocabulary } from "./parsers.ts";

/** Where a setting's value came from. */
export type SettingSource = "flag" | "env" | "default" | "unset";

/** The server's resolved configuration. */
export interface Config {
  /** The devices to manage. */
  devices: DeviceConfig[];
  /** True when the devices come from an inventory (tools then take `device`). */
  fleet: boolean;
  /** Every setting, parsed and typed. */
  readonly settings: Settings;
  /** Where each setting came from. */
  readonly sources: Readonly<Record<SettingName, SettingSource>>;
  /** Info and warning lines for stderr. */
  notices: string[];
}

/** Raw flag values as the CLI parsed them: text, or true for switches. */
export type FlagValues = Record<string, string | boolean | undefined>;

/** Default single-device host inside the container image. */
export const CONTAINER_DEFAULT_HOST = "192.168.88.1";

/** Parse one setting from its flag or variable; a bad value is a ConfigError naming it. */
function resolveOne(
  s: AnySetting,
  flags: FlagValues,
  env: Record<string, string | undefined>,
  known: Vocabulary,
): [unknown, SettingSource] {
  const flag = flags[s.name];
  const fromEnv = env[s.env];
  if (flag === undefined && (fromEnv === undefined || fromEnv === "")) {
    return [s.default, s.default === undefined ? "unset" : "default"];
  }
  const source: SettingSource = flag !== undefined ? "flag" : "env";
  const raw = flag ?? fromEnv!;
  if (raw === true) return [true, source];
  try {
    return [s.parse(String(raw), known), source];
  } catch (err) {
    const bad = err instanceof BadPart ? err.part : String(raw);
    const shown = s.secret ? "" : ` ${JSON.stringify(bad.slice(0, 200))}`;
    const origin = source === "flag" ? `--${s.name}` : `${s.env} (--${s.name})`;
    throw new ConfigError(`invalid value${shown} for ${origin}: ${(err as Error).message}`);
  }
}

/**
 * Parse every setting once, flag before environment before default, into
 * the typed settings object. Throws a {@linkcode ConfigError} for the first
 * bad value.
 */
export function resolveSettings(
  flags: FlagValues,
  env: Record<string, string | undefined>,
  known: Vocabulary = {},
): { settings: Settings; sources: Record<SettingName, SettingSource> } {
  const values: Record<string, unknown> = {};
  const sources = {} as Record<SettingName, SettingSource>;
  for (const s of SETTINGS as readonly AnySetting[]) {
    [values[s.name], sources[s.name]] = resolveOne(s, flags, env, known);
  }
  for (const name of HOME_PATHS) {
    if (typeof values[name] === "string") values[name] = expandHome(values[name]);
  }
  // Each value came from its row's parser or default, so it has its row's type.
  return { settings: values as Settings, sources };
}

/**
 * The single-device bastion (`--jump user@host:port`): it logs in with
 * `--jump-key-filename` (and `--jump-key-passphrase`), else with the
 * router's own `--key-filename` and `--key-passphrase`; never with the
 * router's password. Its host key is checked against known_hosts under the
 * host key policy.
 */
function singleDeviceJump(settings: Settings, notices: string[]): JumpConfig | undefined {
  const text = settings.jump;
  if (text === undefined) {
    if (settings["jump-key-filename"] !== undefined) {
      notices.push("info: --jump is not set, so --jump-key-filename is ignored");
    }
    return undefined;
  }
  const { username, host, port } = parseJumpText(text);
  const own = settings["jump-key-filename"];
  const keyFilename = own ?? settings["key-filename"];
  const keyPassphrase = own !== undefined
    ? settings["jump-key-passphrase"]
    : settings["key-passphrase"];
  return {
    title: text,
    host,
    port,
    username,
    ...(keyFilename !== undefined ? { keyFilename } : {}),
    ...(keyPassphrase !== undefined ? { keyPassphrase } : {}),
  };
}

/**
 * {@linkcode loadConfig}, after loading the parsers its settings need: the
 * YAML parser when they name an inventory (flag or environment).
 */
export async function loadConfigAsync(
  flags: FlagValues,
  env: Record<string, string | undefined>,
  known: Vocabulary = {},
): Promise<Config> {
  const named = (name: string) => {
    const setting = SETTINGS.find((s) => s.name === name)!;
    return flags[name] !== undefined || env[setting.env] !== undefined;
  };
  if (named("inventory") || named("inventory-file")) await loadYamlParser();
  return loadConfig(flags, env, known);
}

/**
 * Resolve every setting, then the devices. `known` carries what lib/config
 * may not import (toolset names, the HTTP allow-list checks), so that every
 * value the server would refuse is refused here, before anything starts.
 * An inventory's YAML parser must be loaded first ({@linkcode loadConfigAsync}
 * does it).
 */
export function loadConfig(
  flags: FlagValues,
  env: Record<string, string | undefined>,
  known: Vocabulary = {},
): Config {
  const { settings, sources } = resolveSettings(flags, env, known);
  if (settings["audit-key-file"] !== undefined && settings["audit-log"] === undefined) {
    throw new ConfigError(
      "--audit-key-file (ROUTER_AUDIT_KEY_FILE) seals the audit log, but no audit log is set: " +
        "add --audit-log FILE (ROUTER_AUDIT_LOG)",
    );
  }
  const notices: string[] = [];
  checkOAuth(settings);
  const container = settings.container;
  const inline = settings.inventory;
  const file = settings["inventory-file"];
  let devices: DeviceConfig[];
  let fleet = false;
  if (inline !== undefined || file !== undefined) {
    fleet = true;
    devices = inline !== undefined
      ? parseInventory(inline, "inline")
      : readInventoryFile(file!, container);
    if (inline !== undefined && file !== undefined) {
      notices.push("info: --inventory is set, so --inventory-file is ignored");
    }
    const ignored = ([
      ...SINGLE_DEVICE,
      "key-filename",
      "key-passphrase",
      "jump",
      "jump-key-filename",
      "jump-key-passphrase",
    ] as const).filter((n) => sources[n] === "flag" || sources[n] === "env");
    if (ignored.length > 0) {
      notices.push(
        `info: an inventory is set, so the single-device settings are ignored: ${
          ignored.map((n) => `--${n}`).join(", ")
        }`,
      );
    }
  } else {
    let host = settings.host;
    if (host === undefined && container) host = CONTAINER_DEFAULT_HOST;
    if (host === undefined && !settings.simulate) {
      throw new ConfigError(
        "no router given: set --host (ROUTER_HOST), or an inventory with --inventory-file (ROUTER_INVENTORY_FILE)",
      );
    }
    const secretsInEnv = (["password", "key-passphrase"] as const).filter((n) =>
      sources[n] === "env"
    );
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
    const jump = singleDeviceJump(settings, notices);
    devices = host === undefined ? [] : [{
      title: host,
      host,
      port: settings.port,
      username: settings.username,
      password: settings.password,
      keyFilename: settings["key-filename"],
      keyPassphrase: settings["key-passphrase"],
      tags: [],
      readOnly: false,
      ...(jump ? { jump } : {}),
    }];
  }
  return { devices, fleet, settings, sources, notices };
}

/** The OAuth settings hang together: issuers need the resource URL; a JWKS URL serves one issuer. */
function checkOAuth(settings: Settings): void {
  const issuers = settings["mcp.oauth-issuer"];
  if (issuers.length > 0 && settings["mcp.oauth-resource"] === undefined) {
    throw new ConfigError(
      "--mcp.oauth-issuer (ROUTER_MCP__OAUTH_ISSUER) needs --mcp.oauth-resource " +
        "(ROUTER_MCP__OAUTH_RESOURCE): the URL clients reach this server at, such as " +
        "https://mcp.example.com/mcp, which tokens must be issued for",
    );
  }
  if (issuers.length === 0) {
    for (const name of ["mcp.oauth-resource", "mcp.oauth-jwks-url"] as const) {
      if (settings[name] !== undefined) {
        throw new ConfigError(
          `--${name} is set but --mcp.oauth-issuer (ROUTER_MCP__OAUTH_ISSUER) is not; ` +
            "name the authorization server whose tokens to accept",
        );
      }
    }
  }
  if (issuers.length > 1 && settings["mcp.oauth-jwks-url"] !== undefined) {
    throw new ConfigError(
      "--mcp.oauth-jwks-url serves one issuer, but --mcp.oauth-issuer names several; " +
        "leave the JWKS URL out to find each issuer's keys in its metadata",
    );
  }
}

/**
 * The resolved configuration as JSON for `--print-config`, with every
 * secret masked, a device's bastion chain (`jump`) included.
 *
 * @module
 */
import type { Config } from "./load.ts";
import { SECRET_MASK } from "../secret_mask.ts";
import { SETTINGS } from "./settings.ts";
import { maskJump } from "./jump.ts";

/** A JSON-ready view of the configuration; secrets are masked. */
export function describeConfig(config: Config): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    const value = config.settings[s.name];
    settings[s.name] = {
      value: s.secret && value !== undefined && value !== "" ? SECRET_MASK : value ?? null,
      source: config.sources[s.name],
    };
  }
  return {
    fleet: config.fleet,
    devices: config.devices.map((d) => ({
      ...d,
      password: d.password ? SECRET_MASK : d.password,
      keyPassphrase: d.keyPassphrase ? SECRET_MASK : d.keyPassphrase,
      ...(d.jump ? { jump: maskJump(d.jump, SECRET_MASK) } : {}),
    })),
    settings,
  };
}

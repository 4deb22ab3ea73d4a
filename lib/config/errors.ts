/**
 * Configuration errors: one clear line naming the setting and the fix.
 *
 * @module
 */

/** A bad flag, environment variable or inventory. Exits 2 from the CLI. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

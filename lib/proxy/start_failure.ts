/**
 * Why a child could not start, said in terms of the configuration file: a
 * spawn failure ("spawn deno ENOENT") names the server entry, the field to
 * fix (`cwd` when the directory is missing, else `command`) and the file.
 *
 * @module
 */
import { isDirectory, type ServerSpec } from "./config_file.ts";

/** The message for a failure to start `spec`, whose raw error text is `raw`. */
export function startFailure(spec: ServerSpec, raw: string, configPath: string): string {
  if (spec.kind !== "stdio" || !/\bspawn\b.*\b(ENOENT|EACCES|ENOTDIR)\b/.test(raw)) return raw;
  const where = `server "${spec.name}"${configPath ? ` in ${configPath}` : ""}`;
  if (spec.cwd !== undefined && !isDirectory(spec.cwd)) {
    return `${where}: field "cwd" names ${spec.cwd}, which is not a directory; ` +
      `create it or fix "cwd"`;
  }
  if (/\bEACCES\b/.test(raw)) {
    return `${where}: field "command" names ${spec.command}, which is not executable; ` +
      `fix its permissions or "command"`;
  }
  return `${where}: field "command" names ${spec.command}, which was not found; ` +
    `give its full path or put it on PATH`;
}

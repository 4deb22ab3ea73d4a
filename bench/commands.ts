/**
 * The RouterOS commands the benchmark sends itself, built with the
 * product's own script builder so they are exactly what the tools send.
 *
 * @module
 */
import { cmd } from "../lib/routeros/command.ts";
import { type Dialect, parseVersion } from "../lib/routeros/dialect.ts";
import { readSpecOf } from "../lib/routeros/schema/menu.ts";
import { ipAddress } from "../lib/routeros/schema/menus/ip.ts";
import { Script } from "../lib/routeros/script.ts";

/** The release the benchmark's simulated routers run (the simulator's default). */
const DIALECT: Dialect = parseVersion("7.16.2 (stable)")!;

function read(where: { key: string; value: string }[] = []): string {
  const script = new Script(DIALECT);
  script.read(readSpecOf(ipAddress, DIALECT.release), where);
  return script.toString();
}

/** What `router_list_ip_addresses` sends (no filters). */
export const READ_COMMAND: string = read();

/** Read back one `/ip/address` item by id. */
export function readBackCommand(id: string): string {
  return read([{ key: ".id", value: id }]);
}

/** Set the comment of one `/ip/address` item (what the update tool's write part sends). */
export function setCommentCommand(id: string, comment: string): string {
  return cmd("/ip/address", "set", { numbers: { id }, args: { comment } });
}

/**
 * The RouterOS commands the benchmark sends itself, built with the
 * product's own command builders so they are exactly what the tools send.
 *
 * @module
 */
import { menuPath, readStatement, renderArgs } from "../lib/routeros/commands.ts";
import { type Dialect, parseVersion } from "../lib/routeros/dialect.ts";
import { checkId } from "../lib/routeros/quote.ts";

const V7: Dialect = parseVersion("7.16 (stable)")!;

/** What `router_list_ip_addresses` sends to a 7.16 router (no filters). */
export const READ_COMMAND: string = readStatement(V7, "/ip/address");

/** Read back one `/ip/address` item by id. */
export function readBackCommand(id: string): string {
  return readStatement(V7, "/ip/address", [{ key: ".id", value: id }]);
}

/** Set the comment of one `/ip/address` item (what the update tool's write part sends). */
export function setCommentCommand(id: string, comment: string): string {
  return `${menuPath("/ip/address")} set ${checkId(id)} ${renderArgs({ comment })}`;
}

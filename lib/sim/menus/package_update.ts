/**
 * `/system/package/update`: the update channel, the installed and latest
 * release, `check-for-updates` (asks the simulated update server: the
 * release a test offered with `SimRouter.offerUpgrade`), `download` and
 * `install` (downloads, then reboots; the router comes back as the new
 * release unless the test made the upgrade fail).
 *
 * @module
 */
import type { CommandCtx, CommandDef, MenuDef } from "../menu_types.ts";
import { compareReleases, release } from "../../routeros/release.ts";
import type { RouterState } from "../state.ts";
import { oneOf, ro } from "./common.ts";

function newer(st: RouterState): string | undefined {
  const offered = st.updates.offered;
  if (!offered) return undefined;
  return compareReleases(release(offered), st.release) > 0 ? offered : undefined;
}

function check(st: RouterState): void {
  const latest = newer(st);
  st.updates.latest = latest ?? st.version;
  st.updates.status = latest ? "New version is available" : "System is already up to date";
}

function printStatus(c: CommandCtx): void {
  const u = c.st.updates;
  c.print(`            channel: ${c.st.list(PACKAGE_UPDATE)[0]?.channel ?? "stable"}`);
  c.print(`  installed-version: ${c.st.version}`);
  if (u.latest) c.print(`     latest-version: ${u.latest}`);
  c.print(`             status: ${u.status ?? ""}`);
}

const SWITCHES = ["once", "as-value", "without-paging"];

const CHECK: CommandDef = {
  switches: SWITCHES,
  run: (c) => {
    check(c.st);
    printStatus(c);
  },
};

function download(c: CommandCtx): boolean {
  check(c.st);
  const latest = newer(c.st);
  if (!latest) {
    printStatus(c);
    return false;
  }
  c.st.updates.pending = latest;
  c.st.updates.status = "Downloaded, please reboot router to upgrade it";
  printStatus(c);
  return true;
}

const DOWNLOAD: CommandDef = { switches: SWITCHES, write: true, run: (c) => void download(c) };

const INSTALL: CommandDef = {
  switches: SWITCHES,
  write: true,
  run: (c) => {
    if (!download(c)) return;
    c.st.updates.status = "rebooting";
    c.st.log("system,info", `upgrading RouterOS to ${c.st.updates.pending}, rebooting`);
    c.st.bootMs = Date.now();
    c.st.globals.clear();
    c.st.onReboot?.();
  },
};

/** `/system/package/update`. */
export const PACKAGE_UPDATE: MenuDef = {
  path: "/system/package/update",
  kind: "single",
  noExport: true,
  props: [
    oneOf("channel", ["stable", "long-term", "testing", "development"], "stable"),
    ro("installed-version", "str", { compute: (_i, st) => st.version }),
    ro("latest-version", "str", { compute: (_i, st) => st.updates.latest ?? "" }),
    ro("status", "str", { compute: (_i, st) => st.updates.status ?? "" }),
  ],
  defaults: () => [{ channel: "stable" }],
  commands: { "check-for-updates": CHECK, download: DOWNLOAD, install: INSTALL },
};

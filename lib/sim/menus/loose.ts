/** Commands that are not generic menu verbs: `/ping`, `/system/reboot`... */
import type { CommandDef } from "../menu_types.ts";
import type { SimVersion } from "../types.ts";

/** A command at a path of the menu tree. */
export interface LooseCommand {
  path: string;
  name: string;
  def: CommandDef;
  versions?: SimVersion[];
}

/** Loose commands. */
export const LOOSE_COMMANDS: LooseCommand[] = [];

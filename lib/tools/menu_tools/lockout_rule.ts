/**
 * The lock-out rule of a menu's write tools: the one its presentation
 * declares (`MenuTools.lockout`), and, for every menu whose items are
 * interfaces by its schema (`itemsAreInterfaces`), the interface rule of
 * `lib/tools/guard/lockout_interfaces.ts`. A menu never attaches the
 * interface rule by hand, so a new interface family has it from its schema.
 *
 * @module
 */
import { itemsAreInterfaces } from "../../routeros/schema/menu.ts";
import { eitherRule, type LockoutRule } from "../guard/lockout.ts";
import { interfaceLockout, KEEPS_CARRYING } from "../guard/lockout_interfaces.ts";
import { argName } from "./naming.ts";
import type { MenuTools } from "./spec.ts";

const rules = new WeakMap<MenuTools, LockoutRule | undefined>();

/** The interface rule of an interface menu: every writable argument but a comment or a name. */
function interfaceRuleOf(spec: MenuTools): LockoutRule {
  const writable = Object.entries(spec.schema.fields).filter(([, f]) => f.writable);
  return interfaceLockout(
    writable.map(([n]) => argName(n)).filter((a) => !KEEPS_CARRYING.has(a)),
    new Set(writable.filter(([, f]) => f.secret).map(([n]) => argName(n))),
  );
}

/** The menu's lock-out rule, if its writes can cut this server's access (made once per menu). */
export function lockoutRuleOf(spec: MenuTools): LockoutRule | undefined {
  if (rules.has(spec)) return rules.get(spec);
  const own = itemsAreInterfaces(spec.schema) ? interfaceRuleOf(spec) : undefined;
  const rule = own && spec.lockout ? eitherRule(own, spec.lockout) : own ?? spec.lockout;
  rules.set(spec, rule);
  return rule;
}

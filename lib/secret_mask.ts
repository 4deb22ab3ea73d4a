/**
 * The one text shown in place of a secret, in tool output, dry runs, audit
 * lines and `--print-config`.
 *
 * @module
 */

/** Shown instead of a secret that is set. */
export const SECRET_MASK = "********";

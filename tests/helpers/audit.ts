/**
 * Test helpers: an audit log read back as one record per write call, the
 * way a person reads it: the outcome line with the commands of its intent
 * lines (a dry run, or a call that sent nothing, is its outcome line alone).
 *
 * @module
 */

/** One write call as the audit log records it. */
export interface AuditCall {
  tool: string;
  device: string;
  parent?: string;
  arguments: Record<string, unknown>;
  /** The commands sent (a dry run: the commands it would send). */
  commands: string[];
  dry_run: boolean;
  outcome: string;
  error?: string;
  /** Entry numbers of its intent lines. */
  intents: number[];
}

/** The write calls of an audit log's text, in the order they ended. */
export function auditCalls(text: string): AuditCall[] {
  const lines = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  return lines.filter((l) => l.kind === "outcome").map((o) => {
    const first = o.intent as number | undefined;
    const intents = first === undefined
      ? []
      : lines.flatMap((l, i) =>
        l.kind === "intent" && (i + 1 === first || l.intent === first) ? [i + 1] : []
      );
    const head = first === undefined ? o : lines[first - 1];
    return {
      tool: o.tool,
      device: o.device,
      ...(o.parent ? { parent: o.parent } : {}),
      arguments: head.arguments,
      commands: first === undefined ? o.commands : intents.map((n) => lines[n - 1].command),
      dry_run: o.dry_run ?? false,
      outcome: o.outcome,
      ...(o.error !== undefined ? { error: o.error } : {}),
      intents,
    };
  });
}

/**
 * `defineTool`: a tool's input and output zod shapes sit beside its handler,
 * which receives typed arguments and returns a typed result.
 *
 * @module
 */
import * as z from "zod";
import type { DryRunResult, ToolContext, ToolDef, ToolResult } from "./tool.ts";

/** A tool's definition with typed handler arguments and result. */
export interface TypedTool<I extends z.ZodRawShape, O extends z.ZodRawShape> extends
  Omit<
    ToolDef,
    "input" | "output" | "handler" | "dryRun" | "revealsSecrets" | "lockout" | "maskNested"
  > {
  input: I;
  output: O;
  handler(
    args: z.infer<z.ZodObject<I>>,
    ctx: ToolContext,
  ): Promise<ToolResult<z.infer<z.ZodObject<O>>>>;
  dryRun?(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<DryRunResult>;
  revealsSecrets?(args: z.infer<z.ZodObject<I>>): boolean | string;
  lockout?(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<string | undefined>;
  maskNested?(
    args: z.infer<z.ZodObject<I>>,
    mask: (tool: string, args: Record<string, unknown>) => Record<string, unknown>,
  ): Record<string, unknown>;
}

/** Build a tool from typed parts; its input object is strict (unknown arguments are refused). */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: TypedTool<I, O>,
): ToolDef {
  return {
    ...tool,
    input: z.object(tool.input).strict(),
    output: z.object(tool.output),
  } as ToolDef;
}

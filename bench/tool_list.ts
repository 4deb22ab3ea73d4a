/**
 * What `tools/list` costs an agent: the answer's size in bytes, through the
 * SDK client, for the default list and for `--toolsets all` (one simulated
 * router). Not a timing: the same on every machine.
 *
 * @module
 */
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { LIST_BUDGET, type ListSize, measureList } from "../lib/server/list_size.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { singleRouterArgs, startStdioServer } from "./stdio_server.ts";

/** Sizes of the two lists. */
export interface ToolListFigures {
  default: ListSize;
  all: ListSize;
  budget: typeof LIST_BUDGET;
}

/** Measure both lists through a spawned server. */
export async function measureToolList(): Promise<ToolListFigures> {
  const sim = await startSimulator();
  try {
    const sizeOf = async (toolsets: string) => {
      const server = await startStdioServer([
        ...singleRouterArgs(sim.host, sim.port),
        "--toolsets",
        toolsets,
      ]);
      try {
        return measureList(await listAllTools(server.client));
      } finally {
        await server.close();
      }
    };
    return { default: await sizeOf("default"), all: await sizeOf("all"), budget: LIST_BUDGET };
  } finally {
    await sim.close();
  }
}

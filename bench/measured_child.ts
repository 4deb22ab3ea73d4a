/**
 * A benchmark child process that says when its measured stretch starts and
 * ends (`http_load_child.ts`, `raw_floor_child.ts`): it prints
 * `{"measuring":true}` at the start and one JSON line of results at the
 * end. Meanwhile the CPU time of other processes (the server, the
 * simulators) is read at both points, so that every process's CPU per call
 * comes from the same stretch.
 *
 * @module
 */
import { cpuMs } from "./proc.ts";
import { drainStderr } from "./child_stderr.ts";

/** What one measured child run gives. */
export interface MeasuredRun {
  /** The child's last JSON line. */
  result: Record<string, unknown>;
  /** CPU time (ms) each watched process used in the measured stretch, in `watch` order. */
  cpuMs: number[];
}

/**
 * Run `deno run --allow-all <script> <job as JSON>`, reading the CPU time
 * of each of `watch` (pids) when the child starts and ends its measured
 * stretch.
 */
export async function runMeasured(
  script: string,
  job: unknown,
  watch: number[],
): Promise<MeasuredRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", script, JSON.stringify(job)],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = drainStderr(child.stderr);
  const read = (pids: number[]) => Promise.all(pids.map((pid) => cpuMs(pid)));
  let before: number[] | undefined;
  let after: number[] | undefined;
  let last: Record<string, unknown> | undefined;
  let pending = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (!line.startsWith("{")) continue;
      const value = JSON.parse(line) as Record<string, unknown>;
      if (value.measuring === true) before = await read(watch);
      else {
        after = await read(watch);
        last = value;
      }
    }
  }
  const status = await child.status;
  await stderr.done;
  if (!status.success || !last || !before || !after) {
    throw new Error(`${script.split("/").pop()} failed: ${stderr.text().slice(0, 2000)}`);
  }
  return { result: last, cpuMs: after.map((a, i) => a - before![i]) };
}

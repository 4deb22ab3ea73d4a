/**
 * What Linux's /proc tells about a process: resident memory and CPU time.
 * NaN where it cannot be read (another OS, a process gone).
 *
 * @module
 */

/** Resident set size of a process in MiB (VmRSS), to 0.1 MiB. */
export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** CPU time from /proc/PID/stat (user + system, every thread, 10 ms steps), in ms. */
async function statCpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks, USER_HZ = 100
}

/**
 * CPU time a process has used so far (user + system, every thread), in ms.
 * Read from each thread's `schedstat` (nanoseconds: a few calls' worth of
 * CPU is measured, where /proc/PID/stat counts in 10 ms steps); from
 * /proc/PID/stat where schedstat cannot be read. A thread that ends between
 * two readings takes its time with it: the runtime's threads (main, V8's
 * workers, the I/O pool) live as long as the process.
 */
export async function cpuMs(pid: number): Promise<number> {
  let ns = 0;
  try {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/schedstat`)
        .catch(() => "0");
      ns += Number(text.split(" ")[0]);
    }
  } catch {
    return statCpuMs(pid);
  }
  return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : statCpuMs(pid);
}

/** This process's own CPU time so far (every thread), in ms. */
export function ownCpuMs(): Promise<number> {
  return cpuMs(Deno.pid);
}

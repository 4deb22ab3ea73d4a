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

/** CPU time (user + system, every thread) a process has used so far, in ms (10 ms steps). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks, USER_HZ = 100
}

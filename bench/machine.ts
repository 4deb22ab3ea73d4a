/**
 * Facts about the machine a benchmark ran on: CPU model, cores, memory,
 * kernel, Deno version, load average and the date.
 *
 * @module
 */

/** Machine facts recorded with the figures. */
export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  deno: string;
  v8: string;
  typescript: string;
  /** 1, 5 and 15 minute load averages when the run started. */
  loadAtStart: number[];
}

/** The CPU model from /proc/cpuinfo ("unknown" elsewhere). */
function cpuModel(): string {
  try {
    const info = Deno.readTextFileSync("/proc/cpuinfo");
    return /^model name\s*:\s*(.+)$/m.exec(info)?.[1].trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** 1, 5 and 15 minute load averages, rounded. */
export function loadAverage(): number[] {
  return Deno.loadavg().map((v) => Math.round(v * 100) / 100);
}

/** Collect the machine facts now. */
export function machineFacts(): Machine {
  let memoryGb = NaN;
  try {
    memoryGb = Math.round(Deno.systemMemoryInfo().total / 2 ** 30 * 10) / 10;
  } catch {
    // not available on this platform
  }
  return {
    date: new Date().toISOString(),
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency,
    memoryGb,
    os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    loadAtStart: loadAverage(),
  };
}

/**
 * A child's descendants, read from Linux `/proc`, so that stopping a child
 * started through a launcher (`npx`, `uvx`, a shell script) also stops the
 * processes it started. Elsewhere the lists are empty and only the direct
 * child is signalled.
 *
 * @module
 */

/** Parent pid of `pid`, or undefined when it is gone (or not Linux). */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` exists and is not a zombie (false where there is no /proc). */
export function isAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** All live descendants of `pid` (children, grandchildren, ...). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const child = Number(entry.name);
      const parent = parentPid(child);
      if (parent === undefined) continue;
      const list = children.get(parent) ?? [];
      list.push(child);
      children.set(parent, list);
    }
  } catch {
    return [];
  }
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** Send `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: number[], signal: Deno.Signal): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, signal);
    } catch {
      // already exited
    }
  }
}

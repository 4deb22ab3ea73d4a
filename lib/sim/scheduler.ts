/**
 * Runs `/system/scheduler` jobs: at `start-date`/`start-time`, then every
 * `interval` (0 = once). The job's `on-event` runs through the interpreter,
 * so a job may remove itself. One timer per router, re-armed on changes.
 *
 * @module
 */
import type { RouterCore } from "./router.ts";
import { parseDate, parseInterval, parseTimeOfDay } from "./timefmt.ts";
import { isTrue } from "./values.ts";
import type { Item } from "./menu_types.ts";

/** First run time (ms, router clock) at or after `fromMs`, or null. */
export function firstRun(it: Item, fromMs: number, bootMs: number): number | null {
  if (isTrue(it.disabled)) return null;
  const interval = parseInterval(it.interval ?? "0s") ?? 0;
  let start: number;
  if (it["start-time"] === "startup") start = bootMs + 3000;
  else {
    const d = parseDate(it["start-date"] ?? "");
    const t = parseTimeOfDay(it["start-time"] ?? "00:00:00");
    if (!d || t === null) return null;
    start = Date.UTC(d[0], d[1], d[2]) + t * 1000;
  }
  if (start >= fromMs) return start;
  if (interval <= 0) return null;
  const k = Math.ceil((fromMs - start) / (interval * 1000));
  return start + k * interval * 1000;
}

function signature(it: Item): string {
  return [it["start-date"], it["start-time"], it.interval, it.disabled].join("|");
}

/** The timer loop of one router. */
export class Scheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  /** Per job: the signature its next run was computed from, and that next run. */
  private plan = new Map<string, { sig: string; next: number | null }>();
  constructor(private core: RouterCore) {}

  private nextOf(it: Item, now: number, bootMs: number): number | null {
    const sig = signature(it);
    let p = this.plan.get(it[".id"]);
    if (!p || p.sig !== sig) {
      // a job armed in the past (within a second) still runs: the deadline just passed
      p = { sig, next: firstRun(it, now - 1000, bootMs) };
      this.plan.set(it[".id"], p);
    }
    return p.next;
  }

  /** Recomputes the earliest job and sets the timer. */
  rearm(): void {
    if (this.running) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const st = this.core.state();
    const menu = st.menus.byPath("/system/scheduler");
    if (!menu) return;
    const now = st.now().getTime();
    let best: number | null = null;
    const ids = new Set<string>();
    for (const it of st.stored(menu)) {
      ids.add(it[".id"]);
      const n = this.nextOf(it, now, st.bootMs);
      if (n !== null && (best === null || n < best)) best = n;
    }
    for (const id of this.plan.keys()) if (!ids.has(id)) this.plan.delete(id);
    if (best === null) return;
    const delay = Math.max(0, Math.min(best - now, 2 ** 31 - 1));
    this.timer = setTimeout(() => this.fire(), delay);
  }

  private fire(): void {
    this.timer = null;
    const st = this.core.state();
    const menu = st.menus.byPath("/system/scheduler")!;
    const now = st.now().getTime();
    this.running = true;
    try {
      for (const it of [...st.stored(menu)]) {
        const n = this.nextOf(it, now, st.bootMs);
        if (n === null || n > now) continue;
        const interval = parseInterval(it.interval ?? "0s") ?? 0;
        this.plan.set(it[".id"], {
          sig: signature(it),
          next: interval > 0 ? n + interval * 1000 : null,
        });
        it["run-count"] = String(Number(it["run-count"] ?? "0") + 1);
        st.touch();
        const ev = it["on-event"] ?? "";
        const script = st.stored(st.menus.byPath("/system/script", st.release)!).find((x) =>
          x.name === ev
        );
        if (script) {
          script["run-count"] = String(Number(script["run-count"] ?? "0") + 1);
          script["last-started"] = st.nowText();
        }
        this.core.runScript(script ? script.source ?? "" : ev, it.owner || "admin");
      }
    } finally {
      this.running = false;
    }
    this.rearm();
  }

  /** Next planned run of a job (ms), for `next-run`. */
  planned(id: string): number | null {
    return this.plan.get(id)?.next ?? null;
  }

  /** Forgets planned runs (after a reboot, `startup` jobs run again). */
  reset(): void {
    this.plan.clear();
    queueMicrotask(() => this.rearm());
  }

  /** Cancels the timer. */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

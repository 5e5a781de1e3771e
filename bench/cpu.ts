// CPU time used by a process group, from /proc (Linux). Throughput on a shared machine depends on what else runs;
// CPU milliseconds per request are a steadier measure of how much work each request costs the server.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux build

/** Seconds of user+system CPU used so far by every live process of the group, or null off Linux. */
export function groupCpuSeconds(pgid: number | undefined): number | null {
  if (!pgid || process.platform !== "linux") return null;
  let ticks = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the parenthesised command name: state ppid pgrp ... utime(14) stime(15), counted from 1.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(rest[2]) !== pgid) continue;
    ticks += Number(rest[11]) + Number(rest[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** The machine's busy and total CPU ticks so far (all cores, from /proc/stat), or null off Linux. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (v[3] ?? 0) + (v[4] ?? 0); // idle + iowait
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0); // user .. steal (guest time is inside user)
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine is quiet: the share of its CPU in use over 100 ms is at most `busyShare`, or `maxMs` have
 * passed. Before each slice of a measurement in slices (bench/run.ts), so that work one slice left behind (the
 * database's statistics, a flush) runs before the next slice starts, not inside it.
 */
export async function settle(busyShare = 0.15, maxMs = 3000): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    const a = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const b = machineTicks();
    if (!a || !b) return;
    const total = b.total - a.total;
    if (total > 0 && (b.busy - a.busy) / total <= busyShare) return;
  }
}

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

/**
 * CPU time of a process and its descendants (an API started with API_PROCESSES=2 is a primary and
 * its cluster workers), from `/proc/<pid>/stat` (utime + stime, in clock ticks), sampled before and
 * after a row. Throughput on a shared machine moves with the neighbours' load; the CPU a request
 * costs barely does, so the benchmarks compare that to the bare Koa hello-world's, measured in the
 * same run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface Stat {
  ppid: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may contain spaces.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** `pid` and every live descendant of it. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(entry));
    children.set(stat.ppid, list);
  }
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/** CPU milliseconds used so far by `pid` and its descendants (0 when it is gone or unknown). */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let ticks = 0;
  for (const p of tree(pid)) ticks += readStat(p)?.ticks ?? 0;
  return (ticks * 1000) / clockTicks();
}

/** Samples the CPU of several processes; `stop()` gives each one's milliseconds since `start`. */
export function cpuMeter<K extends string>(
  pids: Record<K, number | undefined>,
): { stop(): Record<K, number> } {
  const keys = Object.keys(pids) as K[];
  const before = Object.fromEntries(keys.map((k) => [k, cpuMs(pids[k])])) as Record<K, number>;
  return {
    stop() {
      return Object.fromEntries(keys.map((k) => [k, cpuMs(pids[k]) - before[k]])) as Record<
        K,
        number
      >;
    },
  };
}

/** Microseconds of CPU per request. */
export function perRequestUs(cpuMilliseconds: number, requests: number): number {
  return requests > 0 ? (1000 * cpuMilliseconds) / requests : 0;
}

/** Resident memory of a process in bytes, from /proc/<pid>/status (0 when it is gone). */
export function residentBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples the resident memory of `pid` and of each of its descendants once a second (an API with
 * API_PROCESSES=N is a primary, its workers and their image workers) until `stop()`: the highest
 * any one process reached, and the highest of all of them together.
 */
export function residentMeter(pid: number | undefined): {
  stop(): { highestProcessBytes: number; highestTotalBytes: number };
} {
  let highestProcessBytes = 0;
  let highestTotalBytes = 0;
  const sample = () => {
    if (pid === undefined) return;
    let total = 0;
    for (const p of tree(pid)) {
      const bytes = residentBytes(p);
      total += bytes;
      highestProcessBytes = Math.max(highestProcessBytes, bytes);
    }
    highestTotalBytes = Math.max(highestTotalBytes, total);
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { highestProcessBytes, highestTotalBytes };
    },
  };
}

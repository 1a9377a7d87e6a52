// Reads a process's own CPU time (user plus system) from /proc, the steady cost figure on a noisy machine.
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time the process has used so far, user plus system, in microseconds: the scheduler's own count of the
 * time it ran (`/proc/<pid>/schedstat`, in nanoseconds) where the kernel keeps it, else the 10 ms clock-tick counts
 * of `/proc/<pid>/stat`, which are sampled at each tick and so blur when processes share a CPU.
 */
export async function processCpuMicros(pid: number): Promise<number> {
  const schedstat = await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => '');
  const ranNanos = Number(schedstat.split(' ')[0]);
  if (schedstat && Number.isFinite(ranNanos) && ranNanos > 0) return ranNanos / 1000;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / TICKS_PER_SECOND;
}

/** The resident set size of the process, in MB. */
export async function processRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

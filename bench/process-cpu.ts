// Reads a process's own CPU time (user plus system) from /proc, the steady cost figure on a noisy machine.
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The nanoseconds a thread has run, from its `schedstat`; undefined where the kernel keeps none (or the thread ended). */
async function threadRanNanos(path: string): Promise<number | undefined> {
  const schedstat = await readFile(path, 'utf8').catch(() => '');
  const ranNanos = Number(schedstat.split(' ')[0]);
  return schedstat && Number.isFinite(ranNanos) ? ranNanos : undefined;
}

/**
 * The CPU time the process has used so far, user plus system, in microseconds, over all its threads (the main one,
 * and V8's garbage-collector and compiler threads, libuv's pool): the scheduler's own count of the time each thread
 * ran (`/proc/<pid>/task/<tid>/schedstat`, in nanoseconds) where the kernel keeps it, else the 10 ms clock-tick counts
 * of `/proc/<pid>/stat`, which are sampled at each tick and so blur when processes share a CPU. (`/proc/<pid>/schedstat`
 * alone counts the main thread only.) A thread that ended between two readings drops out of the sum: Node's threads
 * live as long as the process.
 */
export async function processCpuMicros(pid: number): Promise<number> {
  const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const ran = await Promise.all(threads.map((tid) => threadRanNanos(`/proc/${pid}/task/${tid}/schedstat`)));
  if (ran.length > 0 && !ran.includes(undefined)) return ran.reduce<number>((sum, nanos) => sum + (nanos ?? 0), 0) / 1000;
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

// CPU time of this process: for speed bounds that the load of other processes on the machine cannot fail.

/**
 * Runs `work` and answers the milliseconds of CPU this process spent meanwhile (user and system, all its threads),
 * with `work`'s result. Unlike the wall-clock time, it does not grow while other processes hold the cores (a loaded
 * CI machine, other test runs), so a bound on it fails only when the work itself is slow. Only for work that keeps
 * the CPU busy: time spent waiting (timers, sockets) is not counted.
 * @example
 * const { ms } = await cpuTime(() => loadModel(folder));
 * assert.ok(ms < 200, `${ms.toFixed(1)} ms of CPU`);
 */
export async function cpuTime<T>(work: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  const before = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(before);
  return { ms: (user + system) / 1000, result };
}

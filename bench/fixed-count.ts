// Sends a fixed number of requests from N concurrent loops and reports the serving process's CPU time per request.
import { Pool } from 'undici';
import type { LoadTarget } from './load-sampler.js';
import { processCpuMicros, processRssMb } from './process-cpu.js';

/** The cost of serving a fixed request count. */
export interface CpuResult {
  /** The serving process's CPU time (user plus system) per request, in µs. */
  cpuPerRequestUs: number;
  rps: number;
  requests: number;
  errors: number;
  /** RSS of the serving process after the run, in MB. */
  rssMb: number;
}

/**
 * Sends `requests` requests over `connections` keep-alive connections to `target` and divides the CPU time
 * that process `pid` used meanwhile by the count. A warm-up of `warmup` requests comes first and is not counted.
 */
export async function measureCpuPerRequest(target: LoadTarget, pid: number, options: { connections: number; requests: number; warmup?: number }): Promise<CpuResult> {
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let errors = 0;
  const send = async (count: number): Promise<void> => {
    let left = count;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (left > 0) {
          left--;
          try {
            const response = await pool.request({ method: 'POST', path: target.path, headers: target.headers, body: target.body });
            await response.body.dump({ limit: Infinity });
            if (response.statusCode !== 200) errors++;
          } catch {
            errors++;
          }
        }
      }),
    );
  };
  await send(options.warmup ?? Math.min(2000, options.requests));
  errors = 0;
  const cpuBefore = await processCpuMicros(pid);
  const started = process.hrtime.bigint();
  await send(options.requests);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = await processCpuMicros(pid);
  await pool.close();
  return { cpuPerRequestUs: (cpuAfter - cpuBefore) / options.requests, rps: options.requests / seconds, requests: options.requests, errors, rssMb: await processRssMb(pid) };
}

/**
 * Loads several serving processes at once, each over its own `connections` keep-alive connections, until each has
 * answered at least `requests` requests after a warm-up; each one's CPU time is read when the last one reaches its
 * count, so every figure covers the same stretch of time: what the machine's neighbours did then, they did to all.
 */
export async function measureCpuPerRequestTogether(targets: readonly { target: LoadTarget; pid: number }[], options: { connections: number; requests: number; warmup?: number }): Promise<CpuResult[]> {
  const pools = targets.map(({ target }) => new Pool(target.origin, { connections: options.connections, pipelining: 1, keepAliveTimeout: 60_000 }));
  const answered = targets.map(() => 0);
  const errors = targets.map(() => 0);
  let goal = options.warmup ?? Math.min(2000, options.requests);
  let stop = false;
  let reached: () => void = () => undefined;
  let done = new Promise<void>((resolve) => (reached = resolve));
  const check = (): void => {
    if (answered.every((count) => count >= goal)) reached();
  };
  const loops = targets.flatMap(({ target }, index) =>
    Array.from({ length: options.connections }, async () => {
      while (!stop) {
        try {
          const response = await pools[index]!.request({ method: 'POST', path: target.path, headers: target.headers, body: target.body });
          await response.body.dump({ limit: Infinity });
          if (response.statusCode !== 200) errors[index]!++;
        } catch {
          errors[index]!++;
        }
        answered[index]!++;
        check();
      }
    }),
  );
  await done;
  // The measured stretch starts now: counts and CPU times from here.
  const cpuBefore = await Promise.all(targets.map(({ pid }) => processCpuMicros(pid)));
  const countBefore = [...answered];
  errors.fill(0);
  const started = process.hrtime.bigint();
  goal = Infinity;
  done = new Promise<void>((resolve) => (reached = resolve));
  const watch = setInterval(() => {
    if (answered.every((count, index) => count - countBefore[index]! >= options.requests)) reached();
  }, 5);
  await done;
  clearInterval(watch);
  const cpuAfter = await Promise.all(targets.map(({ pid }) => processCpuMicros(pid)));
  const countAfter = [...answered];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  stop = true;
  await Promise.all(loops);
  await Promise.all(pools.map((pool) => pool.close()));
  return Promise.all(
    targets.map(async ({ pid }, index) => {
      const count = countAfter[index]! - countBefore[index]!;
      return { cpuPerRequestUs: (cpuAfter[index]! - cpuBefore[index]!) / count, rps: count / seconds, requests: count, errors: errors[index]!, rssMb: await processRssMb(pid) };
    }),
  );
}

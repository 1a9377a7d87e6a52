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

// Load generation for the benchmark: a µs-precise latency sampler on undici pools.
import { Pool } from 'undici';

/** One measured scenario. */
export interface LoadResult {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
}

/** What to send. */
export interface LoadTarget {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * Sends requests from `connections` concurrent loops for `durationMs` after a warm-up, and measures each
 * request's latency in ms with hrtime: to the last body byte, or to the first with `firstByte`.
 */
export async function sampleLatency(
  target: LoadTarget,
  options: { connections: number; durationMs: number; warmupMs?: number; firstByte?: boolean },
): Promise<LoadResult> {
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  let errors = 0;
  const once = async (record: boolean): Promise<void> => {
    const started = process.hrtime.bigint();
    try {
      const response = await pool.request({ method: 'POST', path: target.path, headers: target.headers, body: target.body });
      let first = true;
      for await (const _chunk of response.body) {
        if (first && options.firstByte && record) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        first = false;
      }
      if (response.statusCode !== 200) errors++;
      else if (!options.firstByte && record) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    } catch {
      errors++;
    }
  };
  const run = async (ms: number, record: boolean): Promise<number> => {
    const until = Date.now() + ms;
    let count = 0;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (Date.now() < until) {
          await once(record);
          count++;
        }
      }),
    );
    return count;
  };
  await run(options.warmupMs ?? 1000, false);
  const started = Date.now();
  const requests = await run(options.durationMs, true);
  const elapsed = (Date.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: requests / elapsed, requests, errors };
}

// `npm run bench:soak`: 1,000,000 requests through the compiled gateway; RSS and heap (before and after a forced GC) after every 100,000.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { BENCH_GATEWAY, buildBenchGateway } from './build-gateway.js';

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 1_000_000);
const STEP = Number(process.env.SOAK_STEP ?? 100_000);
const CONNECTIONS = 16;
/** Heap growth after a forced GC, from the first step to the last, above which the soak fails. */
const MAX_HEAP_GROWTH_MB = Number(process.env.SOAK_MAX_HEAP_GROWTH_MB ?? 5);

async function startChild(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code}`)));
  });
  return { child, info };
}

buildBenchGateway();
const upstream = await startChild(['--import', 'tsx', 'bench/fake-upstream-server.ts']);
const gateway = await startChild(['--expose-gc', BENCH_GATEWAY, `http://127.0.0.1:${String(upstream.info.port)}`]);
const origin = `http://127.0.0.1:${String(gateway.info.port)}`;
const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 });
const headers = { 'content-type': 'application/json', 'x-gateway-apikey': String(gateway.info.key), 'x-gateway-route': 'custom' };

async function send(count: number): Promise<number> {
  let left = count;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (left > 0) {
        left--;
        try {
          const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body });
          await response.body.dump({ limit: Infinity });
          if (response.statusCode !== 200) errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return errors;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
async function memory(): Promise<{ rss: number; heapUsed: number; heapUsedAfterGc: number; rssAfterGc: number }> {
  const response = await pool.request({ method: 'GET', path: '/bench/memory' });
  return (await response.body.json()) as { rss: number; heapUsed: number; heapUsedAfterGc: number; rssAfterGc: number };
}

try {
  const idle = await memory();
  console.log(`idle: RSS ${mb(idle.rss)} MB, heap used ${mb(idle.heapUsed)} MB, after GC ${mb(idle.heapUsedAfterGc)} MB`);
  console.log('\n| requests | RSS MB | heap used MB | heap used after GC MB | RSS after GC MB | req/s | errors |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  const series: number[] = [];
  for (let done = 0; done < TOTAL; ) {
    const count = Math.min(STEP, TOTAL - done);
    const started = performance.now();
    const errors = await send(count);
    const rps = count / ((performance.now() - started) / 1000);
    done += count;
    // Let the Chronicles recorder flush its last batch (200 ms timer) before measuring.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sample = await memory();
    series.push(sample.heapUsedAfterGc);
    console.log(`| ${done.toLocaleString('en')} | ${mb(sample.rss)} | ${mb(sample.heapUsed)} | ${mb(sample.heapUsedAfterGc)} | ${mb(sample.rssAfterGc)} | ${rps.toFixed(0)} | ${errors} |`);
  }
  const growth = (series.at(-1)! - series[0]!) / 1024 / 1024;
  const verdict = growth <= MAX_HEAP_GROWTH_MB ? 'flat' : 'GROWING';
  console.log(`\nheap after GC from the first step to the last: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB (${verdict}; limit +${MAX_HEAP_GROWTH_MB} MB). node ${process.version}, ${CONNECTIONS} connections, custom route, ${process.env.BENCH_STORAGE ?? 'file'} storage.`);
  if (verdict !== 'flat') process.exitCode = 1;
} finally {
  await pool.close();
  upstream.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
}

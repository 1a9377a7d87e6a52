// `npm run bench:memory`: a fresh compiled gateway per round: idle RSS, then peak RSS and CPU per request at 32 connections
// (after the bench's traffic mix with BENCH_MEMORY_MIX=1); BENCH_MEMORY_OTHER=<compiled gateway-bench-server.js> alternates another build.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BENCH_GATEWAY, buildBenchGateway } from './build-gateway.js';
import { measureCpuPerRequest } from './fixed-count.js';
import { processRssMb } from './process-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const MIX = process.env.BENCH_MEMORY_MIX === '1';
const other = process.env.BENCH_MEMORY_OTHER;

async function startChild(args: string[]): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code}`)));
  });
  return { child, info };
}

const chat = (content: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content }], max_tokens: 16, ...extra });
const kilobyte = 'Please summarise the following meeting notes for the team. '.repeat(17).slice(0, 1024);

/** One round on a fresh gateway: idle RSS, the optional mix, then the 32-connection run with RSS sampled every 100 ms. */
async function round(script: string, upstream: string): Promise<{ idle: number; peak: number; cpu: number; heapAfterGc: number }> {
  const gateway = await startChild(['--expose-gc', script, upstream]);
  try {
    const pid = gateway.child.pid!;
    const origin = `http://127.0.0.1:${String(gateway.info.port)}`;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const idle = await processRssMb(pid);
    const target = (body: string, route: string, key = String(gateway.info.key)) => ({
      origin,
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': key, 'x-gateway-route': route },
      body,
    });
    if (MIX) {
      await measureCpuPerRequest(target(chat(kilobyte), 'unified'), pid, { connections: 16, requests: REQUESTS });
      await measureCpuPerRequest(target(chat(kilobyte), 'unified', String(gateway.info.guardedKey)), pid, { connections: 16, requests: REQUESTS });
      await measureCpuPerRequest(target(chat('Say hello.', { stream: true, stream_chunks: 200 }), 'unified'), pid, { connections: 16, requests: REQUESTS / 10 });
    }
    let peak = 0;
    const sampler = setInterval(() => void processRssMb(pid).then((mb) => (peak = Math.max(peak, mb))), 100);
    const result = await measureCpuPerRequest(target(chat('Say hello.'), 'custom'), pid, { connections: 32, requests: REQUESTS });
    clearInterval(sampler);
    const memory = (await (await fetch(`${origin}/bench/memory`)).json()) as { heapUsedAfterGc: number };
    return { idle, peak: Math.max(peak, result.rssMb), cpu: result.cpuPerRequestUs, heapAfterGc: memory.heapUsedAfterGc / 1024 / 1024 };
  } finally {
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => gateway.child.once('exit', resolve));
  }
}

buildBenchGateway();
const upstream = await startChild(['--import', 'tsx', 'bench/fake-upstream-server.ts']);
const sides: Array<[string, string]> = [...(other ? [['other', other] as [string, string]] : []), ['working tree', BENCH_GATEWAY]];
const results = new Map<string, Array<{ idle: number; peak: number; cpu: number; heapAfterGc: number }>>();
try {
  for (let index = 0; index < ROUNDS; index++) {
    for (const [name, script] of sides) {
      const result = await round(script, `http://127.0.0.1:${String(upstream.info.port)}`);
      results.set(name, [...(results.get(name) ?? []), result]);
      console.error(`round ${index + 1} ${name}: idle ${result.idle.toFixed(0)} MB, peak ${result.peak.toFixed(0)} MB, ${result.cpu.toFixed(0)} µs/request`);
    }
  }
} finally {
  upstream.child.kill('SIGTERM');
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const list = (values: number[]): string => values.map((value) => value.toFixed(0)).join(', ');
console.log(`\n| gateway | idle RSS MB | peak RSS MB at 32 conns${MIX ? ', after the mix' : ''} (median; rounds) | CPU µs/request (median; rounds) | heap after GC MB |`);
console.log('|---|---:|---:|---:|---:|');
for (const [name, rows] of results) {
  console.log(`| ${name} | ${median(rows.map((r) => r.idle)).toFixed(0)} | ${median(rows.map((r) => r.peak)).toFixed(0)} (${list(rows.map((r) => r.peak))}) | ${median(rows.map((r) => r.cpu)).toFixed(0)} (${list(rows.map((r) => r.cpu))}) | ${median(rows.map((r) => r.heapAfterGc)).toFixed(1)} |`);
}
console.log(`\nnode ${process.version}; ${REQUESTS} requests at 32 connections per round, a fresh gateway per round, ${process.env.BENCH_STORAGE ?? 'file'} storage.`);

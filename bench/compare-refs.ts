// `npm run bench:compare -- <git ref>`: the gateway of an earlier commit against the working tree, in the same run,
// in alternating rounds: CPU per request over a fixed count, and added p50 at one connection.
// `npm run bench:compare -- --storage`: the working tree on file storage with the in-process rate limiter against
// postgresStorage with the Redis rate limiter (the custom route rate-limited at 1,000,000/s in both).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { measureCpuPerRequest, type CpuResult } from './fixed-count.js';
import { sampleLatency, type LoadResult, type LoadTarget } from './load-sampler.js';

const ref = process.argv[2];
if (!ref) throw new Error('usage: npm run bench:compare -- <git ref> | --storage');
const storageMode = ref === '--storage';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);

const root = resolve(import.meta.dirname, '..');
const sha = storageMode ? '' : execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
const beforeDir = resolve(root, '.tmp', `bench-${sha}`);
if (!storageMode && !existsSync(beforeDir)) {
  execFileSync('git', ['worktree', 'add', '--detach', beforeDir, sha], { cwd: root, stdio: 'ignore' });
  // Same lock file: share node_modules; another one: install the ref's own dependencies once.
  const sameLock = execFileSync('git', ['diff', '--name-only', sha, '--', 'package-lock.json'], { cwd: root, encoding: 'utf8' }).trim() === '';
  if (sameLock) symlinkSync(resolve(root, 'node_modules'), resolve(beforeDir, 'node_modules'));
  else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: beforeDir, stdio: 'inherit' });
}

async function startChild(cwd: string, script: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolveInfo, reject) => {
    lines.once('line', (line) => resolveInfo(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, info };
}

const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 });
const upstream = await startChild(root, 'bench/fake-upstream-server.ts');
const upstreamOrigin = `http://127.0.0.1:${String(upstream.info.port)}`;
const limited = { BENCH_RATE_LIMIT: '1000000' };
const gateways = storageMode
  ? {
      'file storage, in-process rate limit': await startChild(root, 'bench/gateway-bench-server.ts', [upstreamOrigin], { ...limited, BENCH_STORAGE: 'file' }),
      'postgresStorage, Redis rate limit': await startChild(root, 'bench/gateway-bench-server.ts', [upstreamOrigin], {
        ...limited,
        BENCH_STORAGE: 'postgres',
        BENCH_REDIS: process.env.GATEWAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      }),
    }
  : {
      // The same storage for both (earlier refs defaulted to memory storage): file unless BENCH_STORAGE says otherwise.
      [`before (${sha})`]: await startChild(beforeDir, 'bench/gateway-bench-server.ts', [upstreamOrigin], { BENCH_STORAGE: process.env.BENCH_STORAGE ?? 'file' }),
      'after (working tree)': await startChild(root, 'bench/gateway-bench-server.ts', [upstreamOrigin], { BENCH_STORAGE: process.env.BENCH_STORAGE ?? 'file' }),
    };
const target = (origin: string, headers: Record<string, string> = {}): LoadTarget => ({
  origin,
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

const results = new Map<string, Array<{ cpu: CpuResult; latency: LoadResult; direct: LoadResult }>>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, { child, info }] of Object.entries(gateways)) {
      const origin = `http://127.0.0.1:${String(info.port)}`;
      const routed = target(origin, { 'x-gateway-apikey': String(info.key), 'x-gateway-route': 'custom' });
      const cpu = await measureCpuPerRequest(routed, child.pid!, { connections: 16, requests: REQUESTS });
      const direct = await sampleLatency(target(upstreamOrigin), { connections: 1, durationMs: LATENCY_MS / 2 });
      const latency = await sampleLatency(routed, { connections: 1, durationMs: LATENCY_MS });
      results.set(name, [...(results.get(name) ?? []), { cpu, latency, direct }]);
    }
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`\n| gateway, custom route, no policy${storageMode ? ", rate-limited" : ""} | CPU µs/request (median of ${ROUNDS}) | rounds | added p50 ms at 1 conn (median) | req/s at 16 conns | errors |`);
  console.log('|---|---:|---|---:|---:|---:|');
  for (const [name, rounds] of results) {
    const cpus = rounds.map((r) => r.cpu.cpuPerRequestUs);
    const added = rounds.map((r) => r.latency.p50 - r.direct.p50);
    const errors = rounds.reduce((sum, r) => sum + r.cpu.errors + r.latency.errors, 0);
    console.log(
      `| ${name} | ${median([...cpus]).toFixed(0)} | ${cpus.map((c) => c.toFixed(0)).join(', ')} | ${median(added).toFixed(3)} | ${median(rounds.map((r) => r.cpu.rps)).toFixed(0)} | ${errors} |`,
    );
  }
  console.log(`\nnode ${process.version}; ${REQUESTS} requests at 16 connections per round for CPU, ${LATENCY_MS} ms at 1 connection for latency.`);
} finally {
  upstream.child.kill('SIGTERM');
  for (const { child } of Object.values(gateways)) child.kill('SIGTERM');
}

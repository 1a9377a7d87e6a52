// `npm run bench:observability`: only the metrics-and-tracing rows of `npm run bench` (both off against both on, alternating rounds; BENCH_OFF_MODE and BENCH_ON_MODE pick other pairs; BENCH_PROCESSES measures several pairs of processes).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildBenchGateway } from './build-gateway.js';
import { measureObservabilityCost } from './observability-cost.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** How many pairs of gateway processes to measure one after the other, each for ROUNDS rounds. */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
/** BENCH_IN_PROCESS=true: both gateways of a pair in one process (see gateway-bench-server.ts, mode `pair`). */
const IN_PROCESS = process.env.BENCH_IN_PROCESS === 'true';
/** BENCH_TOGETHER=true: both gateways loaded at once in each round, their CPU read over the same stretch of time. */
const TOGETHER = process.env.BENCH_TOGETHER === 'true';
/** What each BENCH_OBSERVABILITY mode turns on (see gateway-bench-server.ts). */
const MODES: Record<string, string> = {
  off: 'metrics and tracing off',
  on: 'metrics and tracing on (OTel Node SDK, registered as the example server does)',
  'on-als': "metrics and tracing on (OTel Node SDK with its default AsyncLocalStorage context manager)",
  'on-simple': 'metrics and tracing on (OTel Node SDK with a SimpleSpanProcessor: each span exported, and dropped, as it ends)',
  metrics: 'metrics on, tracing on with no SDK (the default)',
  'metrics-only': 'metrics on, tracing off',
  sdk: 'tracing on (OTel Node SDK), metrics off',
  'sdk-als': 'tracing on (OTel Node SDK with its AsyncLocalStorage context manager), metrics off',
  'off-sdk': 'metrics and tracing off, the OTel Node SDK registered',
  'sdk-hooks': 'tracing off, the SDK context manager\'s async hooks on',
  bare: 'metrics and tracing on (a tracer whose spans do nothing)',
};

buildBenchGateway();
const upstream = spawn(process.execPath, ['--import', 'tsx', 'bench/fake-upstream-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise<{ port: number }>((resolve) => createInterface({ input: upstream.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { port: number })));
try {
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 });
  const cost = await measureObservabilityCost([`http://127.0.0.1:${info.port}`], { requests: REQUESTS, connections: 16, rounds: ROUNDS, body, processes: PROCESSES, inProcess: IN_PROCESS, together: TOGETHER });
  console.log('\n| scenario | CPU µs/request | req/s at 16 conns | errors |\n|---|---:|---:|---:|');
  const offMode = process.env.BENCH_OFF_MODE ?? 'off';
  const onMode = process.env.BENCH_ON_MODE ?? 'on';
  const label = (mode: string): string => MODES[mode] ?? `BENCH_OBSERVABILITY=${mode}`;
  console.log(`| gateway: custom route, ${label(offMode)} | ${cost.off.cpuPerRequestUs.toFixed(0)} | ${cost.off.rps.toFixed(0)} | ${cost.off.errors} |`);
  console.log(`| gateway: custom route, ${label(onMode)} | ${cost.on.cpuPerRequestUs.toFixed(0)} | ${cost.on.rps.toFixed(0)} | ${cost.on.errors} |`);
  const rounds = (values: number[]): string => values.map((value) => value.toFixed(0)).join(', ');
  console.log(`\nrounds (CPU µs/request): ${offMode} ${rounds(cost.offRounds)}; ${onMode} ${rounds(cost.onRounds)}`);
  // Each on round against the off round next to it: steadier than two medians when the machine's load moves.
  const ratios = cost.onRounds.map((on, index) => on / cost.offRounds[index]!).sort((a, b) => a - b);
  const paired = (ratios[Math.floor(ratios.length / 2)]! - 1) * 100;
  console.log(`paired (median of the per-round on/off ratios): ${paired >= 0 ? '+' : ''}${paired.toFixed(1)}%`);
  console.log(`${onMode} over ${offMode}: ${cost.extraPercent >= 0 ? '+' : ''}${cost.extraPercent.toFixed(1)}% CPU per request (median of ${cost.rounds} ${TOGETHER ? 'rounds loading both at once, each of at least' : 'alternating rounds of'} ${REQUESTS} requests, ${PROCESSES} ${IN_PROCESS ? `process${PROCESSES === 1 ? '' : 'es'} serving both` : `pair${PROCESSES === 1 ? '' : 's'} of processes`}; node ${process.version})`);
} finally {
  upstream.kill('SIGTERM');
}

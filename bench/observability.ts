// `npm run bench:observability`: only the metrics-and-tracing rows of `npm run bench` (both off against both on, alternating rounds).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildBenchGateway } from './build-gateway.js';
import { measureObservabilityCost } from './observability-cost.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

buildBenchGateway();
const upstream = spawn(process.execPath, ['--import', 'tsx', 'bench/fake-upstream-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise<{ port: number }>((resolve) => createInterface({ input: upstream.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { port: number })));
try {
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 });
  const cost = await measureObservabilityCost([`http://127.0.0.1:${info.port}`], { requests: REQUESTS, connections: 16, rounds: ROUNDS, body });
  console.log('\n| scenario | CPU µs/request | req/s at 16 conns | errors |\n|---|---:|---:|---:|');
  console.log(`| gateway: custom route, metrics and tracing off | ${cost.off.cpuPerRequestUs.toFixed(0)} | ${cost.off.rps.toFixed(0)} | ${cost.off.errors} |`);
  console.log(`| gateway: custom route, metrics and tracing on (OTel Node SDK) | ${cost.on.cpuPerRequestUs.toFixed(0)} | ${cost.on.rps.toFixed(0)} | ${cost.on.errors} |`);
  console.log(`\nboth on: ${cost.extraPercent >= 0 ? '+' : ''}${cost.extraPercent.toFixed(1)}% CPU per request over both off (median of ${cost.rounds} alternating rounds of ${REQUESTS} requests; node ${process.version})`);
} finally {
  upstream.kill('SIGTERM');
}

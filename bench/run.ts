// `npm run bench`: the gateway's overhead against a loopback upstream, at 1 and 32 connections, as ratios to direct.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sampleToolCalls } from './mcp-tool-call-bench.js';
import { autocannonThroughput, sampleLatency, type LoadResult, type LoadTarget } from './load-sampler.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONNECTIONS = [1, 32];

async function startChild(script: string, args: string[] = []): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, info };
}

const chat = (stream: boolean): string =>
  JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16, ...(stream ? { stream: true } : {}) });

interface Row {
  scenario: string;
  connections: number;
  result: LoadResult;
  direct?: LoadResult;
}

const fmt = (n: number, digits = 3): string => n.toFixed(digits);

function print(rows: Row[]): void {
  console.log('\n| scenario | conns | p50 ms | p99 ms | req/s | added p50 ms | throughput vs direct | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { scenario, connections, result, direct } of rows) {
    const added = direct ? fmt(result.p50 - direct.p50) : '-';
    const ratio = direct ? `${((result.rps / direct.rps) * 100).toFixed(0)}%` : '-';
    console.log(`| ${scenario} | ${connections} | ${fmt(result.p50)} | ${fmt(result.p99)} | ${result.rps.toFixed(0)} | ${added} | ${ratio} | ${result.errors} |`);
  }
}

const MCP_TOKEN = 'bench-registry-token-0123456789';
const upstream = await startChild('bench/fake-upstream-server.ts');
const upstreamOrigin = `http://127.0.0.1:${String(upstream.info.port)}`;
const mcpServer = await startChild('bench/fake-mcp-bench-server.ts', [MCP_TOKEN]);
const mcpUrl = String(mcpServer.info.url);
const gateway = await startChild('bench/gateway-bench-server.ts', [upstreamOrigin, mcpUrl, MCP_TOKEN]);
const gatewayOrigin = `http://127.0.0.1:${String(gateway.info.port)}`;
const developerKey = String(gateway.info.key);
const guardedKey = String(gateway.info.guardedKey);
const reference = await startChild('bench/reference-proxy-server.ts', [upstreamOrigin]);
const referenceOrigin = `http://127.0.0.1:${String(reference.info.port)}`;

const targets: Record<string, (stream: boolean) => LoadTarget> = {
  direct: (stream) => ({ origin: upstreamOrigin, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: chat(stream) }),
  'reference: bare Express + undici proxy': (stream) => ({ origin: referenceOrigin, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: chat(stream) }),
  'unified route': (stream) => ({
    origin: gatewayOrigin,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', 'x-gateway-apikey': developerKey, 'x-gateway-route': 'unified' },
    body: chat(stream),
  }),
  'unified route + 2-processor input policy': (stream) => ({
    origin: gatewayOrigin,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', 'x-gateway-apikey': guardedKey, 'x-gateway-route': 'unified' },
    body: chat(stream),
  }),
  'custom route, 2 weighted models': (stream) => ({
    origin: gatewayOrigin,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', 'x-gateway-apikey': developerKey, 'x-gateway-route': 'custom' },
    body: chat(stream),
  }),
};

const rows: Row[] = [];
try {
  for (const connections of CONNECTIONS) {
    const direct = await sampleLatency(targets.direct!(false), { connections, durationMs: DURATION_MS });
    rows.push({ scenario: 'direct', connections, result: direct });
    for (const name of ['reference: bare Express + undici proxy', 'unified route', 'custom route, 2 weighted models', 'unified route + 2-processor input policy']) {
      rows.push({ scenario: name, connections, result: await sampleLatency(targets[name]!(false), { connections, durationMs: DURATION_MS }), direct });
    }
    const directTtfb = await sampleLatency(targets.direct!(true), { connections, durationMs: DURATION_MS, firstByte: true });
    rows.push({ scenario: 'stream TTFB, direct', connections, result: directTtfb });
    rows.push({
      scenario: 'stream TTFB, unified route',
      connections,
      result: await sampleLatency(targets['unified route']!(true), { connections, durationMs: DURATION_MS, firstByte: true }),
      direct: directTtfb,
    });
  }
  // Direct and proxied tool calls alternate in three rounds (the tool server warms up as it goes); the median round counts.
  const mcpRounds: Array<{ direct: LoadResult; proxied: LoadResult }> = [];
  for (let round = 0; round < 3; round++) {
    const direct = await sampleToolCalls(mcpUrl, { authorization: `Bearer ${MCP_TOKEN}` }, DURATION_MS / 2);
    const proxied = await sampleToolCalls(`${gatewayOrigin}/v1/mcp/bench-tools`, { authorization: `Bearer ${developerKey}` }, DURATION_MS / 2);
    mcpRounds.push({ direct, proxied });
  }
  mcpRounds.sort((a, b) => a.proxied.p50 - a.direct.p50 - (b.proxied.p50 - b.direct.p50));
  const median = mcpRounds[1]!;
  rows.push({ scenario: 'MCP tools/call, direct (median of 3 rounds)', connections: 1, result: median.direct });
  rows.push({ scenario: 'MCP tools/call, through the registry proxy', connections: 1, result: median.proxied, direct: median.direct });
  const seconds = Math.max(2, Math.round(DURATION_MS / 1000));
  const acDirect = await autocannonThroughput(targets.direct!(false), 32, seconds);
  rows.push({ scenario: 'autocannon: direct', connections: 32, result: acDirect });
  rows.push({ scenario: 'autocannon: unified route', connections: 32, result: await autocannonThroughput(targets['unified route']!(false), 32, seconds), direct: acDirect });
  print(rows);
  console.log(`\nnode ${process.version}, ${DURATION_MS} ms per scenario after a 1 s warm-up; latency from hrtime per request (autocannon rows: 1 ms resolution).`);
} finally {
  upstream.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
  reference.child.kill('SIGTERM');
  mcpServer.child.kill('SIGTERM');
}

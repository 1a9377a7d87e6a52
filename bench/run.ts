// `npm run bench`: the gateway's own cost against a loopback upstream and three bare proxies, in one run:
// CPU time per request (the steady figure; the gateway against the references again in alternating rounds), req/s, added p50 at one connection, streaming and memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_EXPRESS_REFERENCE, BENCH_GATEWAY, BENCH_NODE_REFERENCE, buildBenchGateway } from './build-gateway.js';
import { measureCpuPerRequest, type CpuResult } from './fixed-count.js';
import { sampleToolCalls } from './mcp-tool-call-bench.js';
import { sampleLatency, type LoadResult, type LoadTarget } from './load-sampler.js';
import { processRssMb } from './process-cpu.js';
import { measureObservabilityCost } from './observability-cost.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONNECTIONS = 16;
/** Requests that warm each gateway once after start, before any row (BENCH_GATEWAY_WARMUP). */
const GATEWAY_WARMUP = Number(process.env.BENCH_GATEWAY_WARMUP ?? 10_000);
/** Rounds of the alternating comparison of the gateway with the references (BENCH_ALTERNATING_ROUNDS). */
const ALTERNATING_ROUNDS = Number(process.env.BENCH_ALTERNATING_ROUNDS ?? 5);
const LONG_STREAM_CHUNKS = 200;

interface Child {
  child: ChildProcess;
  info: Record<string, unknown>;
}

async function startChild(command: string[], script: string, args: string[] = [], env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, [...command, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, info };
}
const withTsx = (script: string, args: string[] = []): Promise<Child> => startChild(['--import', 'tsx'], script, args);

const chat = (stream: boolean, chunks = 0): string =>
  JSON.stringify({
    model: 'bench-model',
    messages: [{ role: 'user', content: 'Say hello.' }],
    max_tokens: 16,
    ...(stream ? { stream: true } : {}),
    ...(chunks ? { stream_chunks: chunks } : {}),
  });
// A 1 KB prompt, as the two-processor policy target of issue #13 measures it.
const kilobytePrompt = 'Please summarise the following meeting notes for the team. '.repeat(17).slice(0, 1024);
const chat1k = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: kilobytePrompt }], max_tokens: 16 });

interface Row {
  scenario: string;
  cpu?: CpuResult;
  latency?: LoadResult;
  /** The direct p50 measured next to this row, for the added p50. */
  directP50?: number;
  note?: string;
}
const fmt = (n: number, digits = 3): string => n.toFixed(digits);

/** The two reference rows every gateway row is compared with: bare Express with res.json(), and bare node:http. */
const EXPRESS_REFERENCE = 'reference: bare Express + express.json() + res.json() + undici proxy';
const NODE_REFERENCE = 'reference: bare node:http + undici proxy';

function print(rows: Row[]): void {
  const cpuOf = (name: string): number | undefined => rows.find((row) => row.scenario === name)?.cpu?.cpuPerRequestUs;
  const express = cpuOf(EXPRESS_REFERENCE);
  const node = cpuOf(NODE_REFERENCE);
  const ratio = (cpu: CpuResult | undefined, reference: number | undefined): string => (cpu && reference ? fmt(cpu.cpuPerRequestUs / reference, 2) : '-');
  console.log(`\n| scenario | CPU µs/request | × bare Express (res.json) | × bare node:http | req/s at ${CONNECTIONS} conns | p50 ms at 1 conn | added p50 ms | RSS after, MB | errors | note |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { scenario, cpu, latency, directP50, note } of rows) {
    const added = latency && directP50 !== undefined ? fmt(latency.p50 - directP50) : '-';
    const errors = (cpu?.errors ?? 0) + (latency?.errors ?? 0);
    console.log(
      `| ${scenario} | ${cpu ? cpu.cpuPerRequestUs.toFixed(0) : '-'} | ${ratio(cpu, express)} | ${ratio(cpu, node)} | ${cpu ? cpu.rps.toFixed(0) : '-'} | ${latency ? fmt(latency.p50) : '-'} | ${added} | ${cpu ? cpu.rssMb.toFixed(0) : '-'} | ${errors} | ${note ?? ''} |`,
    );
  }
}

// The gateway runs as production would: compiled, on plain node, no tsx loader.
buildBenchGateway();

const MCP_TOKEN = 'bench-registry-token-0123456789';
const upstream = await withTsx('bench/fake-upstream-server.ts');
const upstreamOrigin = `http://127.0.0.1:${String(upstream.info.port)}`;
const mcpServer = await withTsx('bench/fake-mcp-bench-server.ts', [MCP_TOKEN]);
const mcpUrl = String(mcpServer.info.url);
const gateway = await startChild([], BENCH_GATEWAY, [upstreamOrigin, mcpUrl, MCP_TOKEN]);
const gatewayPid = gateway.child.pid!;
// A second gateway that writes a log line per request into a file, as `npm start` logs them (GATEWAY_LOG_REQUESTS).
const requestLogDir = mkdtempSync(join(tmpdir(), 'gateway-bench-log-'));
const loggingGateway = await startChild([], BENCH_GATEWAY, [upstreamOrigin], { BENCH_REQUEST_LOG: join(requestLogDir, 'requests.log') });
const gatewayOrigin = `http://127.0.0.1:${String(gateway.info.port)}`;
const developerKey = String(gateway.info.key);
const guardedKey = String(gateway.info.guardedKey);
// The references run compiled on plain node too, as the gateway does.
const expressRef = await startChild([], BENCH_EXPRESS_REFERENCE, [upstreamOrigin, 'json']);
const expressEndRef = await startChild([], BENCH_EXPRESS_REFERENCE, [upstreamOrigin, 'end']);
const nodeRef = await startChild([], BENCH_NODE_REFERENCE, [upstreamOrigin]);
const origin = (child: Child): string => `http://127.0.0.1:${String(child.info.port)}`;

const target = (base: string, body: string, headers: Record<string, string> = {}): LoadTarget => ({
  origin: base,
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const viaGateway = (route: string, key = developerKey, body = chat(false)): LoadTarget =>
  target(gatewayOrigin, body, { 'x-gateway-apikey': key, 'x-gateway-route': route });

const logged: LoadTarget = { ...viaGateway('custom', String(loggingGateway.info.key)), origin: origin(loggingGateway) };

const rows: Row[] = [];
const directLatency = (stream = false): Promise<LoadResult> =>
  sampleLatency(target(upstreamOrigin, chat(stream)), { connections: 1, durationMs: DURATION_MS / 2, firstByte: stream });

async function scenario(name: string, pid: number, load: LoadTarget, options: { firstByte?: boolean; note?: string } = {}): Promise<Row> {
  const cpu = await measureCpuPerRequest(load, pid, { connections: CONNECTIONS, requests: REQUESTS });
  const direct = await directLatency(options.firstByte);
  const latency = await sampleLatency(load, { connections: 1, durationMs: DURATION_MS, firstByte: options.firstByte });
  // The direct row is the baseline itself: its p50 is shown, nothing is added to it.
  const row: Row = { scenario: name, cpu, latency, directP50: pid === upstream.child.pid ? undefined : direct.p50, note: options.note };
  rows.push(row);
  return row;
}

try {
  const idleRss = await processRssMb(gatewayPid);
  // The gateways' code is larger than a reference's: warm their JIT once, unmeasured, before any row (each row still
  // has its own 2,000-request warm-up), so the first gateway row reads the steady cost, not the compiler's.
  for (const [pid, load] of [[gatewayPid, viaGateway('custom')], [loggingGateway.child.pid!, logged]] as const) {
    await measureCpuPerRequest(load, pid, { connections: CONNECTIONS, requests: GATEWAY_WARMUP, warmup: 0 });
  }
  await scenario('direct (the fake upstream alone)', upstream.child.pid!, target(upstreamOrigin, chat(false)));
  await scenario(NODE_REFERENCE, nodeRef.child.pid!, target(origin(nodeRef), chat(false)));
  await scenario(EXPRESS_REFERENCE, expressRef.child.pid!, target(origin(expressRef), chat(false)));
  await scenario('reference: bare Express + express.json() + res.end(bytes) + undici proxy', expressEndRef.child.pid!, target(origin(expressEndRef), chat(false)));
  await scenario('gateway: custom route, no policy', gatewayPid, viaGateway('custom'));
  await scenario('gateway: custom route, a log line per request (as npm start logs them)', loggingGateway.child.pid!, logged);
  await scenario('gateway: unified route, no policy', gatewayPid, viaGateway('unified'));
  const plain1k = await scenario('gateway: unified route, 1 KB prompt, no policy', gatewayPid, viaGateway('unified', developerKey, chat1k));
  const guarded = await scenario('gateway: unified route, 1 KB prompt, 2-processor input policy', gatewayPid, viaGateway('unified', guardedKey, chat1k));
  guarded.note = `policy adds ${(guarded.cpu!.cpuPerRequestUs - plain1k.cpu!.cpuPerRequestUs).toFixed(0)} µs over the same prompt without it`;
  await scenario('gateway: unified route, stream (3 chunks), time to first byte', gatewayPid, viaGateway('unified', developerKey, chat(true)), { firstByte: true });
  const longStream = await measureCpuPerRequest(viaGateway('unified', developerKey, chat(true, LONG_STREAM_CHUNKS)), gatewayPid, {
    connections: CONNECTIONS,
    requests: Math.max(1000, Math.floor(REQUESTS / 10)),
  });
  const shortStream = rows.at(-1)!.cpu!;
  const perChunk = (longStream.cpuPerRequestUs - shortStream.cpuPerRequestUs) / (LONG_STREAM_CHUNKS - 3);
  rows.push({ scenario: `gateway: unified route, stream of ${LONG_STREAM_CHUNKS} chunks`, cpu: longStream, note: `relay cost ${perChunk.toFixed(1)} µs per chunk` });

  // Memory during a 32-connection run: the highest RSS sampled every 100 ms.
  let peakRss = 0;
  const sampler = setInterval(() => void processRssMb(gatewayPid).then((mb) => (peakRss = Math.max(peakRss, mb))), 100);
  const at32 = await measureCpuPerRequest(viaGateway('custom'), gatewayPid, { connections: 32, requests: REQUESTS });
  clearInterval(sampler);
  rows.push({ scenario: 'gateway: custom route at 32 connections', cpu: at32, note: `peak RSS ${peakRss.toFixed(0)} MB; idle RSS at start ${idleRss.toFixed(0)} MB` });

  // Metrics and tracing: both off against both on (an OTel SDK registered), alternating rounds on two more gateways.
  const observability = await measureObservabilityCost([upstreamOrigin], { requests: REQUESTS / 2, connections: CONNECTIONS, rounds: 3, body: chat(false) });
  rows.push({ scenario: 'gateway: custom route, metrics and tracing off', cpu: observability.off, note: 'median of 3 rounds, alternating with the next row' });
  rows.push({ scenario: 'gateway: custom route, metrics and tracing on (OTel Node SDK, registered as the example server does)', cpu: observability.on, note: `${observability.extraPercent >= 0 ? '+' : ''}${observability.extraPercent.toFixed(1)}% CPU per request over both off` });

  // Direct and proxied tool calls alternate in three rounds (the tool server warms up as it goes); the median round counts.
  const mcpRounds: Array<{ direct: LoadResult; proxied: LoadResult }> = [];
  for (let round = 0; round < 3; round++) {
    const direct = await sampleToolCalls(mcpUrl, { authorization: `Bearer ${MCP_TOKEN}` }, DURATION_MS / 2);
    const proxied = await sampleToolCalls(`${gatewayOrigin}/v1/mcp/bench-tools`, { authorization: `Bearer ${developerKey}` }, DURATION_MS / 2);
    mcpRounds.push({ direct, proxied });
  }
  mcpRounds.sort((a, b) => a.proxied.p50 - a.direct.p50 - (b.proxied.p50 - b.direct.p50));
  const median = mcpRounds[1]!;
  rows.push({ scenario: 'MCP tools/call, direct (median of 3 rounds)', latency: median.direct });
  rows.push({ scenario: 'MCP tools/call, through the registry proxy', latency: median.proxied, directP50: median.direct.p50 });
  print(rows);

  // The targets compare the gateway with the references: those rows again, in alternating rounds (the order reversed
  // every other round), so a drift of the machine's load during the run falls on every side alike.
  const contenders: Array<{ name: string; pid: number; load: LoadTarget }> = [
    { name: NODE_REFERENCE, pid: nodeRef.child.pid!, load: target(origin(nodeRef), chat(false)) },
    { name: EXPRESS_REFERENCE, pid: expressRef.child.pid!, load: target(origin(expressRef), chat(false)) },
    { name: 'reference: bare Express + express.json() + res.end(bytes) + undici proxy', pid: expressEndRef.child.pid!, load: target(origin(expressEndRef), chat(false)) },
    { name: 'gateway: custom route, no policy', pid: gatewayPid, load: viaGateway('custom') },
    { name: 'gateway: custom route, a log line per request', pid: loggingGateway.child.pid!, load: logged },
  ];
  const alternating = new Map<string, number[]>(contenders.map(({ name }) => [name, []]));
  for (let round = 0; round < ALTERNATING_ROUNDS; round++) {
    for (const { name, pid, load } of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      alternating.get(name)!.push((await measureCpuPerRequest(load, pid, { connections: CONNECTIONS, requests: REQUESTS / 2, warmup: 500 })).cpuPerRequestUs);
    }
  }
  const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const expressMedian = medianOf(alternating.get(EXPRESS_REFERENCE)!);
  const nodeMedian = medianOf(alternating.get(NODE_REFERENCE)!);
  console.log(`\n| CPU µs/request, median of ${ALTERNATING_ROUNDS} alternating rounds of ${REQUESTS / 2} | median | × bare Express (res.json) | × bare node:http | rounds |`);
  console.log('|---|---:|---:|---:|---|');
  for (const [name, values] of alternating) {
    const median = medianOf(values);
    console.log(`| ${name} | ${median.toFixed(0)} | ${fmt(median / expressMedian, 2)} | ${fmt(median / nodeMedian, 2)} | ${values.map((value) => value.toFixed(0)).join(', ')} |`);
  }
  console.log(
    `\nnode ${process.version}; CPU: the serving process's user+system time over ${REQUESTS} requests at ${CONNECTIONS} connections after a warm-up; ` +
      `latency: hrtime per request at 1 connection for ${DURATION_MS} ms, added p50 against a direct run measured just before. The gateway runs compiled (no tsx).`,
  );
} finally {
  for (const child of [upstream, gateway, loggingGateway, expressRef, expressEndRef, nodeRef, mcpServer]) child.child.kill('SIGTERM');
  rmSync(requestLogDir, { recursive: true, force: true });
}

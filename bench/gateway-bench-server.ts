// Benchmark gateway: createGateway on file storage, as the example server runs it (BENCH_STORAGE=memory or postgres for the others; BENCH_REDIS=<url> for shared
// rate limits), seeded with a provider, a unified route and a two-model custom route (rate-limited with BENCH_RATE_LIMIT).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { createExpressServer, createGateway, createPinoLogger, fileStorage, memoryStorage, pinoGatewayLogger, postgresStorage } from '../src/index.js';
import { applyHeapGrowing, heapGrowingPercent } from '../examples/heap-growth.js';
import { registerBareTracer, registerDiscardingTracer } from './bench-tracing.js';

// The heap growth the example server sets (GATEWAY_HEAP_GROWING_PERCENT; 0 for V8's own), so the bench measures it as users run it.
applyHeapGrowing(heapGrowingPercent(process.env.GATEWAY_HEAP_GROWING_PERCENT));

const upstream = process.argv[2];
const mcpUrl = process.argv[3];
const mcpToken = process.argv[4];
if (!upstream) throw new Error('usage: gateway-bench-server.ts <upstream base URL> [<MCP server URL> <token>]');
const adminKey = 'bench-admin-key-0123456789abcdef';
const databaseUrl = process.env.GATEWAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const benchSchema = `gw_bench_${randomBytes(4).toString('hex')}`;
const benchDir = process.env.BENCH_STORAGE === 'memory' || process.env.BENCH_STORAGE === 'postgres' ? undefined : mkdtempSync(join(tmpdir(), 'gateway-bench-'));
/** A storage of the kind BENCH_STORAGE names; `part` keeps a second gateway's data apart (its own folder or schema). */
const benchStorage = (part = '') =>
  benchDir
    ? fileStorage({ dir: part ? join(benchDir, part) : benchDir })
    : process.env.BENCH_STORAGE === 'postgres'
      ? postgresStorage({ connectionString: databaseUrl, schema: `${benchSchema}${part}` })
      : memoryStorage();
const storage = benchStorage();
const redisUrl = process.env.BENCH_REDIS;
// BENCH_OBSERVABILITY (unset: the defaults, tracing on without an SDK):
//   off        metrics off, tracing off
//   on         metrics, and the OTel Node SDK registered as the example server registers it (no context manager)
//   on-als     metrics, and the SDK with its default AsyncLocalStorage context manager
//   on-simple  as `on`, with a SimpleSpanProcessor instead of the batch processor
//   metrics    metrics, tracing on with no SDK (the default); metrics-only: metrics, `tracing: false`
//   sdk / sdk-als: the SDK alone, without / with the context manager
//   off-sdk    metrics and tracing off, with the SDK registered as for `on` (what registering it costs by itself)
//   off-sdk    metrics and tracing off, with the SDK registered as for `on` (what registering it costs by itself)
//   sdk-hooks  tracing off, the SDK's context manager registered and its async hooks switched on
//   bare       metrics, and a tracer whose spans do nothing (the gateway's own tracing work, none of an SDK's)
//   pair       two gateways in this one process, `off` and `on` (the SDK registered as for `on`), on two ports: the
//              same JIT and heap serve both, so the difference between them is not one process's luck against another's
// BENCH_DEFAULT_METRICS=false leaves Node's default process metrics out.
const observability = process.env.BENCH_OBSERVABILITY ?? '';
if (['on', 'sdk', 'off-sdk'].includes(observability) || (observability === 'pair' && process.env.BENCH_PAIR_TRACER !== 'bare')) await registerDiscardingTracer('none');
if (observability === 'on-simple') await registerDiscardingTracer('none', false, true);
if (['on-als', 'sdk-als', 'sdk-hooks'].includes(observability)) await registerDiscardingTracer('default', observability === 'sdk-hooks');
if (observability === 'bare' || (observability === 'pair' && process.env.BENCH_PAIR_TRACER === 'bare')) await registerBareTracer();
// BENCH_REQUEST_LOG=<file>: a line per request, as the example server logs them (pino, through the secret scrubber), into that
// file, written at once (BENCH_REQUEST_LOG_SYNC unset or true) or buffered (false).
const requestLogFile = process.env.BENCH_REQUEST_LOG;
const logger = requestLogFile
  ? pinoGatewayLogger(createPinoLogger({ destination: pino.destination({ dest: requestLogFile, sync: process.env.BENCH_REQUEST_LOG_SYNC !== 'false', minLength: process.env.BENCH_REQUEST_LOG_SYNC === 'false' ? 4096 : 0 }) }))
  : undefined;

/** One seeded bench gateway, listening on its own port. */
interface BenchGateway {
  gateway: ReturnType<typeof createGateway>;
  server: ReturnType<ReturnType<typeof createExpressServer>['listen']>;
  port: number;
  key: string;
  guardedKey: string;
}

/** Creates a gateway with the metrics and tracing of `mode`, serves it as the example server does and seeds it. */
async function serveGateway(mode: string, gatewayStorage: typeof storage): Promise<BenchGateway> {
  const metricsOn = ['on', 'on-simple', 'on-als', 'metrics', 'metrics-only', 'bare'].includes(mode);
  const gateway = createGateway({
    ...(logger ? { logger, logRequests: true } : {}),
    ...(metricsOn ? { metrics: { defaultMetrics: process.env.BENCH_DEFAULT_METRICS !== 'false' } } : {}),
    ...(['off', 'off-sdk', 'sdk-hooks', 'metrics-only'].includes(mode) ? { tracing: false } : {}),
    storage: gatewayStorage,
    adminKeys: [{ key: adminKey, role: 'super_admin' }],
    ...(redisUrl ? { redis: { url: redisUrl, keyPrefix: `gw_bench_${randomBytes(4).toString('hex')}:` } } : {}),
  });
  await gateway.ready;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // The soak's probe (bench only): memory now, and the heap after a forced GC when node runs with --expose-gc.
  app.get('/bench/memory', (_req, res) => {
    const before = process.memoryUsage();
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const after = process.memoryUsage();
    res.json({ rss: before.rss, heapUsed: before.heapUsed, heapUsedAfterGc: gc ? after.heapUsed : null, rssAfterGc: after.rss, heapTotal: after.heapTotal, external: after.external, arrayBuffers: after.arrayBuffers });
  });
  app.use(gateway.router);
  // As the example server listens (BENCH_APP_LISTEN=true: Express's own app.listen, for comparison).
  const server = process.env.BENCH_APP_LISTEN === 'true' ? app.listen(0, '127.0.0.1') : createExpressServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  server.keepAliveTimeout = 60_000;
  const port = (server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;

  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': adminKey }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  await admin('/v1/admin/providers', { name: 'bench', type: 'openai', config: { api_base: `${upstream}/v1`, models: ['bench-model'] }, api_keys: [{ api_key: 'sk-bench-upstream-key' }] });
  await admin('/v1/admin/providers', { name: 'bench2', type: 'openai', config: { api_base: `${upstream}/v1` }, api_keys: [{ api_key: 'sk-bench-upstream-key2' }] });
  await admin('/v1/admin/routes', { name: 'unified' });
  const rateLimit = Number(process.env.BENCH_RATE_LIMIT ?? 0);
  await admin('/v1/admin/routes', { name: 'custom', type: 'chat', ...(rateLimit ? { config: { settings: { rate_limit: rateLimit } } } : {}), models: [{ name: 'bench-model', provider: 'bench', weight: 2 }, { name: 'bench-model', provider: 'bench2', weight: 1 }] });
  await admin('/v1/admin/applications', { name: 'bench' });
  const { key } = (await admin('/v1/admin/applications/bench/keys', {})) as { key: string };
  await admin('/v1/admin/applications', { name: 'guarded' });
  const policy = { mode: 'reject', processors: { promptinjectiondetection: { apply_to: ['input'] }, dlp_cloud: { apply_to: ['input'], strategy: 'mask' } } };
  const policyAnswer = await fetch(`${base}/v1/admin/applications/guarded/policy`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-api-key': adminKey }, body: JSON.stringify(policy) });
  if (!policyAnswer.ok) throw new Error(`policy: ${policyAnswer.status} ${await policyAnswer.text()}`);
  const guarded = (await admin('/v1/admin/applications/guarded/keys', {})) as { key: string };
  if (mcpUrl) await admin('/v1/admin/mcp/registries', { name: 'bench-tools', url: mcpUrl, authorization_token: mcpToken });
  return { gateway, server, port, key, guardedKey: guarded.key };
}

// In `pair` mode the `off` gateway has a storage of the same kind as the `on` one's, apart from it. BENCH_PAIR_ON and
// BENCH_PAIR_OFF pick other modes for the two (modes that register a tracer register it for both).
const pairModes = [process.env.BENCH_PAIR_ON ?? 'on', process.env.BENCH_PAIR_OFF ?? 'off'] as const;
const served = observability === 'pair' ? [await serveGateway(pairModes[0], storage), await serveGateway(pairModes[1], benchStorage('_off'))] : [await serveGateway(observability, storage)];
const main = served[0]!;
const off = served[1];
console.log(JSON.stringify({ port: main.port, key: main.key, guardedKey: main.guardedKey, adminKey, ...(off ? { offPort: off.port, offKey: off.key } : {}) }));
/** Drops the bench's own PostgreSQL schema or data directory, so runs leave nothing behind. */
async function removeBenchData(): Promise<void> {
  if (benchDir) await rm(benchDir, { recursive: true, force: true });
  if (process.env.BENCH_STORAGE !== 'postgres') return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${benchSchema}" CASCADE; DROP SCHEMA IF EXISTS "${benchSchema}_off" CASCADE`).finally(() => client.end());
}
process.on('SIGTERM', () => {
  for (const { server } of served) server.close();
  void Promise.all(served.map(({ gateway }) => gateway.close()))
    .then(removeBenchData)
    .finally(() => process.exit(0));
});

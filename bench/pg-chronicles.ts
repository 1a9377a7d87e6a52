// Chronicles on PostgreSQL: page reads of an application with up to 1,000,000 entries over HTTP, and recorder write throughput.
import { randomBytes } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { ChroniclesRecorder } from '../src/chronicles/chronicles-recorder.js';
import type { ChronicleEntry } from '../src/chronicles/chronicle-entry.js';
import { createGateway, errorMiddleware, postgresStorage } from '../src/index.js';
import { Storage } from '../src/storage/storage-facade.js';

const url = process.env.GATEWAY_BENCH_DATABASE_URL ?? process.env.GATEWAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const stages = (process.env.BENCH_STAGES ?? '10000,100000,1000000').split(',').map(Number);
const samples = Number(process.env.BENCH_SAMPLES ?? 200);
const writeEntries = Number(process.env.BENCH_WRITE_ENTRIES ?? 200_000);
const schema = `gw_bench_${randomBytes(6).toString('hex')}`;
const adminKey = 'bench-admin-key-0123456789abcdef';
const pool = new pg.Pool({ connectionString: url, max: 4 });

/** Rows in the shape of a recorded chat request, about 700 bytes of JSON each; 1 in 50 is a 429, 1 in 4 on route `support`. */
const INSERT_ROWS = (log: string) => `
  INSERT INTO "${schema}".gateway_log_records (log_id, seq, value)
  SELECT (SELECT id FROM "${schema}".gateway_logs WHERE name = '${log}'), g, json_build_object(
    'id', 'chr_' || lpad(g::text, 10, '0'),
    'timestamp', to_char(timestamp '2026-01-01' + g * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'application', 'bench', 'kind', 'model', 'endpoint', 'chat/completions',
    'route', CASE WHEN g % 4 = 0 THEN 'support' ELSE 'unified' END, 'provider', 'openai',
    'model', CASE WHEN g % 3 = 0 THEN 'gpt-4o' ELSE 'gpt-4o-mini' END,
    'status', CASE WHEN g % 50 = 0 THEN 429 ELSE 200 END, 'latency_ms', g % 900, 'stream', false,
    'attempts', json_build_array(json_build_object('provider', 'openai', 'model', 'gpt-4o-mini', 'status', 200, 'latency_ms', g % 900)),
    'input', json_build_array(json_build_object('role', 'system', 'content', 'You are a helpful assistant for the web shop.'),
                              json_build_object('role', 'user', 'content', 'Where is my order number ' || g || '? It was due last week.')),
    'output', 'Your order ' || g || ' left our warehouse yesterday and should arrive within two working days.',
    'usage', json_build_object('prompt_tokens', 42, 'completion_tokens', 24, 'total_tokens', 66),
    'guardrail_checks', '[]'::json, 'tool_invocations', '[]'::json, 'error', NULL)
  FROM generate_series($1::bigint, $2::bigint) AS g ORDER BY g`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeGets(base: string, path: () => string): Promise<{ p50: number; p95: number; max: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < samples + 20; i++) {
    const start = performance.now();
    const response = await fetch(`${base}${path()}`, { headers: { 'x-api-key': adminKey } });
    const body = (await response.json()) as { data: unknown[] };
    const elapsed = performance.now() - start;
    if (response.status !== 200) throw new Error(`${path()}: ${response.status} ${JSON.stringify(body)}`);
    rows = body.data.length;
    if (i >= 20) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)!, rows };
}

const fmt = (n: number): string => n.toFixed(2);

async function pagingBench(): Promise<void> {
  const gateway = createGateway({
    storage: postgresStorage({ connectionString: url, schema }),
    adminKeys: [{ key: adminKey, role: 'super_admin' }],
    chronicles: { retention: { maxEntries: 2_000_000 } },
  });
  await gateway.ready;
  const app = express();
  app.use(gateway.router);
  app.use(errorMiddleware());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const created = await fetch(`${base}/v1/admin/applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`creating the application: ${created.status}`);
  await pool.query(`INSERT INTO "${schema}".gateway_logs (name) VALUES ('chronicles/bench')`);

  console.log('| entries in the application | insert s | page query / status=429 query: buffers, execution ms | GET ?limit=50 p50 / p95 / max ms | next page (cursor) p50 / p95 ms | ?status=429&limit=50 p50 / p95 ms | ?route=support&model=gpt-4o&limit=50 p50 ms | GET /chronicles/:id p50 ms: newest / oldest / unknown (404) |');
  console.log('|---:|---:|---|---|---|---|---|---|');
  let inserted = 0;
  for (const target of stages) {
    const start = performance.now();
    for (let from = inserted + 1; from <= target; from += 250_000) {
      await pool.query(INSERT_ROWS('chronicles/bench'), [from, Math.min(target, from + 249_999)]);
    }
    await pool.query(`UPDATE "${schema}".gateway_logs SET last_seq = $1 WHERE name = 'chronicles/bench'`, [target]);
    await pool.query(`VACUUM ANALYZE "${schema}".gateway_log_records`);
    const insertSeconds = (performance.now() - start) / 1000;
    inserted = target;
    // The adapter's page query, as the first page runs it (64 records, newest first): pages touched and server time.
    const plan = (
      await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT seq, value FROM "${schema}".gateway_log_records WHERE log_id = (SELECT id FROM "${schema}".gateway_logs WHERE name = 'chronicles/bench') AND seq <= 9223372036854775807 ORDER BY seq DESC LIMIT 65`,
      )
    ).rows[0]['QUERY PLAN'][0] as { 'Execution Time': number; Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } };
    const buffers = plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'];
    // The adapter's matching query for status=429, as readLogMatching runs it.
    const matchPlan = (
      await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT r.seq, r.value FROM "${schema}".gateway_log_records r
         WHERE r.log_id = (SELECT id FROM "${schema}".gateway_logs WHERE name = 'chronicles/bench') AND r.seq <= 9223372036854775807
         AND r.seq > (SELECT last_seq FROM "${schema}".gateway_logs WHERE name = 'chronicles/bench') - 2000000
         AND r.value->>'status' = '429' ORDER BY r.seq DESC LIMIT 65`,
      )
    ).rows[0]['QUERY PLAN'][0] as typeof plan;
    const matchBuffers = matchPlan.Plan['Shared Hit Blocks'] + matchPlan.Plan['Shared Read Blocks'];
    const first = await timeGets(base, () => '/v1/admin/applications/bench/chronicles?limit=50');
    const page = (await (await fetch(`${base}/v1/admin/applications/bench/chronicles?limit=50`, { headers: { 'x-api-key': adminKey } })).json()) as {
      next_cursor: string;
    };
    const second = await timeGets(base, () => `/v1/admin/applications/bench/chronicles?limit=50&cursor=${page.next_cursor}`);
    const filtered = await timeGets(base, () => '/v1/admin/applications/bench/chronicles?limit=50&status=429');
    const combined = await timeGets(base, () => '/v1/admin/applications/bench/chronicles?limit=50&route=support&model=gpt-4o');
    const byId = async (id: (i: number) => number, status: number): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 50; i++) {
        const start = performance.now();
        const response = await fetch(`${base}/v1/admin/applications/bench/chronicles/chr_${String(id(i)).padStart(10, '0')}`, { headers: { 'x-api-key': adminKey } });
        await response.arrayBuffer();
        if (response.status !== status) throw new Error(`by id: ${response.status}`);
        times.push(performance.now() - start);
      }
      return percentile(times.sort((a, b) => a - b), 50);
    };
    const newestId = await byId((i) => target - i, 200);
    const oldestId = await byId((i) => i + 1, 200);
    const unknownId = await byId((i) => target + 1000 + i, 404);
    if (first.rows !== 50 || second.rows !== 50 || filtered.rows !== 50 || combined.rows !== 50) throw new Error('a page did not hold 50 entries');
    console.log(
      `| ${target.toLocaleString('en-US')} | ${insertSeconds.toFixed(1)} | ${buffers}, ${plan['Execution Time'].toFixed(3)} / ${matchBuffers}, ${matchPlan['Execution Time'].toFixed(3)} | ${fmt(first.p50)} / ${fmt(first.p95)} / ${fmt(first.max)} | ${fmt(second.p50)} / ${fmt(second.p95)} | ${fmt(filtered.p50)} / ${fmt(filtered.p95)} | ${fmt(combined.p50)} | ${fmt(newestId)} / ${fmt(oldestId)} / ${fmt(unknownId)} |`,
    );
  }
  server.close();
  await gateway.close();
}

/** Writes `writeEntries` entries through a recorder (default batching) from 32 concurrent producers; checks every one is stored. */
async function writeBench(): Promise<void> {
  const adapter = postgresStorage({ connectionString: url, schema });
  const storage = new Storage(adapter);
  await storage.init();
  const recorder = new ChroniclesRecorder(storage, { retention: { maxEntries: writeEntries * 2 } });
  const producers = 32;
  const template = (n: number, producer: number): ChronicleEntry => ({
    id: `w_${producer}_${n}`,
    timestamp: new Date().toISOString(),
    application: `writer${producer % 4}`,
    kind: 'model',
    endpoint: 'chat/completions',
    route: 'unified',
    provider: 'openai',
    model: 'gpt-4o-mini',
    status: 200,
    latency_ms: 12,
    stream: false,
    attempts: [],
    input: [{ role: 'user', content: `Where is my order number ${n}? It was due last week.` }],
    output: `Your order ${n} left our warehouse yesterday.`,
    usage: { prompt_tokens: 42, completion_tokens: 24, total_tokens: 66 },
    guardrail_checks: [],
    tool_invocations: [],
    error: null,
  });
  const start = performance.now();
  const perProducer = Math.ceil(writeEntries / producers);
  await Promise.all(
    Array.from({ length: producers }, async (_, producer) => {
      for (let n = 0; n < perProducer; n++) {
        recorder.record(template(n, producer));
        if (n % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  await recorder.close();
  const seconds = (performance.now() - start) / 1000;
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM "${schema}".gateway_log_records r JOIN "${schema}".gateway_logs l ON l.id = r.log_id WHERE l.name LIKE 'chronicles/writer%'`,
  );
  await storage.close();
  const total = perProducer * producers;
  console.log(`\nrecorder writes: ${total} entries from ${producers} producers in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} entries/s; stored ${rows[0].n} (${rows[0].n === total ? 'none lost' : 'LOST ' + (total - rows[0].n)})`);
}

try {
  await pagingBench();
  if (writeEntries > 0) await writeBench();
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}

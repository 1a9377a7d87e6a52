// A gateway on postgresStorage end to end: sealed secrets in the table, an outage (a cut TCP relay to the real server) and recovery.
import assert from 'node:assert/strict';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import pg from 'pg';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { Storage } from '../../src/storage/storage-facade.js';

describe('a gateway on postgresStorage', function () {
  requirePostgres();
  let schema: string;
  let relay: TcpCut;
  let f: TrafficFixture;
  let pool: pg.Pool;

  beforeEach(async () => {
    schema = testSchemaName();
    const target = new URL(TEST_DATABASE_URL);
    relay = await tcpCut(target.hostname, Number(target.port || 5432));
    target.port = String(relay.port);
    f = await createTrafficFixture({
      storage: postgresStorage({ connectionString: target.toString(), schema, connectionTimeoutMillis: 1000, queryTimeoutMillis: 500 }),
      secret: 'postgres-test-secret',
      chronicles: { flushIntervalMs: 20 },
    });
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  });
  afterEach(async () => {
    await relay.restore();
    await f.close();
    await relay.close();
    await pool.end();
    await dropSchema(schema);
  });

  it('14.1: keeps provider keys sealed with GATEWAY_SECRET in the table, and serves traffic from it', async () => {
    const { rows } = await pool.query<{ key: string; value: string }>(`SELECT key, value::text AS value FROM "${schema}".gateway_values`);
    assert.ok(rows.some((row) => row.key.startsWith('provider-keys/fake/')), 'the provider key is stored');
    for (const row of rows) assert.ok(!row.value.includes('sk-stored-provider-key-0001'), `${row.key} holds the provider key in clear`);
    await request(f.app).post('/v1/chat/completions').set('authorization', `Bearer ${f.developerKey}`).send(chatBody()).expect(200);
  });

  it('14.5: with PostgreSQL unreachable, model traffic goes on from the cache, admin writes answer 503 storage_unavailable, and all recovers', async () => {
    const chat = () => request(f.app).post('/v1/chat/completions').set('authorization', `Bearer ${f.developerKey}`).send(chatBody());
    const entries = async () =>
      (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=10').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data as unknown[];
    assert.equal((await chat()).status, 200);
    assert.equal((await entries()).length, 1); // a read flushes the recorder first

    await relay.cut();
    assert.equal((await chat()).status, 200, 'model traffic stops when PostgreSQL is down');
    const write = await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'during-outage' });
    assert.equal(write.status, 503);
    assert.equal(write.body.error.code, 'storage_unavailable');
    assert.ok(!JSON.stringify(write.body).includes(String(relay.port)), 'the answer names the database address');

    await relay.restore();
    await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'after-outage' }).expect(201);
    assert.equal((await entries()).length, 2, 'the entry recorded during the outage was kept and written after it');
  });

  it('14.5: a PostgreSQL that stops answering (connections open, no reply) gives 503 storage_unavailable after the query timeout, and recovers', async () => {
    relay.hang();
    const started = Date.now();
    const write = await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'during-hang' });
    assert.equal(write.status, 503);
    assert.equal(write.body.error.code, 'storage_unavailable');
    assert.ok(Date.now() - started < 5000, 'the write waited for the hung server');
    await relay.restore();
    await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'after-hang' }).expect(201);
  });

  it('14.5: while appends fail, the recorder keeps at most maxPending entries, counts and reports the rest, and writes the kept ones once PostgreSQL is back', async () => {
    const target = new URL(TEST_DATABASE_URL);
    target.port = String(relay.port);
    const storage = new Storage(postgresStorage({ connectionString: target.toString(), schema: `${schema}_r`, connectionTimeoutMillis: 500 }));
    await storage.init();
    const reports: Array<[number, number]> = [];
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, maxPending: 5, onDrop: (total, since) => reports.push([total, since]) });
    const entry = (n: number): ChronicleEntry => ({
      id: `e${n}`, timestamp: new Date().toISOString(), application: 'app', kind: 'model', endpoint: 'chat/completions', route: 'r',
      provider: 'p', model: 'm', status: 200, latency_ms: 1, stream: false, attempts: [], input: `n${n}`, output: null, usage: null,
      guardrail_checks: [], tool_invocations: [], error: null,
    });
    try {
      await relay.cut();
      for (let n = 0; n < 3; n++) recorder.record(entry(n));
      const failing = recorder.flush();
      for (let n = 3; n < 6; n++) recorder.record(entry(n)); // recorded while the failing flush is in flight
      await assert.rejects(failing, (error: { code?: string }) => error.code === 'storage_unavailable');
      for (let n = 6; n < 9; n++) recorder.record(entry(n)); // the buffer is full: dropped
      assert.equal(recorder.dropped, 4);
      assert.deepEqual(reports[0], [1, 1]);
      await relay.restore();
      await recorder.flush();
      assert.deepEqual((await recorder.entries('app')).map((e) => e.input), ['n1', 'n2', 'n3', 'n4', 'n5']);
    } finally {
      await recorder.close();
      await storage.close();
      await dropSchema(`${schema}_r`);
    }
  });
});

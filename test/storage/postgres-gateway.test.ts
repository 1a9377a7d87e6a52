// A gateway on postgresStorage end to end: sealed secrets in the table, an outage (a cut TCP relay to the real server) and recovery.
import assert from 'node:assert/strict';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import { eventually } from '../helpers/eventually.js';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import pg from 'pg';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { Storage } from '../../src/storage/storage-facade.js';

/** A recorded entry of application `app`, with id `e<n>` and input `n<n>`. */
const entryOf = (n: number): ChronicleEntry => ({
  id: `e${n}`, timestamp: new Date().toISOString(), application: 'app', kind: 'model', endpoint: 'chat/completions', route: 'r',
  provider: 'p', model: 'm', status: 200, latency_ms: 1, stream: false, attempts: [], input: `n${n}`, output: null, usage: null,
  guardrail_checks: [], tool_invocations: [], error: null,
});

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
    // A read flushes the recorder first; the entry itself is recorded just after the client has its answer.
    await eventually(async () => assert.equal((await entries()).length, 1));

    await relay.cut();
    const during = await chat();
    assert.equal(during.status, 200, `model traffic stops when PostgreSQL is down: ${during.text}`);
    const write = await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'during-outage' });
    assert.equal(write.status, 503);
    assert.equal(write.body.error.code, 'storage_unavailable');
    assert.ok(!JSON.stringify(write.body).includes(String(relay.port)), 'the answer names the database address');

    await relay.restore();
    await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'after-outage' }).expect(201);
    await eventually(async () => assert.equal((await entries()).length, 2, 'the entry recorded during the outage was kept and written after it'));
  });

  it('a prompt holding U+0000 or half a surrogate pair is recorded (as U+FFFD), and so is every entry after it, in every application', async () => {
    await f.create('/v1/admin/applications', { name: 'other' });
    const otherKey = (await request(f.app).post('/v1/admin/applications/other/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
    const chat = (key: string, content: string) => request(f.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chatBody({ messages: [{ role: 'user', content }] })).expect(200);
    await chat(f.developerKey, 'a\u0000b');
    await chat(f.developerKey, 'c\ud800d');
    await chat(f.developerKey, 'after');
    await chat(otherKey, 'elsewhere');
    const inputs = async (application: string) => {
      const res = await request(f.app).get(`/v1/admin/applications/${application}/chronicles?limit=10`).set('x-api-key', TEST_KEYS.viewer);
      assert.equal(res.status, 200, res.text);
      return (res.body.data as Array<{ input: Array<{ content: string }> }>).map((entry) => entry.input[0]!.content);
    };
    await eventually(async () => assert.deepEqual(await inputs('app'), ['after', 'c\ufffdd', 'a\ufffdb']));
    assert.deepEqual(await inputs('other'), ['elsewhere']);
    const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".gateway_log_records`);
    assert.equal(Number(rows[0]!.n), 4);
    // The viewer's filters may name a NUL too: nothing stored holds one, so nothing matches.
    const filtered = await request(f.app).get('/v1/admin/applications/app/chronicles?route=%00').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(filtered.body.data, []);
    await request(f.app).get('/v1/admin/applications/app/chronicles/a%00b').set('x-api-key', TEST_KEYS.viewer).expect(404);
  });

  it('14.2: on PostgreSQL, filtered lists page through cursors on the indexes, match the unfiltered list, and entries are found by id', async () => {
    await f.create('/v1/admin/routes', { name: 'other', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake' }] });
    const chat = (route?: string) =>
      request(f.app).post('/v1/chat/completions').set('authorization', `Bearer ${f.developerKey}`).set(route ? { 'x-gateway-route': route } : {}).send(chatBody());
    for (let i = 0; i < 12; i++) await chat(i % 3 === 0 ? 'other' : undefined).expect(200);
    f.fake.script([{ fail: { status: 400, message: 'bad' } }]);
    await chat().expect(400);
    const list = async (query: string) => (await request(f.app).get(`/v1/admin/applications/app/chronicles${query}`).set('x-api-key', TEST_KEYS.viewer).expect(200)).body;
    type Entry = { id: string; route: string; model: string; status: number };
    const all = (await list('?limit=100')).data as Entry[];
    assert.equal(all.length, 13);
    const filters: Array<[string, (e: Entry) => boolean]> = [
      ['route=other', (e) => e.route === 'other'],
      ['status=400', (e) => e.status === 400],
      ['model=gpt-4o', (e) => e.model === 'gpt-4o'],
      ['route=other&status=200', (e) => e.route === 'other' && e.status === 200],
      ['route=nowhere', () => false],
    ];
    for (const [query, keep] of filters) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: Entry[]; next_cursor: string | null } = await list(`?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.data.map((e) => e.id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, all.filter(keep).map((e) => e.id), query);
    }
    // A cursor from one filter used with another starts after its entry, even though that entry does not match.
    const byRoute = await list('?limit=1&route=other');
    assert.deepEqual((await list(`?limit=10&status=400&cursor=${byRoute.next_cursor}`)).data, []);
    for (const entry of [all[0]!, all[6]!, all[12]!]) {
      const found = await request(f.app).get(`/v1/admin/applications/app/chronicles/${entry.id}`).set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.deepEqual(found.body, entry);
    }
    await request(f.app).get('/v1/admin/applications/app/chronicles/no-such-id').set('x-api-key', TEST_KEYS.viewer).expect(404);
  });

  it('14.2: indexed reads and lookups by id stay within the newest maxEntries, even before a trim', async () => {
    const target = new URL(TEST_DATABASE_URL);
    const storage = new Storage(postgresStorage({ connectionString: target.toString(), schema: `${schema}_w` }));
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, retention: { maxEntries: 5 } });
    try {
      // Appended straight to the log, as a replica's batch lands before its trim: the log holds more than maxEntries.
      await storage.append('chronicles/app', Array.from({ length: 12 }, (_, n) => ({ ...entryOf(n), route: n % 2 === 0 ? 'even' : 'odd' })));
      assert.equal((await storage.readLog('chronicles/app')).length, 12, 'the log holds more than maxEntries before the next trim');
      const even: string[] = [];
      for await (const record of recorder.newestFirst('app', undefined, 0, { route: 'even' })) even.push(record.value.id);
      assert.deepEqual(even, ['e10', 'e8']);
      assert.equal((await recorder.find('app', 'e9'))?.id, 'e9');
      assert.equal(await recorder.find('app', 'e4'), undefined);
    } finally {
      await recorder.close();
      await storage.close();
      await dropSchema(`${schema}_w`);
    }
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

  it('14.5: with PostgreSQL hung, a flush of ten applications gives up after one timeout, not one per application, and writes them all once it is back', async () => {
    const target = new URL(TEST_DATABASE_URL);
    target.port = String(relay.port);
    const storage = new Storage(postgresStorage({ connectionString: target.toString(), schema: `${schema}_h`, connectionTimeoutMillis: 500, queryTimeoutMillis: 500 }));
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000 });
    const applications = Array.from({ length: 10 }, (_, n) => `app${n}`);
    try {
      relay.hang();
      for (const [n, application] of applications.entries()) recorder.record({ ...entryOf(n), application });
      const started = Date.now();
      await assert.rejects(recorder.flush(), (error: { code?: string }) => error.code === 'storage_unavailable');
      const ms = Date.now() - started;
      // One application after another, each waited out its own 500 ms timeout: at least 5 s (and a stop as long).
      assert.ok(ms < 2500, `the flush took ${ms} ms`);
      assert.equal(recorder.queued, 10, 'every entry is kept for the next flush');
      await relay.restore();
      await recorder.flush();
      for (const [n, application] of applications.entries()) assert.deepEqual((await recorder.entries(application)).map((e) => e.input), [`n${n}`]);
    } finally {
      await relay.restore();
      await recorder.close();
      await storage.close();
      await dropSchema(`${schema}_h`);
    }
  });

  it('14.5: closed while PostgreSQL hangs, a gateway stops within one round of timeouts, logs the request log entries it loses, and retries nothing after', async () => {
    const target = new URL(TEST_DATABASE_URL);
    target.port = String(relay.port);
    const lines: LoggedLine[] = [];
    const g = await createTrafficFixture({
      storage: postgresStorage({ connectionString: target.toString(), schema: `${schema}_c`, connectionTimeoutMillis: 500, queryTimeoutMillis: 500 }),
      logger: capturingLogger(lines),
      chronicles: { flushIntervalMs: 60_000 },
      usage: { flushIntervalMs: 60_000 },
    });
    try {
      for (let n = 0; n < 3; n++) await request(g.app).post('/v1/chat/completions').set('authorization', `Bearer ${g.developerKey}`).send(chatBody()).expect(200);
      relay.hang();
      const started = Date.now();
      await assert.rejects(g.close(), (error: { code?: string }) => error.code === 'storage_unavailable');
      const ms = Date.now() - started;
      assert.ok(ms < 3000, `closing took ${ms} ms`);
      const lost = lines.filter((line) => /request log entries could not be written before the gateway stopped/.test(line.message));
      assert.deepEqual(lost.map((line) => line.fields?.lost), [3]);
      // A retry of the failed flush came 1 s after it, against the closed storage, and then every few seconds for good.
      const logged = lines.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.deepEqual(lines.slice(logged), []);
    } finally {
      await relay.restore();
      await g.close();
      await dropSchema(`${schema}_c`);
    }
  });

  it('14.5: while appends fail, the recorder keeps at most maxPending entries, counts and reports the rest, and writes the kept ones once PostgreSQL is back', async () => {
    const target = new URL(TEST_DATABASE_URL);
    target.port = String(relay.port);
    const storage = new Storage(postgresStorage({ connectionString: target.toString(), schema: `${schema}_r`, connectionTimeoutMillis: 500 }));
    await storage.init();
    const reports: Array<[number, number]> = [];
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, maxPending: 5, onDrop: (total, since) => reports.push([total, since]) });
    const entry = entryOf;
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

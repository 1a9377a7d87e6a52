// Issue 14: a deleted application stays deleted: a late Chronicles flush (another replica, a request that ended late) never brings back its log or graph.
import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const toolCall = (id: string, timestamp: string): ChronicleEntry => ({
  id, timestamp, application: 'gone', kind: 'tool', endpoint: '/v1/mcp/tools', route: null, provider: 'tools', model: null, status: 200,
  latency_ms: 1, stream: false, attempts: [], input: null, output: null, usage: null, guardrail_checks: [], error: null,
  tool_invocations: [{ tool: 'lookup', registry: 'tools', arguments: {}, latency_ms: 1, guardrail_checks: [] }],
});

describe('14.2 deleting an application on PostgreSQL: late flushes never bring its log or counts back', function () {
  this.timeout(30_000);
  requirePostgres();
  let schema: string;
  let pool: pg.Pool;
  beforeEach(() => {
    schema = testSchemaName();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 3 });
  });
  afterEach(async () => {
    await pool.end();
    await dropSchema(schema);
  });

  const logRows = async (name: string): Promise<number> =>
    Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".gateway_logs WHERE name = $1`, [name])).rows[0]!.n);

  it('14.2: an entry pending on replica B when A deletes the application is discarded at B\'s flush, not written back', async () => {
    let a: TrafficFixture | undefined;
    let b: TestGateway | undefined;
    try {
      a = await createTrafficFixture({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }), chronicles: { flushIntervalMs: 20 } });
      // B keeps its entries until it closes: the flush comes after the deletion.
      b = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }), chronicles: { flushIntervalMs: 60_000 } });
      await request(b.app).post('/v1/chat/completions').set('authorization', `Bearer ${a.developerKey}`).send(chatBody()).expect(200);
      await request(a.app).delete('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
      await b.close();
      b = undefined;
      assert.equal(await logRows('chronicles/app'), 0, 'the deleted application has no request log again');
      // Re-created under the same name, it starts empty.
      await a.create('/v1/admin/applications', { name: 'app' });
      const page = await request(a.app).get('/v1/admin/applications/app/chronicles?limit=10').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.deepEqual(page.body.data, []);
    } finally {
      await b?.close();
      await a?.close();
    }
  });

  it('14.2: guarded writes wait for a concurrent change of the guarding record and write nothing once it no longer holds', async () => {
    const storage = new Storage(postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 }));
    await storage.init();
    try {
      const key = 'applications/gone';
      await storage.set(key, { name: 'gone', created_at: '2030-01-01T00:00:00.000Z' });
      const guard = { key, equals: { created_at: '2030-01-01T00:00:00.000Z', deleting_at: null } };
      assert.equal(await storage.appendGuarded('chronicles/gone', [toolCall('e1', '2030-01-01T00:00:01.000Z')], guard), true);
      await storage.addCounts('chronicles-graph/gone', [{ item: '["tools","lookup"]', add: 1, seen: '2030-01-01T00:00:01.000Z' }], 10, guard);
      assert.equal((await storage.readCounts('chronicles-graph/gone'))[0]?.count, 1);

      // A deletion marks the record in a transaction still open while the writes arrive: they wait for it, then see the mark.
      const deleter = await pool.connect();
      try {
        await deleter.query('BEGIN');
        await deleter.query(`UPDATE "${schema}".gateway_values SET value = $2::json WHERE key = $1`, [key, JSON.stringify({ name: 'gone', created_at: '2030-01-01T00:00:00.000Z', deleting_at: '2030-01-02T00:00:00.000Z' })]);
        let settled = false;
        const append = storage.appendGuarded('chronicles/gone', [toolCall('e2', '2030-01-01T00:00:02.000Z')], guard).finally(() => (settled = true));
        const count = storage.addCounts('chronicles-graph/gone', [{ item: '["tools","lookup"]', add: 5, seen: '2030-01-01T00:00:02.000Z' }], 10, guard);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(settled, false, 'the guarded append waits for the open change of its guard');
        await deleter.query('COMMIT');
        assert.equal(await append, false);
        await count;
      } finally {
        deleter.release();
      }
      assert.equal((await storage.readLog('chronicles/gone')).length, 1, 'only the entry written before the mark');
      assert.equal((await storage.readCounts('chronicles-graph/gone'))[0]?.count, 1, 'no count added after the mark');

      // Once the log and counts are deleted, a guarded write for the gone record creates neither again.
      await storage.deleteLog('chronicles/gone');
      await storage.deleteCounts('chronicles-graph/gone');
      await storage.delete(key);
      assert.equal(await storage.appendGuarded('chronicles/gone', [toolCall('e3', '2030-01-01T00:00:03.000Z')], guard), false);
      await storage.addCounts('chronicles-graph/gone', [{ item: '["tools","lookup"]', add: 1, seen: '2030-01-01T00:00:03.000Z' }], 10, guard);
      assert.equal(await logRows('chronicles/gone'), 0);
      assert.deepEqual(await storage.readCounts('chronicles-graph/gone'), []);
    } finally {
      await storage.close();
    }
  });
});

describe('14.2 deleting an application in one process: a request that ends after the deletion does not bring its log back', function () {
  it('14.2: memory storage: the entry of a request still running during the deletion is discarded, not given to a re-created application', async () => {
    const f = await createTrafficFixture({ chronicles: { flushIntervalMs: 60_000 } });
    try {
      f.fake.script([{ delayMs: 300 }]);
      const running = request(f.app).post('/v1/chat/completions').set('authorization', `Bearer ${f.developerKey}`).send(chatBody()).then((res) => res);
      while (f.fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await request(f.app).delete('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
      assert.equal((await running).status, 200, 'answered after its application was deleted');
      await f.create('/v1/admin/applications', { name: 'app' });
      const page = await request(f.app).get('/v1/admin/applications/app/chronicles?limit=10').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.deepEqual(page.body.data, [], 'the re-created application does not inherit the old entry');
    } finally {
      await f.close();
    }
  });
});

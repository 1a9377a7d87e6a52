// A gateway on postgresStorage end to end: sealed secrets in the table, an outage (a cut TCP relay to the real server) and recovery.
import assert from 'node:assert/strict';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import pg from 'pg';

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
      storage: postgresStorage({ connectionString: target.toString(), schema, connectionTimeoutMillis: 1000 }),
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
});

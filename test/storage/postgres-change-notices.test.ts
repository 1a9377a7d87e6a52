// Two gateways on one PostgreSQL schema (issue 14, point 3): a change made through one is seen by the other's cache within a second.
import assert from 'node:assert/strict';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { tcpCut } from '../helpers/tcp-cut.js';

/** Polls `check` every 10 ms until it holds; answers the time it took, or fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    assert.ok(performance.now() - started < limitMs, `not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('replicas on one PostgreSQL schema: change notices', function () {
  this.timeout(30_000);
  requirePostgres();
  let schema: string;
  let fake: FakeProvider;
  let a: TestGateway;
  let b: TestGateway;
  let key: string;

  beforeEach(async () => {
    schema = testSchemaName();
    fake = await startFakeProvider();
    a = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }) });
    b = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }) });
    const admin = (path: string, body: object) => request(a.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    await admin('/v1/admin/providers', { name: 'fake', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key: 'sk-replica-test-0001' }] }).expect(201);
    await admin('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] }).expect(201);
    await admin('/v1/admin/applications', { name: 'app' }).expect(201);
    key = (await admin('/v1/admin/applications/app/keys', {}).expect(201)).body.key;
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await fake.close();
    await dropSchema(schema);
  });

  const chatOn = (t: TestGateway) =>
    request(t.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': 'chat' }).send({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

  it('14.3: a key revoked through replica A is refused by replica B within 1 s, though B had it cached', async () => {
    await chatOn(b).expect(200); // B now holds the key, the route and the provider in its cache
    const keys = await request(a.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.admin).expect(200);
    const id = (keys.body as Array<{ id: string }>)[0]!.id;
    await request(a.app).delete(`/v1/admin/applications/app/keys/${id}`).set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    const ms = await within(1000, async () => (await chatOn(b)).status === 401);
    console.log(`      revocation seen by replica B after ${ms.toFixed(0)} ms`);
  });

  it('14.3: a route disabled through replica A is refused by replica B within 1 s', async () => {
    await chatOn(b).expect(200);
    await request(a.app).put('/v1/admin/routes/chat').set('x-api-key', TEST_KEYS.superAdmin).send({ enabled: false }).expect(200);
    const ms = await within(1000, async () => (await chatOn(b)).status === 403);
    console.log(`      disabled route seen by replica B after ${ms.toFixed(0)} ms`);
  });

  it('14.3: after its notice connection broke and came back, a replica drops every cached copy (notices may have been missed)', async () => {
    const target = new URL(TEST_DATABASE_URL);
    const relay = await tcpCut(target.hostname, Number(target.port || 5432));
    target.port = String(relay.port);
    const c = await createTestGateway({ storage: postgresStorage({ connectionString: target.toString(), schema, connectionTimeoutMillis: 500 }) });
    try {
      await chatOn(c).expect(200);
      await relay.cut();
      const keys = await request(a.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.admin).expect(200);
      await request(a.app).delete(`/v1/admin/applications/app/keys/${(keys.body as Array<{ id: string }>)[0]!.id}`).set('x-api-key', TEST_KEYS.superAdmin).expect(200);
      await chatOn(c).expect(200); // the notice was lost: C still serves the key from its cache during the outage
      await relay.restore();
      const ms = await within(5000, async () => (await chatOn(c)).status === 401);
      console.log(`      revocation seen after the notice connection came back, ${ms.toFixed(0)} ms after the restore`);
    } finally {
      await c.close();
      await relay.close();
    }
  });

  it('a replica whose notice connection was dropped silently (no reset: a firewall, NAT or load balancer) replaces it and drops its cached copies', async () => {
    const target = new URL(TEST_DATABASE_URL);
    const relay = await tcpCut(target.hostname, Number(target.port || 5432));
    target.port = String(relay.port);
    // Short checks and query timeouts, so the test sees in a few seconds what defaults see within 15 s.
    const c = await createTestGateway({ storage: postgresStorage({ connectionString: target.toString(), schema, listenCheckMillis: 200, queryTimeoutMillis: 1000 }) });
    try {
      await chatOn(c).expect(200); // C holds the key in its cache
      relay.stall(); // C's open connections, the listening one among them, go silent; new ones work
      const keys = await request(a.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.admin).expect(200);
      await request(a.app).delete(`/v1/admin/applications/app/keys/${(keys.body as Array<{ id: string }>)[0]!.id}`).set('x-api-key', TEST_KEYS.superAdmin).expect(200);
      const ms = await within(8000, async () => (await chatOn(c)).status === 401);
      console.log(`      revocation seen through a silently dropped notice connection after ${ms.toFixed(0)} ms`);
    } finally {
      await c.close();
      await relay.close();
    }
  });
});

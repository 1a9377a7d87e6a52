// Budget spend shared through Redis survives the loss of its Redis key (a Redis restarted without persistence, an eviction): it is seeded from storage.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { periodOf } from '../../src/usage/budget-periods.js';
import { CounterStore } from '../../src/usage/counter-store.js';
import { RedisSpendCounters, StoredSpendCounters, type BudgetScope } from '../../src/usage/spend-counters.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createTestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

describe('budget spend in Redis, seeded from storage when its key is gone', function () {
  this.timeout(20_000);
  requirePostgres();
  requireRedis();
  let schema: string;
  let prefix: string;
  let redis: Redis;
  const closing: Array<() => Promise<unknown>> = [];

  beforeEach(() => {
    schema = testSchemaName();
    prefix = testKeyPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    redis.disconnect();
    await deleteKeys(prefix);
    await dropSchema(schema);
  });

  /** Deletes the spend keys under the test prefix, as a Redis restarted without persistence (or an eviction) would. */
  async function loseSpendKeys(): Promise<number> {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}spend:*`, 'COUNT', 500);
      if (keys.length) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  }

  it('15.5.4: two replicas on one schema and one Redis keep refusing an application whose spend key was lost', async () => {
    const options = () => ({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3 }), redis: { url: TEST_REDIS_URL, keyPrefix: prefix }, secret: 'spend-seeding-secret-0123456789' });
    const a = await createTrafficFixture(options());
    closing.push(() => a.close());
    await oneDollarPerAnswer(a);
    await a.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(a, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 2.5, period: 'day' } }).expect(200);
    // Replica B serves the same provider, route, application and key from the shared storage.
    const replicaB = await createTestGateway(options());
    closing.push(() => replicaB.close());
    const b = { ...a, ...replicaB } as TrafficFixture;
    await chat(a).expect(200);
    await metered(a, 1);
    await chat(b).expect(200);
    await metered(b, 1);
    await Promise.all([a.gateway.usage.flush(), b.gateway.usage.flush()]);
    assert.equal(await loseSpendKeys(), 1);

    const states = (await admin(b, 'get', '/v1/admin/budgets').expect(200)).body.data;
    assert.equal(states[0].spent_usd, 2, 'the spend persisted in storage is read back');
    await chat(a).expect(200); // 2 USD of 2.5: admitted, and brings the spend to 3
    await metered(a, 2);
    for (const f of [a, b]) assert.equal((await chat(f).expect(429)).body.error.code, 'budget_exceeded');
  });

  it('15.5.4: an addition to a lost key adds to the persisted spend, not to zero', async () => {
    const storage = new Storage(postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2 }));
    await storage.init();
    closing.push(() => storage.close());
    const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
    closing.push(async () => client.disconnect());
    await client.ping(); // connected, so the counters use Redis from the first call
    const counters = () => {
      const stored = new StoredSpendCounters(new CounterStore(storage));
      return { stored, shared: new RedisSpendCounters(client, stored, { keyPrefix: prefix }) };
    };
    const scope: BudgetScope = { owner: 'key', id: 'k1', period: 'week', ...periodOf('week', new Date()) };
    const first = counters();
    assert.deepEqual(await first.shared.add([scope], 1.25), [1.25]);
    assert.deepEqual(await first.shared.add([scope], 1), [2.25]);
    await first.shared.flush();
    assert.equal(await loseSpendKeys(), 1);
    const second = counters(); // another replica, or this one restarted
    assert.deepEqual(await second.shared.add([scope], 0.5), [2.75]);
    assert.deepEqual(await first.shared.spent([scope]), [2.75]);
    // The bound is taken before PTTL is read: the TTL only shrinks from then on, so no millisecond between fails it.
    const readAt = Date.now();
    const ttl = await client.pttl(`${prefix}spend:key:k1:week:${scope.start.toISOString().slice(0, 10)}`);
    assert.ok(ttl > 86_400_000 && ttl <= scope.end.getTime() + 86_400_000 - readAt, `PTTL ${ttl}`);
  });
});

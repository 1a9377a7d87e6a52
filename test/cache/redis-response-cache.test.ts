// The response cache in a real Redis: shared by two gateways, namespaced per application, expired by Redis, and a miss while Redis is down.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { deleteKeys, redisThroughCut, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { GatewayOptions } from '../../src/index.js';

const ask = (f: TrafficFixture, route = 'cached', key = f.developerKey) =>
  request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': route }).send(chatBody());

async function cachedFixture(options: GatewayOptions, ttlSeconds = 60): Promise<TrafficFixture> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: ttlSeconds } } });
  return f;
}

describe('response cache in Redis', function () {
  this.timeout(30_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let redis: Redis;
  let a: TrafficFixture;
  let b: TrafficFixture;
  before(async () => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
    // Each gateway creates `app` in its own memory storage: one clock gives both records one `created_at`, so they are
    // one application incarnation, as replicas sharing storage see one record (another incarnation keys other entries).
    const at = new Date();
    const now = () => at;
    a = await cachedFixture({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix }, now });
    b = await cachedFixture({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix }, now });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await deleteKeys(prefix);
    redis?.disconnect();
  });

  /** Every cache key under the test prefix (SCAN, never KEYS, on a shared server). */
  async function scanCacheKeys(): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}cache:*`, 'COUNT', 500);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  /** The cache keys under the test prefix, once at least `count` exist (polled with a deadline: stores happen after the answer). */
  async function cacheKeys(count: number): Promise<string[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const keys = await scanCacheKeys();
      if (keys.length >= count || Date.now() > deadline) return keys.sort();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('15.6: an answer stored by one gateway is a hit on another gateway on the same Redis, with the route TTL', async () => {
    a.fake.script({ text: 'Stored in Redis.' });
    assert.equal((await ask(a).expect(200)).headers['x-gateway-cache'], 'miss');
    const [key] = await cacheKeys(1);
    assert.match(key!, new RegExp(`^${prefix}cache:app:[0-9a-f]{64}$`));
    const ttl = await redis.pttl(key!);
    assert.ok(ttl > 50_000 && ttl <= 60_000, `PTTL ${ttl}`);
    const hit = await ask(b).expect(200);
    assert.equal(hit.headers['x-gateway-cache'], 'hit');
    assert.equal(hit.body.choices[0].message.content, 'Stored in Redis.');
    assert.equal(b.fake.requests.length, 0);
  });

  it('15.6: another application on the same Redis never reads that entry', async () => {
    await b.create('/v1/admin/applications', { name: 'other' });
    const key = await request(b.app).post('/v1/admin/applications/other/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201);
    const res = await ask(b, 'cached', key.body.key as string).expect(200);
    assert.equal(res.headers['x-gateway-cache'], 'miss');
    assert.equal(b.fake.requests.length, 1);
    assert.equal((await cacheKeys(2)).filter((k) => k.startsWith(`${prefix}cache:other:`)).length, 1);
  });

  it('15.6: Redis drops the entry when the route TTL passes', async () => {
    await a.create('/v1/admin/routes', { name: 'brief', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: 1 } } });
    await ask(a, 'brief').expect(200);
    const before = (await cacheKeys(3)).length;
    assert.equal((await ask(a, 'brief').expect(200)).headers['x-gateway-cache'], 'hit');
    const deadline = Date.now() + 5000;
    while ((await scanCacheKeys()).length === before) {
      assert.ok(Date.now() < deadline, 'the entry expired within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal((await ask(a, 'brief').expect(200)).headers['x-gateway-cache'], 'miss');
  });
});

describe('response cache while Redis is unreachable', () => {
  it('15.6: requests are misses answered by the provider, never errors', async () => {
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (message: string) => void warnings.push(message), error: () => undefined };
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const f = await cachedFixture({ redis: { url: 'redis://127.0.0.1:1', keyPrefix: testKeyPrefix(), connectTimeoutMs: 200 }, logger });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'miss');
      assert.equal(f.fake.requests.length, 2);
      assert.ok(warnings.some((message) => message.includes('response cache is unavailable')));
    } finally {
      await f.close();
    }
  });
});

describe('response cache when its Redis connection is dropped silently', function () {
  this.timeout(30_000);
  requireRedis();

  it('14.5: the silent connection is replaced after one command timeout: the cache hits and /readyz is 200 again, without rate-limited routes', async () => {
    const prefix = testKeyPrefix();
    const { relay, url } = await redisThroughCut();
    const f = await cachedFixture({ redis: { url, keyPrefix: prefix, maxReconnectDelayMs: 100 } });
    try {
      f.fake.script({ text: 'Kept in Redis.' });
      await ask(f).expect(200);
      await eventually(async () => assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'hit'));
      await request(f.app).get('/readyz').expect(200);
      // As a firewall or NAT that forgets the connection without a reset: nothing comes back on it, new ones work.
      relay.stall();
      assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'miss');
      // With the old connection kept, every command timed out for good and /readyz stayed 503 on every replica.
      await eventually(async () => {
        assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'hit');
        await request(f.app).get('/readyz').expect(200);
      }, 5000);
    } finally {
      await f.close();
      await relay.close();
      await deleteKeys(prefix);
    }
  });
});

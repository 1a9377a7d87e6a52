// A gateway just started, whose Redis connection is not ready yet, counts its first requests' spend and per-minute limits in the shared Redis.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { Redis } from 'ioredis';
import { deleteKeys, redisPort, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

/** A loopback relay to the real Redis that connects upstream only `delayMs` after a client connects: a slow first connection. */
async function slowRelay(delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const target = redisPort();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    const timer = setTimeout(() => {
      const upstream = net.connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    }, delayMs);
    client.on('error', () => undefined);
    client.on('close', () => clearTimeout(timer));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe('budgets and per-minute limits before the first Redis connection is ready', function () {
  this.timeout(20_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let relay: Awaited<ReturnType<typeof slowRelay>>;
  let f: TrafficFixture;
  let redis: Redis;
  before(async () => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
    relay = await slowRelay(800);
  });
  after(async () => {
    await f?.close();
    await relay?.close();
    redis?.disconnect();
    await deleteKeys(prefix);
  });

  it('15.5.4/15.5.5: the first requests of a restarted replica wait for the connection (as route rate limits do), so their spend and requests reach Redis', async () => {
    f = await createTrafficFixture({ redis: { url: `redis://127.0.0.1:${relay.port}`, keyPrefix: prefix, connectTimeoutMs: 5000 } });
    await oneDollarPerAnswer(f);
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 10, period: 'day' }, limits: { requests_per_minute: 100 } }).expect(200);
    // The relay answers only after 800 ms: the gateway's Redis connection is not ready for this request yet.
    const first = await chat(f).expect(200);
    assert.equal(first.headers['x-ratelimit-remaining-requests'], '99');
    await metered(f, 1);
    const day = new Date().toISOString().slice(0, 10);
    const createdAt = (await admin(f, 'get', '/v1/admin/applications/app').expect(200)).body.created_at as string;
    assert.equal(await redis.get(`${prefix}spend:application:app:${createdAt}:day:${day}`), '1', 'the spend was added to the shared Redis key');
    assert.equal(await redis.zcard(`${prefix}limit:application:app:${createdAt}:requests`), 1, 'the request was logged in the shared window');
  });
});

// A request refused by one per-minute limit uses no slot of another: the developer key's window holds only admitted requests.
import assert from 'node:assert/strict';
import type { GatewayOptions } from '../../src/index.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered } from './usage-helpers.js';

async function fixture(options: GatewayOptions): Promise<TrafficFixture & { keyId: string }> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  const keyId = (await admin(f, 'get', '/v1/admin/applications/app/keys').expect(200)).body[0].id as string;
  return { ...f, keyId };
}

/** The two cases, on a gateway built with `options`. */
function refusalsUseNoKeySlot(options: () => GatewayOptions): void {
  it('15.5.5: requests the application\'s requests per minute refuse leave the key\'s window as it was', async () => {
    const f = await fixture(options());
    try {
      await admin(f, 'put', `/v1/admin/applications/app/keys/${f.keyId}`).send({ limits: { requests_per_minute: 3 } }).expect(200);
      await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 1 } }).expect(200);
      await chat(f).expect(200);
      for (let i = 0; i < 3; i++) assert.match((await chat(f).expect(429)).body.error.message, /application app allows 1 requests per minute/);
      await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 100 } }).expect(200);
      const admitted = await chat(f).expect(200);
      assert.equal(admitted.headers['x-ratelimit-remaining-requests'], '1', 'the key used 2 of its 3 requests: the refused ones are not counted');
      await chat(f).expect(200);
      assert.match((await chat(f).expect(429)).body.error.message, /developer key .* allows 3 requests per minute/);
    } finally {
      await f.close();
    }
  });

  it('15.5.5: a request the application\'s tokens per minute refuse uses no request of the key', async () => {
    const f = await fixture(options());
    try {
      await admin(f, 'put', `/v1/admin/applications/app/keys/${f.keyId}`).send({ limits: { requests_per_minute: 2 } }).expect(200);
      await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { tokens_per_minute: 10 } }).expect(200);
      await chat(f).expect(200); // 15 tokens
      await metered(f, 1);
      assert.match((await chat(f).expect(429)).body.error.message, /application app allows 10 tokens per minute/);
      await admin(f, 'put', '/v1/admin/applications/app').send({ limits: null }).expect(200);
      const admitted = await chat(f).expect(200);
      assert.equal(admitted.headers['x-ratelimit-remaining-requests'], '0');
    } finally {
      await f.close();
    }
  });
}

describe('per-minute limits: a refused request uses no quota', function () {
  this.timeout(20_000);
  describe('in process', () => refusalsUseNoKeySlot(() => ({})));
  describe('in Redis', function () {
    requireRedis();
    const prefix = testKeyPrefix();
    after(() => deleteKeys(prefix));
    refusalsUseNoKeySlot(() => ({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix } }));
  });
});

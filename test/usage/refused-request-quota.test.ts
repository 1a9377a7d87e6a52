// A request refused by one limit uses no slot of another: the developer key's window and the route's rate_limit hold only admitted requests.
import assert from 'node:assert/strict';
import type { GatewayOptions } from '../../src/index.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import request from 'supertest';
import { chatBody } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

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

/** A route with `rate_limit: 2` (2 requests in any second, its name new in each test), whose requests the key's or application's limits refuse. */
function refusalsUseNoRouteSlot(options: () => GatewayOptions): void {
  let route = '';
  beforeEach(() => (route = `limited-${Math.random().toString(36).slice(2, 10)}`));
  const createRoute = (f: TrafficFixture) => f.create('/v1/admin/routes', { name: route, type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { settings: { rate_limit: 2 } } });
  const onLimited = (f: TrafficFixture, key = f.developerKey) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': route }).send(chatBody());
  const refusedAll = async (f: TrafficFixture, message: RegExp): Promise<void> => {
    // The route allows 2 in any second: a third counted request would be refused by the route, with its own message.
    for (let i = 0; i < 4; i++) assert.match((await onLimited(f).expect(429)).body.error.message, message);
    const remaining = await f.gateway.rateLimits.remaining(route);
    assert.equal(remaining, 2, `the refused requests left the route its whole rate (${remaining} left)`);
  };

  it("a route's rate_limit slot is given back when the key's requests per minute refuse the request", async () => {
    const f = await fixture(options());
    try {
      await createRoute(f);
      await admin(f, 'put', `/v1/admin/applications/app/keys/${f.keyId}`).send({ limits: { requests_per_minute: 1 } }).expect(200);
      await chat(f).expect(200); // on route chat (no rate): the key's minute is used
      await refusedAll(f, /developer key .* allows 1 requests per minute/);
      const other = (await admin(f, 'post', '/v1/admin/applications/app/keys').send({}).expect(201)).body.key as string;
      for (let i = 0; i < 2; i++) await onLimited(f, other).expect(200);
    } finally {
      await f.close();
    }
  });

  it("a route's rate_limit slot is given back when the application's budget refuses the request", async () => {
    const f = await fixture(options());
    try {
      await createRoute(f);
      await oneDollarPerAnswer(f);
      await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 0.5, period: 'day' } }).expect(200);
      await chat(f).expect(200);
      await metered(f, 1);
      await refusedAll(f, /budget of application app/);
      await admin(f, 'put', '/v1/admin/applications/app').send({ budget: null }).expect(200);
      for (let i = 0; i < 2; i++) await onLimited(f).expect(200);
    } finally {
      await f.close();
    }
  });
}

describe('per-minute limits: a refused request uses no quota', function () {
  this.timeout(20_000);
  describe('in process', () => {
    refusalsUseNoKeySlot(() => ({}));
    refusalsUseNoRouteSlot(() => ({}));
  });
  describe('in Redis', function () {
    requireRedis();
    const prefix = testKeyPrefix();
    after(() => deleteKeys(prefix));
    refusalsUseNoKeySlot(() => ({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix } }));
    refusalsUseNoRouteSlot(() => ({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix } }));
  });
});

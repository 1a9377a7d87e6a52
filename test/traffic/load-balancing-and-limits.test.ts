// Weighted choice across a custom route's models, and per-route rate limits with 429 and recovery.
import assert from 'node:assert/strict';
import request from 'supertest';
import { reservoirFor } from '../../src/traffic/route-rate-limits.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('weighted load balancing', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', {
      name: 'split',
      type: 'chat',
      models: [
        { name: 'heavy', provider: 'fake', weight: 3 },
        { name: 'light', provider: 'fake', weight: 1 },
        { name: 'never-first', provider: 'fake', weight: 0 },
      ],
    });
  });
  after(() => f.close());

  it('sends traffic in proportion to the weights (400 requests, 3:1)', async () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 400; i++) {
      const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'split' }).send(chatBody()).expect(200);
      const model = res.headers['x-gateway-model'] as string;
      counts[model] = (counts[model] ?? 0) + 1;
    }
    // Expected 300/100; a binomial standard deviation is about 8.7, so ±45 is over 5 sigma.
    assert.ok(Math.abs((counts.heavy ?? 0) - 300) < 45, JSON.stringify(counts));
    assert.ok(Math.abs((counts.light ?? 0) - 100) < 45, JSON.stringify(counts));
    assert.equal(counts['never-first'], undefined);
  });
});

describe('route rate limit', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'limited', type: 'chat', config: { settings: { rate_limit: 5 } }, models: [{ name: 'm', provider: 'fake' }] });
    await f.create('/v1/admin/routes', { name: 'open', type: 'chat', models: [{ name: 'm', provider: 'fake' }] });
  });
  after(() => f.close());

  const burst = (route: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody()),
      ),
    );

  it('answers 429 with Retry-After past the rate at once, and recovers once the budget is refilled (11.3: no fixed sleep)', async () => {
    const first = await burst('limited', 8);
    const statuses = first.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = first.find((r) => r.status === 429)!;
    assert.equal(limited.headers['retry-after'], '1');
    assert.equal(limited.body.error.code, 'rate_limit_exceeded');
    assert.equal(limited.body.error.type, 'rate_limit_error');
    assert.equal(f.fake.requests.length, 5, 'refused requests never reach the provider');
    await budgetRefilled('limited', 5);
    const second = await burst('limited', 6);
    assert.deepEqual(second.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 429]);
  });

  /**
   * Waits for the limiter's own window instead of sleeping a guessed time (a fixed 1.1 s sleep raced the
   * old limiter's refill: the flaky recovery test). The budget only grows as time passes, so once it reads
   * `amount` a burst of `amount` passes whatever the CPU load.
   */
  async function budgetRefilled(route: string, amount: number): Promise<void> {
    const started = Date.now();
    while ((await f.gateway.rateLimits.remaining(route)) !== amount) {
      assert.ok(Date.now() - started < 10_000, 'the budget was refilled within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('a rate of 0 means unlimited', async () => {
    const res = await burst('open', 20);
    assert.ok(res.every((r) => r.status === 200));
  });
});

describe('route rate limiters are released', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
  });
  after(() => f.close());

  it('11.3: creating, using and deleting many rate-limited routes leaves no live limiter', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `limited-${i}`);
    for (const name of names) {
      await f.create('/v1/admin/routes', { name, type: 'chat', config: { settings: { rate_limit: 3 } }, models: [{ name: 'm', provider: 'fake' }] });
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': name }).send(chatBody()).expect(200);
    }
    assert.equal(f.gateway.rateLimits.size, names.length);
    for (const name of names) await request(f.app).delete(`/v1/admin/routes/${name}`).set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.equal(f.gateway.rateLimits.size, 0);
  });

  it('11.3: changing a route releases its limiter; the next request uses the new rate', async () => {
    await f.create('/v1/admin/routes', { name: 'changing', type: 'chat', config: { settings: { rate_limit: 1 } }, models: [{ name: 'm', provider: 'fake' }] });
    const send = () => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'changing' }).send(chatBody());
    await send().expect(200);
    await send().expect(429);
    assert.equal(f.gateway.rateLimits.size, 1);
    await request(f.app).put('/v1/admin/routes/changing').set('x-api-key', TEST_KEYS.admin).send({ config: { settings: { rate_limit: 4 } } }).expect(200);
    assert.equal(f.gateway.rateLimits.size, 0);
    const statuses = (await Promise.all([send(), send(), send(), send(), send()])).map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  });

  it('11.3: fractional rates are kept, not floored (1.9 per second is 1 per 526 ms)', () => {
    for (const rate of [1.9, 2.5, 0.5, 0.3, 5, 10.5, 100]) {
      const { amount, intervalMs } = reservoirFor(rate);
      const effective = (amount * 1000) / intervalMs;
      assert.ok(Math.abs(effective - rate) / rate < 0.01, `rate ${rate}: ${amount} per ${intervalMs} ms is ${effective}/s`);
      assert.ok(amount <= Math.max(1, rate), 'a burst never exceeds the rate');
    }
    assert.deepEqual(reservoirFor(1.9), { amount: 1, intervalMs: 526 });
  });
});

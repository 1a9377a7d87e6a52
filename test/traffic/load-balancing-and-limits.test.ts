// Weighted choice across a custom route's models, and per-route rate limits with 429 and recovery.
import assert from 'node:assert/strict';
import request from 'supertest';
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

  it('answers 429 with Retry-After past the rate at once, and recovers after a second', async () => {
    const first = await burst('limited', 8);
    const statuses = first.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = first.find((r) => r.status === 429)!;
    assert.equal(limited.headers['retry-after'], '1');
    assert.equal(limited.body.error.code, 'rate_limit_exceeded');
    assert.equal(limited.body.error.type, 'rate_limit_error');
    assert.equal(f.fake.requests.length, 5, 'refused requests never reach the provider');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await burst('limited', 5);
    assert.deepEqual(second.map((r) => r.status), [200, 200, 200, 200, 200]);
  });

  it('a rate of 0 means unlimited', async () => {
    const res = await burst('open', 20);
    assert.ok(res.every((r) => r.status === 200));
  });
});

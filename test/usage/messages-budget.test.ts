// POST /v1/messages is metered and held to budgets and per-minute limits, as the OpenAI-shaped model endpoints are.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered, oneDollarPerAnswer } from './usage-helpers.js';

const message = (f: TrafficFixture) =>
  request(f.app)
    .post('/v1/messages')
    .set({ 'x-api-key': f.developerKey, 'x-gateway-route': 'chat' })
    .send({ model: 'any', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });

describe('usage of POST /v1/messages', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  afterEach(async () => {
    await f?.close();
    f = undefined as unknown as TrafficFixture;
  });

  it('counts its usage and cost, and refuses it with 429 budget_exceeded (in Anthropic\'s shape) once the budget is spent', async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await oneDollarPerAnswer(f);
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 1.5, period: 'day' } }).expect(200);

    await message(f).expect(200);
    await metered(f, 1);
    await message(f).expect(200); // 1 USD spent: under 1.5, so admitted
    await metered(f, 2);
    const refused = await message(f).expect(429);
    assert.equal(refused.body.type, 'error');
    assert.equal(refused.body.error.type, 'rate_limit_error');
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.ok(refused.headers['x-gateway-budget-reset']);
    assert.equal(f.fake.requests.length, 2, 'the refused request never reached the provider');

    const totals = (await admin(f, 'get', '/v1/admin/usage?group_by=route').expect(200)).body.data;
    assert.deepEqual(totals.map((row: Record<string, unknown>) => [row.route, row.requests, row.cost_usd]), [['chat', 3, 2]]);
    const entry = (await admin(f, 'get', '/v1/admin/applications/app/chronicles?limit=3').expect(200)).body.data[1];
    assert.equal(entry.endpoint, '/v1/messages');
    assert.equal(entry.cost.usd, 1);
  });

  it('applies the application\'s requests_per_minute limit', async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 1 } }).expect(200);
    const first = await message(f).expect(200);
    assert.equal(first.headers['x-ratelimit-limit-requests'], '1');
    const refused = await message(f).expect(429);
    assert.equal(refused.body.error.code, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
  });
});

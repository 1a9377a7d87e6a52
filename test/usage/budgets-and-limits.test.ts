// Issue 15 point 5: budgets (429 budget_exceeded with the reset time, alert threshold, persisted, shared through Redis) and per-minute limits.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { fileStorage, type GatewayOptions } from '../../src/index.js';
import { periodOf } from '../../src/usage/budget-periods.js';
import { formatReset } from '../../src/usage/rate-limit-headers.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createTestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';

async function fixture(options: GatewayOptions = {}): Promise<TrafficFixture> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  await oneDollarPerAnswer(f);
  return f;
}

const keyIdOf = async (f: TrafficFixture): Promise<string> => (await admin(f, 'get', '/v1/admin/applications/app/keys').expect(200)).body[0].id;

describe('15.5.4 budgets', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  afterEach(async () => {
    await f?.close();
    f = undefined as unknown as TrafficFixture;
  });

  it('15.5.4: set through the application admin API, validated; over budget is 429 budget_exceeded with the reset time', async () => {
    const logs: LoggedLine[] = [];
    f = await fixture({ logger: capturingLogger(logs) });
    for (const budget of [{ amount_usd: 0, period: 'day' }, { amount_usd: 5, period: 'year' }, { amount_usd: 5 }, { amount_usd: 5, period: 'day', alert_threshold: 2 }, { amount_usd: 5, period: 'day', x: 1 }]) {
      const res = await admin(f, 'put', '/v1/admin/applications/app').send({ budget }).expect(400);
      assert.equal(res.body.error.type, 'invalid_request_error');
    }
    await admin(f, 'put', '/v1/admin/applications/app', 'viewer').send({ budget: { amount_usd: 2.5, period: 'day' } }).expect(403);
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 2.5, period: 'day', alert_threshold: 0.5 } }).expect(200);
    const shown = (await admin(f, 'get', '/v1/admin/applications/app').expect(200)).body;
    assert.deepEqual(shown.budget, { amount_usd: 2.5, period: 'day', alert_threshold: 0.5 });

    await chat(f).expect(200);
    await metered(f, 1);
    assert.equal(logs.filter((line) => /alert threshold/.test(line.message)).length, 0, '1 USD is under 50% of 2.5 USD');
    await chat(f).expect(200);
    await metered(f, 2);
    const alerts = logs.filter((line) => line.level === 'warn' && /alert threshold/.test(line.message));
    assert.equal(alerts.length, 1, 'crossing 50% of the budget logged one warning');
    assert.equal(alerts[0]!.fields?.application, 'app');
    assert.equal(alerts[0]!.fields?.spent_usd, 2);
    await chat(f).expect(200); // 2 USD spent: still under 2.5, so admitted; it brings the spend to 3
    await metered(f, 3);
    assert.equal(logs.filter((line) => /alert threshold/.test(line.message)).length, 1, 'the alert is logged once per crossing');

    const refused = await chat(f).expect(429);
    const resets = periodOf('day', new Date()).end.toISOString();
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.equal(refused.body.error.type, 'rate_limit_error');
    assert.equal(refused.body.error.resets_at, resets);
    assert.ok(refused.body.error.message.includes(resets), refused.body.error.message);
    assert.equal(refused.headers['x-gateway-budget-reset'], resets);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
    assert.equal(f.fake.requests.length, 3, 'the refused request never reached the provider');
    const responses = await request(f.app).post('/v1/responses').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send({ model: 'gpt-4o-mini', input: 'Hi' }).expect(429);
    assert.equal(responses.body.error.code, 'budget_exceeded', '/v1/responses is held to the same budget');
    assert.equal(f.fake.requests.length, 3);

    const states = (await admin(f, 'get', '/v1/admin/budgets', 'viewer').expect(200)).body.data;
    assert.deepEqual(states, [{ owner: 'application', id: 'app', application: 'app', amount_usd: 2.5, period: 'day', alert_threshold: 0.5, spent_usd: 3, alert: true, exceeded: true, resets_at: resets }]);

    // Raising the budget admits requests again; clearing it (null) removes it.
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 10, period: 'month' } }).expect(200);
    await chat(f).expect(200);
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: null }).expect(200);
    assert.equal((await admin(f, 'get', '/v1/admin/applications/app').expect(200)).body.budget, null);
  });

  it('15.5.4: a developer key budget, set on creation or with PUT, refuses that key only', async () => {
    f = await fixture();
    const created = await admin(f, 'post', '/v1/admin/applications/app/keys').send({ name: 'capped', budget: { amount_usd: 1, period: 'week' } }).expect(201);
    assert.deepEqual(created.body.budget, { amount_usd: 1, period: 'week', alert_threshold: 0.8 });
    await admin(f, 'post', '/v1/admin/applications/app/keys').send({ budget: { amount_usd: -1, period: 'week' } }).expect(400);
    await admin(f, 'post', '/v1/admin/applications/app/keys').send({ name: 7 }).expect(400);
    const capped = created.body.key as string;
    await chat(f, {}, capped).expect(200);
    await metered(f, 1);
    const refused = await chat(f, {}, capped).expect(429);
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.match(refused.body.error.message, new RegExp(`developer key ${created.body.id}`));
    assert.equal(refused.headers['x-gateway-budget-reset'], periodOf('week', new Date()).end.toISOString());
    await chat(f).expect(200); // the application's other key has no budget

    const updated = await admin(f, 'put', `/v1/admin/applications/app/keys/${created.body.id}`).send({ budget: { amount_usd: 5, period: 'week' }, limits: { requests_per_minute: 100 } }).expect(200);
    assert.equal(updated.body.budget.amount_usd, 5);
    assert.equal(updated.body.hash, undefined, 'the key hash is never shown');
    await chat(f, {}, capped).expect(200);
    await admin(f, 'put', `/v1/admin/applications/app/keys/${created.body.id}`).send({ budget: { amount_usd: 'x' } }).expect(400);
    await admin(f, 'put', '/v1/admin/applications/app/keys/no-such-key').send({ name: 'n' }).expect(404);
    await admin(f, 'put', `/v1/admin/applications/app/keys/${created.body.id}`, 'viewer').send({ name: 'n' }).expect(403);
  });

  it('15.5.4: a response-cache hit costs nothing and spends no budget', async () => {
    f = await fixture();
    await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: 60 } } });
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 1.5, period: 'day' } }).expect(200);
    const send = () => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached' }).send({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal((await send().expect(200)).headers['x-gateway-cache'], 'miss');
    await metered(f, 1);
    for (let i = 0; i < 3; i++) assert.equal((await send().expect(200)).headers['x-gateway-cache'], 'hit');
    await metered(f, 4);
    const states = (await admin(f, 'get', '/v1/admin/budgets').expect(200)).body.data;
    assert.equal(states[0].spent_usd, 1, 'only the answer from the provider was charged');
    const costs = (await admin(f, 'get', '/v1/admin/applications/app/chronicles').expect(200)).body.data.map((entry: { cost: { usd: number } }) => entry.cost.usd);
    assert.deepEqual(costs.sort(), [0, 0, 0, 1]);
  });

  it('15.5.4: spend is persisted: a restarted gateway on the same files still refuses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'usage-budget-'));
    try {
      const first = await fixture({ storage: fileStorage({ dir }) });
      const key = first.developerKey;
      try {
        await admin(first, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 1, period: 'month' } }).expect(200);
        await chat(first).expect(200);
        await metered(first, 1);
      } finally {
        await first.close();
      }
      const again = await createTestGateway({ storage: fileStorage({ dir }) });
      try {
        const refused = await request(again.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': 'chat' }).send({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.error.code, 'budget_exceeded');
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('15.5.4/15.5.5 budgets and limits shared through Redis', function () {
  this.timeout(60_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let a: TrafficFixture;
  let b: TrafficFixture;
  before(async () => {
    const redis = { url: TEST_REDIS_URL, keyPrefix: prefix };
    // Each gateway creates its applications in its own memory storage: one clock gives both copies of a record one
    // `created_at`, so they are one application incarnation, as replicas sharing storage see one record.
    const at = new Date();
    a = await fixture({ redis, now: () => at });
    b = await fixture({ redis, now: () => at });
    for (const f of [a, b]) {
      await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 1.5, period: 'day' } }).expect(200);
      await f.create('/v1/admin/applications', { name: 'limited', limits: { requests_per_minute: 3 } });
      await f.create('/v1/admin/applications', { name: 'tokened', limits: { tokens_per_minute: 20 } });
    }
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await deleteKeys(prefix);
  });

  it('15.5.4: two gateways on one Redis see one budget: 1 USD spent on each crosses 1.5 USD for both', async () => {
    await chat(a).expect(200);
    await metered(a, 1);
    await chat(b).expect(200); // 1 USD spent (on a) is under 1.5
    await metered(b, 1);
    for (const f of [a, b]) {
      const refused = await chat(f).expect(429);
      assert.equal(refused.body.error.code, 'budget_exceeded');
    }
    const states = (await admin(a, 'get', '/v1/admin/budgets').expect(200)).body.data;
    assert.equal(states[0].spent_usd, 2);
  });

  it('15.5.5: two gateways count one application limit: 3 requests per minute across both, concurrent', async () => {
    const keyOf = async (f: TrafficFixture) => (await admin(f, 'post', '/v1/admin/applications/limited/keys').send({}).expect(201)).body.key as string;
    const [ka, kb] = [await keyOf(a), await keyOf(b)];
    const results = await Promise.all([chat(a, {}, ka), chat(b, {}, kb), chat(a, {}, ka), chat(b, {}, kb), chat(a, {}, ka)]);
    assert.deepEqual(results.map((res) => res.status).sort(), [200, 200, 200, 429, 429]);
    const refused = results.find((res) => res.status === 429)!;
    assert.equal(refused.body.error.code, 'rate_limit_exceeded');
    assert.equal(refused.headers['x-ratelimit-limit-requests'], '3');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
  });

  it('15.5.5: two gateways count one application\'s tokens per minute (the Lua window sums token weights)', async () => {
    const keyOf = async (f: TrafficFixture) => (await admin(f, 'post', '/v1/admin/applications/tokened/keys').send({}).expect(201)).body.key as string;
    const [ka, kb] = [await keyOf(a), await keyOf(b)];
    const before = [a.gateway.usage.metered, b.gateway.usage.metered];
    const first = await chat(a, {}, ka).expect(200);
    assert.equal(first.headers['x-ratelimit-reset-tokens'], '0ms', 'an empty window is whole already, as in process');
    await metered(a, before[0]! + 1);
    const countedAt = Date.now();
    // At least 50 ms after the answer's tokens were logged, so the window is whole again in less than a minute.
    while (Date.now() - countedAt < 50) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await chat(b, {}, kb).expect(200);
    assert.equal(second.headers['x-ratelimit-remaining-tokens'], '5', '15 tokens of the answer on the other gateway count');
    const reset = second.headers['x-ratelimit-reset-tokens'] as string;
    assert.match(reset, /^\d+(\.\d+)?s$/, `the tokens of the answer leave the window in less than a minute: ${reset}`);
    assert.ok(Number(reset.slice(0, -1)) <= 59.95, reset);
    await metered(b, before[1]! + 1);
    const refused = await chat(a, {}, ka).expect(429);
    assert.equal(refused.headers['x-ratelimit-remaining-tokens'], '0');
    assert.equal(refused.headers['x-ratelimit-limit-tokens'], '20');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });
});

describe('15.5.5 requests and tokens per minute of keys and applications', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  afterEach(() => f.close());

  it('15.5.5: requests per minute of an application: 429 with Retry-After and OpenAI x-ratelimit headers', async () => {
    f = await fixture();
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 0 } }).expect(400);
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: {} }).expect(400);
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 2 } }).expect(200);
    const first = await chat(f).expect(200);
    assert.equal(first.headers['x-ratelimit-limit-requests'], '2');
    assert.equal(first.headers['x-ratelimit-remaining-requests'], '1');
    assert.match(first.headers['x-ratelimit-reset-requests'], /^(\d+m)?\d+(\.\d+)?s$|^\d+ms$/);
    const second = await chat(f).expect(200);
    assert.equal(second.headers['x-ratelimit-remaining-requests'], '0');
    const refused = await chat(f).expect(429);
    assert.equal(refused.body.error.code, 'rate_limit_exceeded');
    assert.equal(refused.body.error.type, 'rate_limit_error');
    assert.match(refused.body.error.message, /application app allows 2 requests per minute/);
    assert.equal(refused.headers['x-ratelimit-limit-requests'], '2');
    assert.equal(refused.headers['x-ratelimit-remaining-requests'], '0');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(f.fake.requests.length, 2);
  });

  it('15.5.5: tokens per minute of a developer key count the tokens of answers', async () => {
    f = await fixture();
    const id = await keyIdOf(f);
    await admin(f, 'put', `/v1/admin/applications/app/keys/${id}`).send({ limits: { tokens_per_minute: 20 } }).expect(200);
    const first = await chat(f).expect(200);
    assert.equal(first.headers['x-ratelimit-limit-tokens'], '20');
    assert.equal(first.headers['x-ratelimit-remaining-tokens'], '20');
    await metered(f, 1);
    const second = await chat(f).expect(200); // 15 tokens used: under 20
    assert.equal(second.headers['x-ratelimit-remaining-tokens'], '5');
    await metered(f, 2);
    const refused = await chat(f).expect(429);
    assert.match(refused.body.error.message, /developer key .* allows 20 tokens per minute/);
    assert.equal(refused.headers['x-ratelimit-remaining-tokens'], '0');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // Another application's key is not limited.
    await f.create('/v1/admin/applications', { name: 'other' });
    const other = (await admin(f, 'post', '/v1/admin/applications/other/keys').send({}).expect(201)).body.key as string;
    await chat(f, {}, other).expect(200);
  });

  it('15.5.5: reset durations are written as OpenAI writes them', () => {
    assert.equal(formatReset(20), '20ms');
    assert.equal(formatReset(1500), '1.5s');
    assert.equal(formatReset(360_000), '6m0s');
    assert.equal(formatReset(61_250), '1m1.25s');
  });
});

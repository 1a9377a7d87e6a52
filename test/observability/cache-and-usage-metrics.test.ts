// Token metrics follow what the provider billed: none for cache hits and unanswered /v1/responses requests, and the tokens of answers an output check withheld.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import request from 'supertest';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('observability: cache and usage metrics', () => {
  let f: TrafficFixture;
  let metrics: Express;
  beforeEach(async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: false }, plugins: TEST_GUARDRAILS });
    metrics = express().use(f.gateway.metrics);
    await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', config: { settings: { retries: 0 }, cache: { ttl_seconds: 60 } }, models: [{ name: 'primary-model', provider: 'fake', weight: 1 }] });
  });
  afterEach(() => f.close());

  const post = (path: string, body: Record<string, unknown>) => request(f.app).post(path).set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached' }).send(body);

  it('response cache hits and misses are counted by route', async () => {
    assert.equal((await post('/v1/chat/completions', chatBody()).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal((await post('/v1/chat/completions', chatBody()).expect(200)).headers['x-gateway-cache'], 'hit');
    assert.equal((await post('/v1/chat/completions', chatBody()).expect(200)).headers['x-gateway-cache'], 'hit');
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 3));
    assert.equal(m.value('gateway_cache_lookups_total', { route: 'cached', result: 'miss' }), 1);
    assert.equal(m.value('gateway_cache_lookups_total', { route: 'cached', result: 'hit' }), 2);
    assert.equal(m.value('gateway_upstream_attempts_total'), 1, 'hits call no provider');
  });

  it('a /v1/responses request whose every attempt failed records no token usage (no zero observations)', async () => {
    await post('/v1/responses', { model: 'x', input: 'hello' }).expect(200);
    f.fake.script({ fail: { status: 500 } });
    await post('/v1/responses', { model: 'x', input: 'hello again' }).expect(500);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total', { endpoint: 'responses' }), 2));
    assert.equal(m.count('gen_ai_client_token_usage', { gen_ai_request_model: 'primary-model', gen_ai_token_type: 'input' }), 1, 'only the answered request');
  });

  it('a request that failed upstream leaves no empty token usage series behind', async () => {
    await f.create('/v1/admin/routes', { name: 'broken', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'broken-model', provider: 'fake', weight: 1 }] });
    f.fake.script({ fail: { status: 500 } });
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'broken' }).send(chatBody()).expect(500);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total', { route: 'broken' }), 1));
    assert.equal(m.samples('gen_ai_client_token_usage_count', { gen_ai_request_model: 'broken-model' }).length, 0);
  });

  it('an answer an output check withheld counts its billed tokens, as Chronicles and budgets do', async () => {
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } }).expect(200);
    f.fake.script({ text: 'Here is the forbidden answer.' });
    assert.equal((await post('/v1/chat/completions', chatBody()).expect(400)).body.error.code, 'guardrail_rejected');
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total', { route: 'cached' }), 1));
    assert.equal(m.count('gen_ai_client_token_usage', { gen_ai_request_model: 'primary-model', gen_ai_token_type: 'input' }), 1);
    assert.equal(m.sum('gen_ai_client_token_usage', { gen_ai_request_model: 'primary-model', gen_ai_token_type: 'output' }), 5);
  });
});

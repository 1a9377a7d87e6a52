// Prometheus metrics: GET /metrics read by a text-format parser after real traffic through the gateway.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import request from 'supertest';
import { startFakeProvider, FAKE_USAGE, type FakeProvider } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { scrape, scrapeUntil } from '../helpers/prometheus-scrape.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { bannedWords, brokenGuardrail } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

/** An app serving only the gateway's metrics router. */
const metricsApp = (f: { gateway: { metrics: express.Router } }): Express => express().use(f.gateway.metrics);

describe('observability: Prometheus metrics', () => {
  let f: TrafficFixture;
  let backup: FakeProvider;
  beforeEach(async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: true }, upstreamTimeoutMs: 2000, plugins: [bannedWords, brokenGuardrail] });
    backup = await startFakeProvider();
    await f.create('/v1/admin/providers', { name: 'backup', type: 'openai', config: { api_base: `${backup.url}/v1` }, api_keys: [{ api_key: 'sk-backup-key-00001' }] });
    await f.create('/v1/admin/routes', {
      name: 'support',
      type: 'chat',
      config: { settings: { retries: 1 } },
      models: [
        { name: 'primary-model', provider: 'fake', weight: 1, fallback_enabled: true, fallback_codes: [503] },
        { name: 'backup-model', provider: 'backup', weight: 0 },
      ],
    });
  });
  afterEach(async () => {
    await f.close();
    await backup.close();
  });

  const chat = (body = chatBody(), route?: string) =>
    request(f.app)
      .post('/v1/chat/completions')
      .set({ 'x-gateway-apikey': f.developerKey, ...(route ? { 'x-gateway-route': route } : {}) })
      .send(body);

  it('15.2: a Prometheus parser reads request counts and durations by route, provider, model and status, tokens by model and time to first token', async () => {
    await chat(chatBody(), 'support').expect(200);
    await chat(chatBody()).expect(200); // unified route, a model listed in the provider's config
    await chat(chatBody({ stream: true, stream_options: { include_usage: true } }), 'support').expect(200);
    await chat(chatBody({ model: 'no-such-provider/x' })).expect(400);
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 4));
    assert.equal(m.value('gateway_requests_total', { endpoint: 'chat', route: 'support', provider: 'fake', model: 'primary-model', status: '200' }), 2);
    assert.equal(m.value('gateway_requests_total', { endpoint: 'chat', route: '(unified)', provider: 'fake', model: 'gpt-4o-mini', status: '200' }), 1);
    assert.equal(m.value('gateway_requests_total', { route: '(unified)', provider: 'none', model: 'none', status: '400' }), 0, 'an unknown model fails before resolution');
    assert.equal(m.value('gateway_requests_total', { route: 'none', provider: 'none', model: 'none', status: '400' }), 1);
    assert.equal(m.count('gateway_request_duration_seconds', { route: 'support', status: '200' }), 2);
    assert.ok(m.sum('gateway_request_duration_seconds', { route: 'support' }) > 0);
    // gen_ai.client.token.usage, by token type; the stream's final usage chunk counts too.
    const tokens = { gen_ai_operation_name: 'chat', gen_ai_provider_name: 'openai', gen_ai_request_model: 'primary-model' };
    assert.equal(m.sum('gen_ai_client_token_usage', { ...tokens, gen_ai_token_type: 'input' }), 2 * FAKE_USAGE.prompt);
    assert.equal(m.sum('gen_ai_client_token_usage', { ...tokens, gen_ai_token_type: 'output' }), 2 * FAKE_USAGE.completion);
    assert.equal(m.count('gen_ai_client_operation_duration_seconds', { ...tokens, provider: 'fake' }), 2);
    assert.equal(m.count('gen_ai_server_time_to_first_token_seconds', tokens), 1, 'only the streamed request');
    assert.equal(m.families.find((family) => family.name === 'gen_ai_client_token_usage')?.type, 'HISTOGRAM');
    // Node's default metrics and the Chronicles gauges are there.
    assert.ok(m.samples('process_cpu_user_seconds_total').length === 1);
    assert.ok(m.samples('nodejs_eventloop_lag_seconds').length === 1);
    assert.equal(m.samples('gateway_chronicles_queue_depth').length, 1);
    assert.equal(m.value('gateway_chronicles_dropped_total'), 0);
  });

  it('15.2: a model path in another letter case or with a trailing slash is served and counted as the endpoint it is', async () => {
    await request(f.app).post('/V1/Chat/Completions/').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'support' }).send(chatBody()).expect(200);
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_requests_total', { endpoint: 'chat', route: 'support', provider: 'fake', status: '200' }), 1);
  });

  it('15.2: upstream attempts, retries and fallbacks are counted by cause', async () => {
    f.fake.script({ fail: { status: 503 } });
    const res = await chat(chatBody(), 'support').expect(200);
    assert.equal(res.headers['x-gateway-provider'], 'backup');
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', model: 'primary-model', cause: 'http_5xx' }), 2);
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'backup', model: 'backup-model', cause: 'ok' }), 1);
    assert.equal(m.value('gateway_upstream_retries_total', { provider: 'fake', cause: 'http_5xx' }), 1);
    assert.equal(m.value('gateway_upstream_fallbacks_total', { route: 'support', provider: 'fake', cause: 'http_5xx' }), 1);
    assert.equal(m.count('gen_ai_client_operation_duration_seconds', { provider: 'fake', error_type: 'http_5xx' }), 2);
    assert.equal(m.value('gateway_requests_total', { route: 'support', provider: 'backup', model: 'backup-model', status: '200' }), 1);
  });

  it('15.2: after registry.resetMetrics() the next requests are counted afresh, and a provider changed through the admin API gets its new labels', async () => {
    await chat(chatBody(), 'support').expect(200);
    await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 1));
    f.gateway.metricsRegistry!.resetMetrics();
    await chat(chatBody(), 'support').expect(200);
    let m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_requests_total', { route: 'support', provider: 'fake', model: 'primary-model', status: '200' }), 1);
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', model: 'primary-model', cause: 'ok' }), 1);
    assert.equal(m.sum('gen_ai_client_token_usage', { gen_ai_request_model: 'primary-model', gen_ai_token_type: 'input' }), FAKE_USAGE.prompt);
    // A model the provider lists reads by name; once an admin takes it off the list, it reads "other".
    const listModels = (models: string[]) =>
      request(f.app)
        .put('/v1/admin/providers/fake')
        .set('x-api-key', TEST_KEYS.superAdmin)
        .send({ config: { api_base: `${f.fake.url}/v1`, models } })
        .expect(200);
    await listModels(['gpt-4o-mini', 'listed-then-dropped']);
    await chat(chatBody({ model: 'fake/listed-then-dropped' })).expect(200);
    await listModels(['gpt-4o-mini']);
    await chat(chatBody({ model: 'fake/listed-then-dropped' })).expect(200);
    m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 3));
    assert.equal(m.value('gateway_requests_total', { route: '(unified)', provider: 'fake', model: 'listed-then-dropped' }), 1);
    assert.equal(m.value('gateway_requests_total', { route: '(unified)', provider: 'fake', model: 'other' }), 1);
  });

  it('15.2: rate-limit rejections are counted, and recordRejection counts budget refusals', async () => {
    await f.create('/v1/admin/routes', { name: 'tight', type: 'chat', config: { settings: { rate_limit: 1 } }, models: [{ name: 'primary-model', provider: 'fake', weight: 1 }] });
    await chat(chatBody(), 'tight').expect(200);
    await chat(chatBody(), 'tight').expect(429);
    f.gateway.recordRejection('budget', 'application', 'tight');
    f.gateway.recordRejection('budget', 'a free-text scope');
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total', { route: 'tight' }), 2));
    assert.equal(m.value('gateway_rate_limit_rejections_total', { route: 'tight', scope: 'route' }), 1);
    assert.equal(m.value('gateway_requests_total', { route: 'tight', status: '429' }), 1);
    assert.equal(m.value('gateway_budget_rejections_total', { route: 'tight', scope: 'application' }), 1);
    assert.equal(m.value('gateway_budget_rejections_total', { route: 'none', scope: 'other' }), 1);
  });

  it('15.2: labels stay bounded: a client-chosen model reads "other", and no developer key id or free text appears', async () => {
    await chat(chatBody({ model: 'fake/my-own-model-name-1234' })).expect(200);
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_requests_total', { route: '(unified)', provider: 'fake', model: 'other', status: '200' }), 1);
    assert.ok(!m.text.includes('my-own-model-name-1234'));
    assert.ok(!m.text.includes(f.developerKey));
    const keys = await request(f.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    assert.ok((keys.body as unknown[]).length > 0);
    for (const key of keys.body as Array<{ id: string }>) assert.ok(!m.text.includes(key.id), 'no key id in any label');
    assert.ok(!m.text.includes('Hello'), 'no prompt text');
  });

  it('15.2: guardrail decisions by processor and action, with processor latency', async () => {
    const policy = { mode: 'reject', on_error: 'fail_open', processors: { banned_words: { apply_to: ['input'] }, broken_guardrail: { apply_to: ['input'] } } };
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.superAdmin).send(policy).expect(200);
    await chat(chatBody()).expect(200);
    await chat(chatBody({ messages: [{ role: 'user', content: 'something forbidden' }] })).expect(400);
    const m = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 2));
    assert.equal(m.value('gateway_guardrail_decisions_total', { processor: 'banned_words', phase: 'input', action: 'pass' }), 1);
    assert.equal(m.value('gateway_guardrail_decisions_total', { processor: 'banned_words', phase: 'input', action: 'reject' }), 1);
    assert.equal(m.value('gateway_guardrail_decisions_total', { processor: 'broken_guardrail', phase: 'input', action: 'error' }), 2);
    assert.equal(m.count('gateway_guardrail_processor_duration_seconds', { processor: 'banned_words', phase: 'input' }), 2);
  });

  it('15.2: /metrics requires the bearer token when one is set, and two gateways in one process keep their own registries', async () => {
    const other = await createTrafficFixture({ metrics: { bearerToken: METRICS_TOKEN, defaultMetrics: false } });
    try {
      const app = metricsApp(other);
      const refused = await request(app).get('/metrics').expect(401);
      assert.equal(refused.body.error.code, 'invalid_api_key');
      await request(app).get('/metrics').set('authorization', 'Bearer wrong-token-0123456789abcd').expect(401);
      await request(other.app).post('/v1/chat/completions').set('x-gateway-apikey', other.developerKey).send(chatBody()).expect(200);
      await chat(chatBody()).expect(200);
      await chat(chatBody()).expect(200);
      const mine = await scrapeUntil(metricsApp(f), (m) => assert.equal(m.value('gateway_requests_total'), 2));
      const theirs = await scrapeUntil(app, (m) => assert.equal(m.value('gateway_requests_total'), 1), { authorization: `Bearer ${METRICS_TOKEN}` });
      assert.equal(theirs.value('gateway_requests_total', { status: '200' }), 1);
      assert.equal(mine.value('gateway_requests_total', { status: '200' }), 2);
      assert.equal(theirs.samples('process_cpu_user_seconds_total').length, 0, 'default metrics were turned off there');
    } finally {
      await other.close();
    }
  });

  it('15.2: without the metrics option, gateway.metrics serves nothing', async () => {
    const plain = await createTrafficFixture();
    try {
      await request(express().use(plain.gateway.metrics)).get('/metrics').expect(404);
      assert.equal(plain.gateway.metricsRegistry, undefined);
    } finally {
      await plain.close();
    }
  });
});

describe('observability: MCP tool call metrics', () => {
  let f: McpFixture;
  beforeEach(async () => {
    f = await createMcpFixture({ metrics: { defaultMetrics: false } });
  });
  afterEach(() => f.close());

  it('15.2: MCP tool calls are counted by registry, tool and outcome; an unknown tool reads "other"', async () => {
    const client = await f.connect();
    await client.listTools();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'add', arguments: { a: 3, b: 4 } });
    await client.callTool({ name: 'made-up-tool-name', arguments: {} }).catch(() => undefined);
    const m = await scrape(metricsApp(f));
    assert.equal(m.value('gateway_mcp_tool_calls_total', { registry: 'tools', tool: 'add', outcome: 'ok' }), 2);
    assert.equal(m.value('gateway_mcp_tool_calls_total', { registry: 'tools', tool: 'other', outcome: 'blocked' }), 1);
    assert.ok(!m.text.includes('made-up-tool-name'));
    assert.equal(m.count('gateway_mcp_tool_call_duration_seconds', { registry: 'tools', outcome: 'ok' }), 2);
  });
});

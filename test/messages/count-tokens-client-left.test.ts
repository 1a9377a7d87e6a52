// A token count whose client leaves while the provider counts is free, as counting is at Anthropic: no estimated usage, cost, spend or token metric.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import express from 'express';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered } from '../usage/usage-helpers.js';

/** A priced model (claude-sonnet-4-5's shipped prices): an estimate, had one been made, would cost something. */
const MODEL = 'claude-sonnet-4-5';

describe('POST /v1/messages/count_tokens: a client that leaves mid-count spends nothing', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  /** Count requests the upstream holds (never answered while the test runs). */
  const held: ServerResponse[] = [];

  beforeEach(async () => {
    upstream = await listenRawOnLoopback(createServer((req, res) => {
      req.resume();
      req.on('end', () => held.push(res));
    }));
    f = await createTrafficFixture({ metrics: { defaultMetrics: false } });
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream.url }, api_keys: [{ api_key: 'sk-ant-count-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'via-anthropic', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: MODEL, provider: 'claude' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' } }).expect(200);
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
    await upstream.close();
    held.splice(0);
  });

  it('the Chronicles entry, the usage totals, the budget and gen_ai_client_token_usage show no tokens and no cost for it', async () => {
    const client = new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } });
    const abort = new AbortController();
    // A 4,000-character prompt: about 1,000 tokens had it been estimated.
    const counting = client.messages.countTokens({ model: 'any', messages: [{ role: 'user', content: 'x'.repeat(4000) }] }, { signal: abort.signal });
    const refused = assert.rejects(counting);
    await eventually(() => assert.equal(held.length, 1, 'the upstream holds the count'));
    abort.abort();
    await refused;
    await metered(f, 1);

    const [entry] = (await admin(f, 'get', '/v1/admin/applications/app/chronicles', 'viewer').expect(200)).body.data;
    assert.equal(entry.endpoint, '/v1/messages/count_tokens');
    assert.equal(entry.status, 499, 'recorded as a client that left');
    assert.equal(entry.attempts.length, 1, 'the count reached the provider');
    assert.equal(entry.usage, null, 'no usage is estimated for a count');
    assert.equal(entry.cost, null);
    const [row] = (await admin(f, 'get', '/v1/admin/usage?group_by=application', 'viewer').expect(200)).body.data;
    assert.equal(row.requests, 1);
    assert.equal(row.prompt_tokens, 0);
    assert.equal(row.total_tokens, 0);
    assert.equal(row.cost_usd, 0);
    const [budget] = (await admin(f, 'get', '/v1/admin/budgets').expect(200)).body.data;
    assert.equal(budget.spent_usd, 0);
    // The token metric is observed with the request count, in one step: once the request is counted, it would be there.
    const m = await scrapeUntil(express().use(f.gateway.metrics), (m) => assert.equal(m.value('gateway_requests_total', { endpoint: 'messages_count_tokens', status: '499' }), 1));
    assert.equal(m.samples('gen_ai_client_token_usage_count').length, 0, 'no token observation, estimated or not');
  });
});

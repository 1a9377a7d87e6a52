// POST /v1/messages is counted in the request metrics, labelled `endpoint="messages"`, as the other model endpoints are.
import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('observability: metrics of POST /v1/messages', () => {
  let f: TrafficFixture;
  afterEach(async () => f?.close());

  it('counts each answered request by route, provider, model and status, and its duration', async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: false } });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await request(f.app)
      .post('/v1/messages')
      .set({ 'x-api-key': f.developerKey, 'x-gateway-route': 'chat' })
      .send({ model: 'any', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .expect(200);
    const labels = { endpoint: 'messages', route: 'chat', provider: 'fake', model: 'gpt-4o-mini', status: '200' };
    const m = await scrapeUntil(express().use(f.gateway.metrics), (m) => assert.equal(m.value('gateway_requests_total', labels), 1));
    assert.equal(m.count('gateway_request_duration_seconds', labels), 1);
  });
});

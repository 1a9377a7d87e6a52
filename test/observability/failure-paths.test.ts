// What an operator sees when a model request goes wrong: a client that leaves mid-stream, an upstream that breaks a stream, an output check that cuts one, retries of unusable answers, and client-chosen model names.
import assert from 'node:assert/strict';
import http from 'node:http';
import express, { type Express } from 'express';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { recordSpans } from '../helpers/span-recorder.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { bannedWords } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('observability: failure paths', () => {
  const { named, one } = recordSpans();
  let f: TrafficFixture;
  let metrics: Express;
  beforeEach(async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: false }, plugins: [bannedWords] });
    metrics = express().use(f.gateway.metrics);
    await f.create('/v1/admin/routes', { name: 'support', type: 'chat', config: { settings: { retries: 1 } }, models: [{ name: 'primary-model', provider: 'fake', weight: 1 }] });
  });
  afterEach(() => f.close());

  const chat = (body: Record<string, unknown>) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'support' }).send(body);

  it('a client that leaves mid-stream is a 499 whose attempt ended "aborted", not a stream error of the provider', async () => {
    f.fake.script({ chunks: 20, chunkDelayMs: 50 });
    const server = await listenOnLoopback(f.app);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`${server.base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'support' } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => undefined);
        req.once('response', (res) => res.once('error', () => undefined));
        req.end(JSON.stringify(chatBody({ stream: true })));
        req.once('error', reject);
      });
      const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total', { status: '499' }), 1));
      assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', cause: 'aborted' }), 1);
      assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'stream_error' }), 0, 'the provider did nothing wrong');
      assert.equal(m.count('gen_ai_client_operation_duration_seconds', { error_type: 'aborted' }), 1);
      const attempt = await eventually(() => one('chat primary-model'));
      assert.equal(attempt.attributes['error.type'], 'aborted');
      assert.equal(attempt.attributes['http.response.status_code'], 200, 'the stream had begun');
      const server_ = await eventually(() => one('POST /v1/chat/completions'));
      assert.equal(server_.attributes['http.response.status_code'], 499);
    } finally {
      server.close();
    }
  });

  it('an upstream that breaks a stream after it began: the attempt is a stream error, and the request span is an error too', async () => {
    f.fake.script({ chunks: 5, failAfterChunks: 2 });
    const res = await chat(chatBody({ stream: true })).expect(200);
    assert.match(res.text, /upstream_stream_error/);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', cause: 'stream_error' }), 1);
    const server = await eventually(() => one('POST /v1/chat/completions'));
    assert.equal(server.attributes['http.response.status_code'], 200);
    assert.equal(server.attributes['error.type'], 'upstream_stream_error');
    assert.equal(server.status.code, 2, 'SpanStatusCode.ERROR');
  });

  it('a stream that stalls past the timeout after it began: the attempt is counted as a timeout', async () => {
    await f.create('/v1/admin/routes', { name: 'quick', type: 'chat', config: { settings: { retries: 0, timeout_ms: 150 } }, models: [{ name: 'primary-model', provider: 'fake', weight: 1 }] });
    f.fake.script({ chunks: 3, chunkDelayMs: 600 });
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'quick' }).send(chatBody({ stream: true })).expect(200);
    assert.match(res.text, /upstream_stream_error/);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', cause: 'timeout' }), 1);
    assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'stream_error' }), 0);
  });

  it('an output check that cuts a stream is counted as its reject, not as a failed attempt of the provider', async () => {
    const policy = { mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } };
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.superAdmin).send(policy).expect(200);
    f.fake.script({ text: 'A perfectly fine start, then something forbidden.', chunks: 4 });
    const res = await chat(chatBody({ stream: true })).expect(200);
    assert.match(res.text, /event: error/);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_guardrail_decisions_total', { processor: 'banned_words', phase: 'output', action: 'reject' }), 1);
    assert.equal(m.value('gateway_upstream_attempts_total', { provider: 'fake', cause: 'ok' }), 1);
    assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'stream_error' }), 0);
    const attempt = await eventually(() => one('chat primary-model'));
    assert.equal(attempt.attributes['error.type'], undefined);
    const server = await eventually(() => one('POST /v1/chat/completions'));
    assert.equal(server.attributes['error.type'], undefined, 'a refusal, not a server failure');
  });

  it('a retry and a fallback are counted under the cause their attempt was counted under', async () => {
    await f.create('/v1/admin/routes', {
      name: 'fallback',
      type: 'chat',
      config: { settings: { retries: 1 } },
      models: [
        { name: 'primary-model', provider: 'fake', weight: 1, fallback_enabled: true, fallback_codes: [502] },
        { name: 'backup-model', provider: 'fake', weight: 0 },
      ],
    });
    // An answer that is not JSON is unusable (502 upstream_invalid_response); so is a redirect.
    f.fake.script([{ fail: { status: 200, body: 'not json at all' } }, { fail: { status: 302, headers: { location: 'http://127.0.0.1:1/' } } }]);
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'fallback' }).send(chatBody()).expect(200);
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_upstream_attempts_total', { model: 'primary-model', cause: 'invalid_response' }), 2);
    assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'http_4xx' }), 0, 'a redirect is no client error');
    assert.equal(m.value('gateway_upstream_retries_total', { model: 'primary-model', cause: 'invalid_response' }), 1);
    assert.equal(m.value('gateway_upstream_fallbacks_total', { route: 'fallback', provider: 'fake', cause: 'invalid_response' }), 1);
    assert.equal(m.value('gateway_upstream_retries_total', { cause: 'network' }), 0);
    const redirect = (await eventually(() => {
      const spans = named('chat primary-model');
      assert.equal(spans.length, 2);
      return spans;
    })).find((span) => span.attributes['http.response.status_code'] === 302);
    assert.equal(redirect?.attributes['error.type'], 'invalid_response');
  });

  it('attempt span names stay bounded: a model the caller named freely reads "other" there, as in the metrics', async () => {
    for (const name of ['mine-1', 'mine-2', 'mine-3']) {
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: `fake/${name}` })).expect(200);
    }
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody()).expect(200);
    const spans = await eventually(() => {
      const found = named('chat other');
      assert.equal(found.length, 3);
      return found;
    });
    assert.deepEqual(spans.map((span) => span.attributes['gen_ai.request.model']).sort(), ['mine-1', 'mine-2', 'mine-3'], 'the attribute keeps the name asked for');
    assert.equal(named('chat gpt-4o-mini').length, 1, 'a configured model keeps its name');
  });
});

// Retries and fallback against a misbehaving fake provider: 503, resets, slow answers, Retry-After and broken streams.
import assert from 'node:assert/strict';
import request from 'supertest';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('retries and fallback', () => {
  let f: TrafficFixture;
  let backup: FakeProvider;
  beforeEach(async () => {
    f = await createTrafficFixture({ upstreamTimeoutMs: 300 });
    backup = await startFakeProvider();
    await f.create('/v1/admin/providers', { name: 'backup', type: 'openai', config: { api_base: `${backup.url}/v1` }, api_keys: [{ api_key: 'sk-backup-key-00001' }] });
    await f.create('/v1/admin/routes', {
      name: 'resilient',
      type: 'chat',
      config: { settings: { retries: 1 } },
      models: [
        { name: 'primary-model', provider: 'fake', weight: 1, fallback_enabled: true, fallback_codes: [503, 504] },
        { name: 'backup-model', provider: 'backup', weight: 0 },
      ],
    });
  });
  afterEach(async () => {
    await f.close();
    await backup.close();
  });

  const chat = (body = chatBody(), route = 'resilient') =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(body);

  it('falls back to the next model when the first answers 503 after its retry', async () => {
    f.fake.script({ fail: { status: 503, message: 'overloaded' } });
    const res = await chat().expect(200);
    assert.equal(res.body.choices[0].message.content, 'Hello from the fake provider.');
    assert.equal(res.headers['x-gateway-provider'], 'backup');
    assert.equal(res.headers['x-gateway-model'], 'backup-model');
    assert.equal(res.headers['x-gateway-attempts'], '3');
    assert.equal(f.fake.requests.length, 2, 'one try and one retry on the first model');
    assert.equal((backup.requests[0]?.body as { model: string }).model, 'backup-model');
    assert.equal(backup.requests[0]?.headers.authorization, 'Bearer sk-backup-key-00001');
  });

  it('retries a connection reset on the same model', async () => {
    f.fake.script([{ reset: true }]);
    const res = await chat().expect(200);
    assert.equal(res.headers['x-gateway-provider'], 'fake');
    assert.equal(res.headers['x-gateway-attempts'], '2');
    assert.equal(backup.requests.length, 0);
  });

  it('times out a slow upstream and falls back', async () => {
    // Two attempts of 300 ms, a backoff and the backup's answer take about 1 s; the slow upstream would take 10 s.
    f.fake.script({ delayMs: 5000 });
    const started = Date.now();
    const res = await chat().expect(200);
    assert.equal(res.headers['x-gateway-provider'], 'backup');
    assert.ok(Date.now() - started < 4000, 'the timeout cut the slow attempts short');
  });

  it('honours Retry-After on 429 before retrying', async () => {
    f.fake.script([{ fail: { status: 429, retryAfter: 1 } }]);
    const started = Date.now();
    await chat().expect(200);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    assert.equal(f.fake.requests.length, 2);
  });

  it('does not retry or fall back on a 400, and answers the upstream error in OpenAI shape', async () => {
    f.fake.script({ fail: { status: 400, message: 'bad things in the prompt' } });
    const res = await chat().expect(400);
    assert.equal(res.body.error.message, 'bad things in the prompt');
    assert.equal(res.body.error.type, 'upstream_error');
    assert.equal(typeof res.body.error.code, 'string');
    assert.ok('param' in res.body.error);
    assert.equal(f.fake.requests.length, 1);
    assert.equal(backup.requests.length, 0);
    assert.equal(res.headers['x-gateway-attempts'], '1');
  });

  it('never passes on the provider key when an upstream error message echoes it', async () => {
    f.fake.script({ fail: { status: 401, message: 'Incorrect API key provided: sk-stored-provider-key-0001' } });
    const res = await chat().expect(401);
    assert.ok(!res.text.includes('sk-stored-provider-key-0001'));
    assert.match(res.body.error.message, /sk-\.\.\.0001/);
  });

  it('11.2: never passes on the provider key echoed upper-cased or base64-encoded in an upstream error', async () => {
    const key = 'sk-stored-provider-key-0001';
    f.fake.script({ fail: { status: 401, message: `Bad key ${key.toUpperCase()} (basic ${Buffer.from(`user:${key}`).toString('base64')})` } });
    const res = await chat().expect(401);
    assert.ok(!res.text.toLowerCase().includes(key), 'no key in any letter case');
    assert.ok(!res.text.includes(Buffer.from(`user:${key}`).toString('base64').slice(8, 28)), 'no base64 of the key');
  });

  it('answers the last upstream error when every model fails', async () => {
    f.fake.script({ fail: { status: 503, message: 'primary down' } });
    backup.script({ fail: { status: 500, message: 'backup down' } });
    const res = await chat().expect(500);
    assert.equal(res.body.error.message, 'backup down');
    assert.equal(res.headers['x-gateway-attempts'], '4');
  });

  it('answers 502 when no provider can be reached, and 504 when every attempt times out', async () => {
    await f.create('/v1/admin/providers', { name: 'dead', type: 'openai', config: { api_base: 'http://127.0.0.1:9/v1' } });
    await f.create('/v1/admin/routes', { name: 'dead-route', type: 'chat', models: [{ name: 'x', provider: 'dead' }] });
    const unreachable = await chat(chatBody(), 'dead-route').expect(502);
    assert.equal(unreachable.body.error.code, 'upstream_unreachable');
    // The caller learns what failed, not where the provider lives (the admin-only attempt record keeps that).
    assert.equal(unreachable.body.error.message, 'The provider dead could not be reached: ECONNREFUSED');
    assert.doesNotMatch(JSON.stringify(unreachable.body), /127\.0\.0\.1|:9\b/);
    await f.create('/v1/admin/routes', { name: 'slow-route', type: 'chat', config: { settings: { retries: 0, timeout_ms: 100 } }, models: [{ name: 'x', provider: 'fake' }] });
    f.fake.script({ delayMs: 500 });
    const slow = await chat(chatBody(), 'slow-route').expect(504);
    assert.equal(slow.body.error.code, 'upstream_timeout');
    assert.equal(slow.headers['x-gateway-attempts'], '1');
  });

  it('a stream that fails before its first byte still falls back', async () => {
    f.fake.script({ fail: { status: 503 } });
    const res = await chat(chatBody({ stream: true })).expect(200);
    assert.match(res.headers['content-type'] ?? '', /text\/event-stream/);
    assert.match(res.text, /data: \[DONE\]/);
    assert.equal(res.headers['x-gateway-provider'], 'backup');
  });

  it('a stream that breaks after its first byte ends with an SSE error event, not a clean end', async () => {
    f.fake.script({ chunks: 5, failAfterChunks: 2 });
    const res = await chat(chatBody({ stream: true })).expect(200);
    assert.match(res.text, /event: error\ndata: \{"error":/);
    assert.doesNotMatch(res.text, /\[DONE\]/);
    assert.equal(backup.requests.length, 0);
  });

  it('aborts the upstream request when the client disconnects', async () => {
    f.fake.script({ chunks: 50, chunkDelayMs: 40 });
    const server = f.app.listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'resilient' },
        body: JSON.stringify(chatBody({ stream: true })),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      // Left open, the upstream stream would end by itself after 2 s: it must end cut short instead.
      await f.fake.streamsClosed();
      assert.equal(f.fake.cutStreams(), 1, 'the gateway closed the upstream stream before its end');
    } finally {
      server.close();
    }
  });
});

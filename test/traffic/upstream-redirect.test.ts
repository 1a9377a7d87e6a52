// An upstream 3xx (redirect) is never followed nor passed on as success: 502 upstream_redirect on the JSON, stream and raw paths, retried and falling back as a 502.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback } from '../helpers/loopback-server.js';

interface Loopback {
  url: string;
  hits: () => number;
  close(): Promise<void>;
}

/** A loopback server answering every request with `answer` (given the request body), counting the requests. */
async function startServer(answer: (res: import('node:http').ServerResponse, body: string) => void): Promise<Loopback> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    req.on('end', () => answer(res, body));
  });
  const listening = await listenRawOnLoopback(server);
  return { ...listening, hits: () => hits };
}

describe('upstream redirects (3xx)', () => {
  let f: TrafficFixture;
  let target: Loopback;
  let redirecting: Loopback;
  before(async () => {
    f = await createTrafficFixture();
    // Where the redirect points: it must never be asked.
    target = await startServer((res) => res.end('{"id":"elsewhere","object":"chat.completion","choices":[]}'));
    // A body that would read as a valid answer on each path, so only the status tells it is not one.
    redirecting = await startServer((res, body) => {
      const stream = body.includes('"stream":true');
      res.writeHead(302, { location: `${target.url}/v1/steal`, 'content-type': stream ? 'text/event-stream' : 'application/json' });
      res.end(stream ? 'data: {"id":"c","object":"chat.completion.chunk","choices":[]}\n\ndata: [DONE]\n\n' : '{"id":"c","object":"chat.completion","created":1,"data":[{"url":"https://x"}],"choices":[]}');
    });
    await f.create('/v1/admin/providers', { name: 'moved', type: 'openai', config: { api_base: `${redirecting.url}/v1`, models: ['moved-model', 'moved-image'] }, api_keys: [{ api_key: 'sk-moved-provider-key-0001' }] });
    await f.create('/v1/admin/routes', { name: 'moved', type: 'chat', config: { settings: { retries: 1 } }, models: [{ name: 'moved-model', provider: 'moved' }] });
    await f.create('/v1/admin/routes', {
      name: 'moved-then-fake',
      type: 'chat',
      config: { settings: { retries: 0 } },
      models: [
        { name: 'moved-model', provider: 'moved', weight: 1, fallback_enabled: true, fallback_codes: [502] },
        { name: 'gpt-4o-mini', provider: 'fake', weight: 0 },
      ],
    });
  });
  after(async () => {
    await f.close();
    await target.close();
    await redirecting.close();
  });

  const assertRedirectError = (res: request.Response): void => {
    assert.equal(res.status, 502, res.text);
    assert.match(String(res.headers['content-type']), /application\/json/);
    assert.equal(res.body.error.code, 'upstream_redirect');
    assert.equal(res.body.error.type, 'upstream_error');
    assert.match(res.body.error.message, /moved answered 302/);
    assert.ok(!res.text.includes(target.url), 'the redirect target is not shown');
  };

  it('a JSON answer: 502 upstream_redirect, retried as a 502, the Location never asked', async () => {
    const before = redirecting.hits();
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'moved' }).send(chatBody({ model: 'moved-model' }));
    assertRedirectError(res);
    assert.equal(redirecting.hits() - before, 2, 'one retry, as for a 502');
    assert.equal(target.hits(), 0);
  });

  it('a stream: 502 upstream_redirect before any event, not a 200 stream', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'moved-model', stream: true }));
    assertRedirectError(res);
    assert.equal(target.hits(), 0);
  });

  it('a raw-relayed answer (images): 502 upstream_redirect, not a 200', async () => {
    const res = await request(f.app).post('/v1/images/generations').set('x-gateway-apikey', f.developerKey).send({ model: 'moved-image', prompt: 'a cat' });
    assertRedirectError(res);
    assert.equal(target.hits(), 0);
  });

  it('falls back as a 502: a model with fallback on 502 moves to the next one', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'moved-then-fake' }).send(chatBody({ model: 'moved-model' })).expect(200);
    assert.equal(res.body.choices[0].message.content, 'Hello from the fake provider.');
    assert.equal(res.headers['x-gateway-model'], 'gpt-4o-mini');
    assert.equal(target.hits(), 0);
  });
});

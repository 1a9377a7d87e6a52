// A stream the upstream closes cleanly before its finish reason is incomplete: it is never cached and served again.
import assert from 'node:assert/strict';
import request from 'supertest';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const chunk = (choice: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [choice] })}\n\n`;

describe('response cache: streams that end without a finish reason', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let complete = false;
  before(async () => {
    upstream = await listenJsonUpstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ index: 0, delta: { role: 'assistant', content: 'The answer is' }, finish_reason: null }));
      // No error and no [DONE]: the connection just ends, after a finish reason only when `complete`.
      if (complete) res.write(chunk({ index: 0, delta: { content: ' whole.' }, finish_reason: 'stop' }));
      res.end();
    });
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'raw', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-raw-provider-key-00001' }] });
    await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'm', provider: 'raw' }], config: { cache: { ttl_seconds: 60 } } });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const send = (stream: boolean) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached' }).send({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream });
  /** Lets the cache step's store (after the answer's `finish`, on setImmediate) run. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('is relayed, then missed again: the cut answer is not stored', async () => {
    complete = false;
    assert.equal((await send(true).expect(200)).headers['x-gateway-cache'], 'miss');
    await settle();
    const again = await send(true).expect(200);
    assert.equal(again.headers['x-gateway-cache'], 'miss', 'a cut answer with finish_reason null is never served from the cache');
  });

  it('a stream that does end with its finish reason is stored (without [DONE])', async () => {
    complete = true;
    await send(true).expect(200);
    await settle();
    const hit = await send(false).expect(200);
    assert.equal(hit.headers['x-gateway-cache'], 'hit');
    assert.equal(hit.body.choices[0].message.content, 'The answer is whole.');
    assert.equal(hit.body.choices[0].finish_reason, 'stop');
  });
});

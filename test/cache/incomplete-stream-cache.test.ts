// Answers that are not whole are never cached: a stream closed before its finish reason, a 200 that reports an error, no choices.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const chunk = (choice: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [choice] })}\n\n`;
const WHOLE = { id: 'chatcmpl-2', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Whole.' }, finish_reason: 'stop' }] };

describe('response cache: answers that are not whole', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  /** What the upstream answers a JSON request with, until a test changes it. */
  let json: Record<string, unknown> = WHOLE;
  let complete = false;
  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
        return;
      }
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

  const send = (stream: boolean, content = 'Hi') =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached' }).send({ model: 'm', messages: [{ role: 'user', content }], stream });
  /**
   * Waits until the cache step has stored the last answer, or found it will not: a miss leads its key in the gateway's
   * miss coalescer from before its answer is sent until then (the leader settles), so once the client has the answer,
   * no key in flight means the store is done or was not made.
   */
  const settle = () =>
    eventually(() => {
      const coalescer = f.gateway.cacheCoalescer;
      assert.ok(coalescer, 'the gateway coalesces misses (the default)');
      assert.equal(coalescer.keys, 0, 'the last miss has settled');
    });

  it('a stream the upstream closes before its finish reason is relayed, then missed again: it is not stored', async () => {
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

  for (const [name, answer] of [
    ['reports an error in a 200 answer', { error: { message: 'The server is overloaded.', type: 'server_error' } }],
    ['has no choices', { id: 'chatcmpl-3', object: 'chat.completion', created: 1, model: 'm', choices: [] }],
  ] as const) {
    it(`a JSON answer that ${name} is relayed as it came but not stored`, async () => {
      json = answer;
      const first = await send(false, name).expect(200);
      assert.deepEqual(first.body, answer);
      await settle();
      json = WHOLE;
      const again = await send(false, name).expect(200);
      assert.equal(again.headers['x-gateway-cache'], 'miss', 'the next request goes to the provider');
      assert.equal(again.body.choices[0].message.content, 'Whole.');
      await settle();
      assert.equal((await send(false, name).expect(200)).headers['x-gateway-cache'], 'hit', 'the whole answer is stored');
    });
  }
});

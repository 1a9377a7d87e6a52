// A provider answer nested deeper than JSON.stringify can go (in its usage) is still recorded: the entry is kept with a note in place of that field.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const DEPTH = 100_000;
const nested = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

describe('Chronicles entries of deeply nested answers', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      const usage = `{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"x":${nested}}`;
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n');
        res.end(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":${usage}}\n\ndata: [DONE]\n\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":${usage}}`);
    });
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'deep', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['deep-model'] }, api_keys: [{ api_key: 'sk-deep-provider-key-000001' }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  for (const stream of [false, true]) {
    it(`records a ${stream ? 'streamed' : 'JSON'} answer whose usage holds ${DEPTH.toLocaleString('en')} nested arrays, with a note in place of the usage`, async () => {
      const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'deep-model', stream })).expect(200);
      const id = res.headers['x-gateway-request-id'];
      const entry = await eventually(async () => (await request(f.app).get(`/v1/admin/applications/app/chronicles/${id}`).set('x-api-key', TEST_KEYS.viewer).expect(200)).body);
      assert.equal(entry.status, 200);
      assert.equal(entry.output, 'ok');
      assert.equal(entry.usage, '[not recorded: nested too deeply]');
    });
  }
});

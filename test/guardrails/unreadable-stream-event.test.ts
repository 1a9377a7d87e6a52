// A streamed event that is not JSON cannot be read by output checks: under them, it cuts the stream instead of reaching the client unchecked.
import assert from 'node:assert/strict';
import request from 'supertest';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const chunk = (content: string): string => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

describe('output checks on stream events that are not JSON', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  before(async () => {
    // An upstream that slips plain text between its chunks, and an empty event such as some servers send to keep alive.
    upstream = await listenJsonUpstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Hello, '));
      res.write('data: \n\n');
      res.write('data: this text is forbidden\n\n');
      res.write(chunk('world.'));
      res.end('data: [DONE]\n\n');
    });
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/providers', { name: 'plain', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['plain-model'] }, api_keys: [{ api_key: 'sk-plain-text-provider-01' }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const stream = () =>
    request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'plain-model', stream: true })).buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (part: Buffer) => (text += part.toString('utf8')));
      res.on('end', () => done(null, text));
    });
  const setPolicy = (policy: Record<string, unknown>) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);

  for (const mode of ['reject', 'inspect']) {
    it(`${mode} mode: cuts the stream with upstream_invalid_response where the text would have gone, never sending it`, async () => {
      await setPolicy({ mode, processors: { banned_words: { apply_to: ['output'] } } });
      const text = String((await stream().expect(200)).body);
      assert.ok(!text.includes('forbidden'), text);
      assert.ok(!text.includes('[DONE]'));
      assert.match(text, /event: error\ndata: \{"error":\{"message":"The upstream provider sent an answer the gateway cannot read: a stream event is not JSON/);
      assert.ok(!text.includes('world.'), 'nothing after the cut');
    });
  }

  it('under an output transform (DLP mask) too', async () => {
    await setPolicy({ mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } });
    const text = String((await stream().expect(200)).body);
    assert.ok(!text.includes('forbidden'), text);
    assert.match(text, /event: error\ndata: \{"error":\{"message":"The upstream provider sent an answer the gateway cannot read: a stream event is not JSON/);
  });

  it('without output checks the stream is relayed as it came', async () => {
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    const text = String((await stream().expect(200)).body);
    assert.ok(text.includes('data: this text is forbidden'));
    assert.ok(text.includes('[DONE]'));
  });
});

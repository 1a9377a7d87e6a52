// The request log records where an output guardrail cut a stream: the text the client received and the cut point.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('Chronicles: the cut point of a stream stopped by an output guardrail', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, streamWindowing: { stepChars: 8, windowChars: 200 } });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  afterEach(() => f.close());

  const lastEntry = async (): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const list = await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200);
      if (list.body.data[0] || Date.now() > deadline) return list.body.data[0];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('16.9: the entry of a cut stream holds the text the client received as output, and stream_cut with its length and the error code', async () => {
    f.fake.script({ text: 'Hello there, all is well so far. But now the forbidden part arrives.', chunks: 10, chunkDelayMs: 5 });
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } }).expect(200);
    const res = await request(f.app)
      .post('/v1/chat/completions')
      .set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' })
      .send(chatBody({ messages: [{ role: 'user', content: 'Tell me' }], stream: true }))
      .expect(200);
    const streamed = res.text
      .split('\n')
      .filter((line) => line.startsWith('data: {"id"'))
      .map((line) => JSON.parse(line.slice(6)).choices[0].delta.content ?? '')
      .join('');
    assert.ok(streamed.length > 0 && !streamed.includes('forb'), `streamed: ${streamed}`);

    const entry = await lastEntry();
    assert.equal(entry.stream, true);
    assert.deepEqual(entry.stream_cut, { after_chars: streamed.length, code: 'guardrail_rejected' });
    assert.equal(entry.output, streamed, 'the output recorded is exactly what the client received');
    assert.equal((entry.error as { code: string }).code, 'guardrail_rejected');
  });

  it('16.9: a stream that is not cut has no stream_cut', async () => {
    await request(f.app)
      .post('/v1/chat/completions')
      .set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' })
      .send(chatBody({ stream: true }))
      .expect(200);
    const entry = await lastEntry();
    assert.equal(entry.stream, true);
    assert.equal(entry.stream_cut, undefined);
    assert.equal(entry.output, 'Hello from the fake provider.');
  });
});

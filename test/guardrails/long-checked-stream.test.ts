// A long streamed answer under reject-mode output checks costs time in proportion to its length: each window is cut from the text's end, not the whole text copied.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import request from 'supertest';
import { createSseParser } from '../../src/http/sse-parser.js';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** 8,192 deltas of 1,000 characters (8 million characters of answer: an upstream told to repeat a word, or a hostile one). */
const DELTA = 'word '.repeat(200);
const DELTAS = 8192;

describe('a long stream under reject-mode output checks', function () {
  this.timeout(120_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  before(async () => {
    upstream = await listenJsonUpstream(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: DELTA }, finish_reason: null }] })}\n\n`;
      for (let index = 0; index < DELTAS; index++) if (!res.write(line)) await once(res, 'drain');
      res.end('data: [DONE]\n\n');
    });
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/providers', { name: 'long', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['long-model'] } });
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } }).expect(200);
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  it('relays 8 million characters of checked text in well under the half minute a copy of all the text per window took', async () => {
    const started = performance.now();
    const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'long-model', stream: true })).buffer(true).parse((r, done) => {
      let events = 0;
      let tail = '';
      const parser = createSseParser((event) => {
        if (event.data.startsWith('{"id"')) events++;
      });
      r.on('data', (part: Buffer) => {
        parser.push(part);
        tail = (tail + part.toString('latin1')).slice(-32);
      });
      r.on('end', () => done(null, { events, tail }));
    });
    const elapsed = performance.now() - started;
    assert.equal(res.status, 200);
    assert.equal((res.body as { events: number }).events, DELTAS, 'every event, checked and released');
    assert.match((res.body as { tail: string }).tail, /data: \[DONE\]\n\n$/);
    // Copying all the text so far for each 200-character step took about 40 s for this answer (8.5 s for half of it).
    assert.ok(elapsed < 10_000, `${Math.round(elapsed)} ms`);
  });
});

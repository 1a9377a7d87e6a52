// A provider that echoes its key encoded (other letter case, base64, base64url, URL, hex) in a 200 answer never passes it on: OpenAI, Anthropic and Gemini adapters, JSON and streams, /v1/messages, /v1/responses and the response cache.
import assert from 'node:assert/strict';
import request from 'supertest';
import type { FakeRequest } from '../helpers/fake-provider.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const KEY = 'sk-echo/provider+key=0123456789abcdef';
const MASK = 'sk-...cdef';
const hex = (text: string): string => Buffer.from(text).toString('hex');

/** The key in every form an answer echoes it in, as the client must never read it. */
const FORMS: Array<{ name: string; form: string; anyCase: boolean }> = [
  { name: 'as is', form: KEY, anyCase: true },
  { name: 'URL-encoded', form: encodeURIComponent(KEY), anyCase: true },
  { name: 'hex', form: hex(KEY), anyCase: true },
  // The base64 of the key alone, and the part of `Bearer <key>` that holds only the key's bytes.
  { name: 'base64', form: Buffer.from(KEY).toString('base64').slice(0, 44), anyCase: false },
  { name: 'base64url', form: Buffer.from(KEY).toString('base64url').slice(0, 44), anyCase: false },
  { name: 'base64 inside Bearer', form: Buffer.from(`Bearer ${KEY}`).toString('base64').slice(12, 56), anyCase: false },
];

/** The answer text: the key the request carried, in each form (upper case for those matched in any case). */
function echoOf(key: string): string {
  const bearer = `Bearer ${key}`;
  return [
    `upper ${key.toUpperCase()}`,
    `url ${encodeURIComponent(key)}`,
    `hex ${hex(key).toUpperCase()}`,
    `b64 ${Buffer.from(key).toString('base64')}`,
    `b64url ${Buffer.from(key).toString('base64url')}`,
    `basic ${Buffer.from(bearer).toString('base64')}`,
  ].join(' | ');
}

/** The provider key a request carried, wherever its format puts it. */
function keyOf(req: FakeRequest): string {
  const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  return bearer ?? String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? req.query.key ?? '');
}

function assertNoKey(text: string, where: string): void {
  for (const { name, form, anyCase } of FORMS) {
    const found = anyCase ? text.toLowerCase().includes(form.toLowerCase()) : text.includes(form);
    assert.ok(!found, `${where}: the key ${name} (${form}) is in ${text}`);
  }
  assert.ok(text.split(MASK).length - 1 >= 6, `${where}: each form is masked: ${text}`);
}

describe('provider keys echoed encoded in relayed 200 answers', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    // `echo-split` says the key once, cut across two stream events.
    f.fake.script((req) => (req.model === 'echo-split' ? { text: `Your key: ${keyOf(req)}.`, chunks: 2 } : { text: echoOf(keyOf(req)), chunks: 1 }));
    await f.create('/v1/admin/providers', { name: 'echo-openai', type: 'openai', config: { api_base: `${f.fake.url}/v1`, models: ['echo-gpt', 'echo-split'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/providers', { name: 'echo-claude', type: 'anthropic', config: { api_base: f.fake.url, models: ['echo-claude'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/providers', { name: 'echo-gemini', type: 'gemini', config: { api_base: f.fake.url, models: ['echo-gemini'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'echo-gpt', provider: 'echo-openai' }], config: { cache: { ttl_seconds: 60 } } });
    await f.create('/v1/admin/routes', { name: 'cached-split', type: 'chat', models: [{ name: 'echo-split', provider: 'echo-openai' }], config: { cache: { ttl_seconds: 60 } } });
  });
  after(() => f.close());

  const chat = (body: Record<string, unknown>) =>
    request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send({ messages: [{ role: 'user', content: 'Echo my key' }], ...body });

  for (const model of ['echo-gpt', 'echo-claude', 'echo-gemini']) {
    it(`${model}: masks every form in a JSON chat answer (valid JSON, right content-length)`, async () => {
      const res = await chat({ model }).expect(200);
      assertNoKey(res.text, 'JSON');
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
      assert.match(res.body.choices[0].message.content, /^upper sk-\.\.\.cdef \| url sk-\.\.\.cdef \| hex sk-\.\.\.cdef/);
    });

    it(`${model}: masks every form in a stream, rewritten and relayed byte for byte`, async () => {
      for (const extra of [{}, { stream_options: { include_usage: true } }]) {
        const res = await chat({ model, stream: true, ...extra }).expect(200);
        assert.match(res.text, /data: \[DONE\]/);
        assertNoKey(res.text, `stream ${JSON.stringify(extra)}`);
      }
    });

    it(`${model}: masks every form on /v1/messages (JSON and stream) and /v1/responses`, async () => {
      const messages = (stream: boolean) =>
        request(f.app).post('/v1/messages').set('x-api-key', f.developerKey).send({ model, max_tokens: 64, stream, messages: [{ role: 'user', content: 'Echo my key' }] }).expect(200);
      assertNoKey((await messages(false)).text, '/v1/messages JSON');
      assertNoKey((await messages(true)).text, '/v1/messages stream');
      for (const stream of [false, true]) {
        const responses = await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send({ model, input: 'Echo my key', stream }).expect(200);
        assertNoKey(responses.text, `/v1/responses ${stream ? 'stream' : 'JSON'}`);
      }
    });
  }

  it('the response cache keeps and replays the masked answer, JSON and stream', async () => {
    for (let round = 0; round < 2; round++) {
      const json = await chat({ model: 'echo-gpt' }).set('x-gateway-route', 'cached').expect(200);
      assertNoKey(json.text, `cached JSON, round ${round}`);
      const stream = await chat({ model: 'echo-gpt', stream: true }).set('x-gateway-route', 'cached').expect(200);
      assertNoKey(stream.text, `cached stream, round ${round}`);
    }
  });

  it('a key cut across two stream events is whole in the answer the cache assembles: it is masked there, and replayed masked', async () => {
    const first = await chat({ model: 'echo-split', stream: true }).set('x-gateway-route', 'cached-split').expect(200);
    assert.equal(first.headers['x-gateway-cache'], 'miss');
    const replayed = await chat({ model: 'echo-split', stream: true }).set('x-gateway-route', 'cached-split').expect(200);
    assert.equal(replayed.headers['x-gateway-cache'], 'hit');
    assert.ok(!replayed.text.includes(KEY), replayed.text);
    assert.match(replayed.text, /Your key: sk-\.\.\.cdef\./);
  });
});

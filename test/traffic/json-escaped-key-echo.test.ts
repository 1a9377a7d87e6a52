// An upstream that echoes the provider key with JSON escapes (`\u0073k-…`, `\/`), which the client's JSON parser turns back into the key, never passes it on.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const KEY = 'sk-escaped/provider-key-0123456789abcdef';
/** The key as a JSON serializer may write it: its first letter as a `\u` escape, its slash as `\/` (PHP's default). */
const ESCAPED = KEY.replace('s', '\\u0073').replace('/', '\\/');
const MASK = 'sk-...cdef';

describe('provider keys echoed with JSON escapes', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let answer = '';
  let longKey = '';
  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      if (answer === 'error') {
        // OpenAI's 401 names the key it was sent; a hostile or careless upstream names it whole, escaped.
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(`{"error":{"message":"Incorrect API key provided: ${ESCAPED}.","type":"invalid_request_error","code":"invalid_api_key"}}`);
      } else if (answer === 'json-long') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Your key is ${longKey.replace('s', '\\u0073')}"},"finish_reason":"stop"}]}`);
      } else if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"${ESCAPED}","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n`);
        res.end('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Your key is ${ESCAPED}"},"finish_reason":"stop"}]}`);
      }
    });
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'echo', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['echo-model'] }, api_keys: [{ api_key: KEY }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const chat = (extra: Record<string, unknown> = {}) => request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'echo-model', ...extra }));
  /** The answer as a client reads it: JSON decoded, so an escape no longer hides the key. */
  const decoded = (text: string): string => text.replace(/^data: (.*)$/gm, (_line, payload: string) => (payload === '[DONE]' ? payload : JSON.stringify(JSON.parse(payload))));

  it('masks the key in an upstream error message (the 401 a client reads), and in the request log', async () => {
    answer = 'error';
    const res = await chat().expect(401);
    assert.equal(res.body.error.message, `Incorrect API key provided: ${MASK}.`);
    assert.ok(!decoded(res.text).includes(KEY));
    const entry = await eventually(async () => {
      const log = await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.equal(log.body.data[0]?.status, 401);
      return log.body.data[0];
    });
    assert.ok(!JSON.stringify(entry).includes(KEY), JSON.stringify(entry));
    assert.match(entry.error.message, /Incorrect API key provided: (?!sk-escaped)/);
  });

  it('masks the key in a JSON answer, which stays valid JSON with its length', async () => {
    answer = 'json';
    const res = await chat().expect(200);
    assert.equal(res.body.choices[0].message.content, `Your key is ${MASK}`);
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
  });

  it('masks a key of the longest length a provider key may have (8,192 characters), escaped, in a JSON answer', async () => {
    const long = `sk-${'k'.repeat(8189)}`;
    await f.create('/v1/admin/providers', { name: 'long-key', type: 'openai', config: { api_base: `${upstream.url}/long/v1`, models: ['long-key-model'] }, api_keys: [{ api_key: long }] });
    answer = 'json-long';
    longKey = long;
    const res = await chat({ model: 'long-key-model' }).expect(200);
    assert.equal(res.body.choices[0].message.content, `Your key is sk-...kkkk`);
  });

  it('masks the key in a stream event member that is no joined text', async () => {
    answer = 'stream';
    const res = await chat({ stream: true }).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      r.on('end', () => done(null, text));
    }).expect(200);
    const events = String(res.body).split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)));
    assert.equal(events[0].system_fingerprint, MASK);
    assert.ok(!decoded(String(res.body)).includes(KEY));
  });
});

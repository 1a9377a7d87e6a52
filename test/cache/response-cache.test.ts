// The response cache on model routes: hits and misses, application namespaces, stream replay, Cache-Control, TTL, the byte bound, guardrails and Chronicles.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { GatewayOptions } from '../../src/index.js';

const CACHED_ROUTE = { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: 60 } } };

/** A fixture with a cached chat route `cached`, an uncached one `plain`, and a settable clock. */
async function cacheFixture(options: GatewayOptions = {}): Promise<TrafficFixture & { clock: { ms: number } }> {
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, now: () => new Date(clock.ms), ...options });
  await f.create('/v1/admin/routes', CACHED_ROUTE);
  await f.create('/v1/admin/routes', { name: 'plain', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  return Object.assign(f, { clock });
}

const ask = (f: TrafficFixture, body = chatBody(), headers: Record<string, string> = {}, key = f.developerKey) =>
  request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': 'cached', ...headers }).send(body);

const question = (content: string, extra: Record<string, unknown> = {}) => chatBody({ messages: [{ role: 'user', content }], ...extra });

async function chronicles(f: TrafficFixture, count: number, app = 'app'): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const list = await request(f.app).get(`/v1/admin/applications/${app}/chronicles?limit=${count}`).set('x-api-key', TEST_KEYS.viewer).expect(200);
    if (list.body.data.length >= count || Date.now() > deadline) return list.body.data;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('response cache', () => {
  let f: TrafficFixture & { clock: { ms: number } };
  beforeEach(async () => {
    f = await cacheFixture();
  });
  afterEach(() => f.close());

  it('15.6: a repeated request is answered from the cache (x-gateway-cache hit) without calling the provider', async () => {
    f.fake.script({ text: 'The first answer.' });
    const first = await ask(f).expect(200);
    assert.equal(first.headers['x-gateway-cache'], 'miss');
    f.fake.script({ text: 'A different answer.' });
    const second = await ask(f).expect(200);
    assert.equal(second.headers['x-gateway-cache'], 'hit');
    assert.deepEqual(second.body, first.body);
    assert.equal(f.fake.requests.length, 1);
    assert.equal(second.headers['x-gateway-route'], 'cached');
  });

  it('15.6: the key ignores key order, stream and user, and sees the messages and parameters', async () => {
    await ask(f, chatBody({ temperature: 0, user: 'alice' })).expect(200);
    const reordered = { temperature: 0, messages: [{ content: 'Hello', role: 'user' }], model: 'gpt-4o-mini', user: 'bob' };
    assert.equal((await ask(f, reordered).expect(200)).headers['x-gateway-cache'], 'hit');
    assert.equal((await ask(f, chatBody({ temperature: 1 })).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal((await ask(f, question('Hello there', { temperature: 0 })).expect(200)).headers['x-gateway-cache'], 'miss');
    const withTools = chatBody({ temperature: 0, tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }] });
    assert.equal((await ask(f, withTools).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal(f.fake.requests.length, 4);
  });

  it('the key counts a top-level __proto__ field like any other: a body with it never shares an entry with the same body without it', async () => {
    const send = (text: string) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached', 'content-type': 'application/json' }).send(text);
    const plain = JSON.stringify(chatBody());
    const withProto = `{"__proto__":{"temperature":0},${plain.slice(1)}`;
    const withOtherProto = `{"__proto__":{"temperature":1},${plain.slice(1)}`;
    assert.equal((await send(plain).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal((await send(withProto).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal((await send(withOtherProto).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal(f.fake.requests.length, 3, 'each body reached the provider');
    // Each is cached under its own key.
    assert.equal((await send(withProto).expect(200)).headers['x-gateway-cache'], 'hit');
    assert.equal((await send(plain).expect(200)).headers['x-gateway-cache'], 'hit');
    assert.equal(f.fake.requests.length, 3);
    assert.equal(({} as Record<string, unknown>).temperature, undefined, 'no prototype changed');
  });

  it('15.6: a route without config.cache is never cached and carries no x-gateway-cache header', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await ask(f, chatBody(), { 'x-gateway-route': 'plain' }).expect(200);
      assert.equal(res.headers['x-gateway-cache'], undefined);
    }
    assert.equal(f.fake.requests.length, 2);
  });

  it('15.6: another application never sees the first one\'s cached answer', async () => {
    f.fake.script({ text: 'Private to app.' });
    await ask(f).expect(200);
    await f.create('/v1/admin/applications', { name: 'other' });
    const key = await request(f.app).post('/v1/admin/applications/other/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201);
    f.fake.script({ text: 'For other.' });
    const res = await ask(f, chatBody(), {}, key.body.key as string).expect(200);
    assert.equal(res.headers['x-gateway-cache'], 'miss');
    assert.equal(res.body.choices[0].message.content, 'For other.');
    assert.equal(f.fake.requests.length, 2);
    assert.equal((await ask(f).expect(200)).body.choices[0].message.content, 'Private to app.');
  });

  it('15.6: Cache-Control no-store neither reads nor writes the cache; no-cache refreshes it', async () => {
    f.fake.script({ text: 'Stored.' });
    await ask(f).expect(200);
    f.fake.script({ text: 'Fresh.' });
    const bypass = await ask(f, chatBody(), { 'cache-control': 'no-store' }).expect(200);
    assert.equal(bypass.headers['x-gateway-cache'], 'bypass');
    assert.equal(bypass.body.choices[0].message.content, 'Fresh.');
    assert.equal((await ask(f).expect(200)).body.choices[0].message.content, 'Stored.', 'no-store did not overwrite the entry');
    const other = question('Never stored');
    await ask(f, other, { 'cache-control': 'no-store' }).expect(200);
    assert.equal((await ask(f, other).expect(200)).headers['x-gateway-cache'], 'miss', 'no-store did not write');
    const refreshed = await ask(f, chatBody(), { 'cache-control': 'max-age=0, no-cache' }).expect(200);
    assert.equal(refreshed.headers['x-gateway-cache'], 'miss');
    assert.equal((await ask(f).expect(200)).body.choices[0].message.content, 'Fresh.');
  });

  it('15.6: an entry expires after the route\'s ttl_seconds', async () => {
    await ask(f).expect(200);
    f.clock.ms += 59_000;
    assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'hit');
    f.clock.ms += 2_000;
    assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal(f.fake.requests.length, 2);
  });

  it('15.6: only complete 200 answers are stored: provider errors and cut streams are not', async () => {
    f.fake.script([{ fail: { status: 400, message: 'bad' } }]);
    await ask(f).expect(400);
    assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'miss');
    const cut = question('cut', { stream: true });
    f.fake.script([{ chunks: 4, failAfterChunks: 1 }]);
    const broken = await ask(f, cut).expect(200);
    assert.match(broken.text, /event: error/);
    assert.equal((await ask(f, cut).expect(200)).headers['x-gateway-cache'], 'miss');
  });

  it('15.6: input guardrails still run on a hit; output checks apply to the cached answer', async () => {
    f.fake.script({ text: 'Write to bob@example.org today.' });
    await ask(f, question('forbidden topic')).expect(200);
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} } }).expect(200);
    const refused = await ask(f, question('forbidden topic')).expect(400);
    assert.equal(refused.body.error.phase, 'input');
    await ask(f, question('Who?')).expect(200);
    await request(f.app)
      .put('/v1/admin/applications/app/policy')
      .set('x-api-key', TEST_KEYS.admin)
      .send({ mode: 'inspect', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } })
      .expect(200);
    const masked = await ask(f, question('Who?')).expect(200);
    assert.equal(masked.headers['x-gateway-cache'], 'hit');
    assert.equal(masked.body.choices[0].message.content, 'Write to *************** today.');
    assert.equal(f.fake.requests.length, 2);
  });

  it('15.6: Chronicles mark hits and misses; a hit records no attempt', async () => {
    await ask(f).expect(200);
    await ask(f).expect(200);
    const [hit, miss] = await chronicles(f, 2);
    assert.equal(miss!.cache, 'miss');
    assert.equal(hit!.cache, 'hit');
    assert.deepEqual(hit!.attempts, []);
    assert.equal(hit!.status, 200);
    assert.equal(hit!.output, 'Hello from the fake provider.');
    assert.deepEqual(hit!.usage, miss!.usage);
  });

  it('15.6: changing the route\'s models keys new entries', async () => {
    await ask(f).expect(200);
    await request(f.app)
      .put('/v1/admin/routes/cached')
      .set('x-api-key', TEST_KEYS.superAdmin)
      .send({ models: [{ name: 'text-embedding-3-small', provider: 'fake' }, { name: 'gpt-4o-mini', provider: 'fake' }] })
      .expect(200);
    assert.equal((await ask(f).expect(200)).headers['x-gateway-cache'], 'miss');
    assert.equal(f.fake.requests.length, 2);
  });

  it('15.6: the route schema validates config.cache', async () => {
    const put = (cache: unknown) => request(f.app).put('/v1/admin/routes/cached').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { cache } });
    for (const bad of [{}, { ttl_seconds: 0 }, { ttl_seconds: 1.5 }, { ttl_seconds: 10, size: 1 }, { ttl_seconds: 10, enabled: 'yes' }]) {
      const res = await put(bad).expect(400);
      assert.equal(res.body.error.type, 'invalid_request_error', JSON.stringify(bad));
    }
    await put({ ttl_seconds: 10, enabled: false }).expect(200);
    await ask(f).expect(200);
    const off = await ask(f).expect(200);
    assert.equal(off.headers['x-gateway-cache'], undefined, 'enabled: false turns the cache off');
  });
});

describe('response cache: streams', () => {
  let f: TrafficFixture;
  let server: Server;
  let client: OpenAI;
  beforeEach(async () => {
    f = await cacheFixture();
    server = f.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new OpenAI({
      apiKey: f.developerKey,
      baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
      defaultHeaders: { 'X-Gateway-route': 'cached' },
      maxRetries: 0,
    });
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  const streamed = async (extra: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, ...extra })
      .withResponse();
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of data) chunks.push(chunk);
    return { chunks, cache: response.headers.get('x-gateway-cache'), text: chunks.map((c) => c.choices[0]?.delta.content ?? '').join('') };
  };

  it('15.6: a streamed request hit by the cache is replayed as a stream the openai client reads', async () => {
    f.fake.script({ text: 'Cached for the stream.' });
    const json = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    const replay = await streamed({ stream_options: { include_usage: true } });
    assert.equal(replay.cache, 'hit');
    assert.equal(replay.text, 'Cached for the stream.');
    assert.equal(replay.chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(replay.chunks.at(-1)?.usage, json.usage, 'the usage chunk the client asked for');
    assert.equal(f.fake.requests.length, 1);
  });

  it('15.6: a streamed answer is stored once assembled: JSON and stream hits give the same answer, tool calls included', async () => {
    f.fake.script({ toolCall: { name: 'get_weather', arguments: { city: 'Paris' } } });
    const first = await streamed();
    assert.equal(first.cache, 'miss');
    const again = await client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const final = await again.finalChatCompletion();
    assert.equal(final.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(final.choices[0]?.message.tool_calls?.[0]?.type, 'function');
    const call = final.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Paris' });
    const json = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    assert.deepEqual(json.choices[0]?.message.tool_calls, final.choices[0]?.message.tool_calls);
    assert.equal(f.fake.requests.length, 1);
  });

  it('15.6: legacy completions are cached and replayed as a stream too', async () => {
    await f.create('/v1/admin/routes', { name: 'complete', type: 'completions', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: 60 } } });
    f.fake.script({ text: 'Once upon a time.' });
    const options = { headers: { 'X-Gateway-route': 'complete' } };
    await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Tell me', stream: true }, options).then(async (s) => {
      for await (const _ of s) void _;
    });
    const json = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Tell me' }, options);
    assert.equal(json.choices[0]?.text, 'Once upon a time.');
    const replay = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Tell me', stream: true }, options);
    let text = '';
    for await (const chunk of replay) text += chunk.choices[0]?.text ?? '';
    assert.equal(text, 'Once upon a time.');
    assert.equal(f.fake.requests.length, 1);
  });
});

describe('response cache: the byte bound', () => {
  it('15.6: the least recently used answers are dropped past maxBytes; an answer over maxEntryBytes is not stored', async () => {
    const probe = await cacheFixture();
    const size = Number((await ask(probe, question('one')).expect(200)).headers['content-length']) + 'app:'.length + 64;
    await probe.close();
    const f = await cacheFixture({ cache: { maxBytes: Math.floor(size * 2.5), maxEntryBytes: size + 10 } });
    try {
      for (const word of ['one', 'two', 'three']) await ask(f, question(word)).expect(200);
      assert.equal((await ask(f, question('three')).expect(200)).headers['x-gateway-cache'], 'hit');
      assert.equal((await ask(f, question('two')).expect(200)).headers['x-gateway-cache'], 'hit');
      assert.equal((await ask(f, question('one')).expect(200)).headers['x-gateway-cache'], 'miss', 'the oldest was dropped');
      f.fake.script({ text: 'x'.repeat(size) });
      await ask(f, question('big')).expect(200);
      assert.equal((await ask(f, question('big')).expect(200)).headers['x-gateway-cache'], 'miss');
    } finally {
      await f.close();
    }
  });
});

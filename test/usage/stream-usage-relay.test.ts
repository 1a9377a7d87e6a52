// Usage the gateway asked for on a client's behalf never reaches a client that did not ask: no `usage` member, no usage-only chunk.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { withoutStreamUsage } from '../../src/usage/stream-usage.js';
import { chat, metered, ssePayloads } from './usage-helpers.js';

const rawText = (f: TrafficFixture, extra: Record<string, unknown>) =>
  chat(f, extra)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString()));
      r.on('end', () => done(null, text));
    })
    .expect(200);

describe('15.5 stream usage kept from clients that did not ask', () => {
  let f: TrafficFixture;
  let server: Server;
  let client: OpenAI;
  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = f.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, defaultHeaders: { 'x-gateway-route': 'chat' }, maxRetries: 0 });
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  it('15.5.1: the openai client streaming without include_usage sees no usage member on any chunk, yet usage is recorded', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.deepEqual((f.fake.requests[0]!.body as { stream_options?: unknown }).stream_options, { include_usage: true }, 'the gateway asked upstream');
    assert.ok(chunks.length >= 3);
    for (const chunk of chunks) assert.ok(!Object.hasOwn(chunk, 'usage'), `no usage member: ${JSON.stringify(chunk)}`);
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'Hello from the fake provider.');
    await metered(f, 1);
    assert.equal(f.gateway.usage.metered, 1);
  });

  it('15.5.1: the raw SSE stream carries no "usage" text at all when the client did not ask', async () => {
    const res = await rawText(f, { stream: true });
    assert.ok(!(res.body as string).includes('"usage"'), res.body as string);
    const payloads = ssePayloads(res.body as string);
    assert.equal(payloads.at(-1), '[DONE]');
    for (const payload of payloads.slice(0, -1)) JSON.parse(payload); // every chunk is still JSON
  });

  it('15.5.1: a client that asked keeps usage: null on each chunk and the usage chunk, as OpenAI sends them', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
    assert.equal(chunks.at(-1)?.usage?.total_tokens, 15);
  });
});

describe('15.5 stream usage: a server that puts usage on its last content chunk', () => {
  let f: TrafficFixture;
  let upstream: Server;
  beforeEach(async () => {
    // An OpenAI-compatible server of another make: the totals ride on the finishing chunk, which has a choice.
    upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const base = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini' };
        const chunks = [
          { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] },
          { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
        ];
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
      });
    });
    upstream.listen(0, '127.0.0.1');
    await new Promise((resolve) => upstream.once('listening', resolve));
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'other', type: 'openai', config: { api_base: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key: 'sk-test-provider-00002' }] });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'other' }] });
  });
  afterEach(async () => {
    await f.close();
    upstream.close();
  });

  it('15.5.1: the usage member is taken out of that chunk, which is still relayed, and the usage is recorded', async () => {
    const res = await rawText(f, { stream: true });
    const payloads = ssePayloads(res.body as string);
    assert.equal(payloads.length, 3);
    const last = JSON.parse(payloads[1]!) as { choices: Array<{ finish_reason: string }>; usage?: unknown };
    assert.equal(last.choices[0]?.finish_reason, 'stop');
    assert.ok(!Object.hasOwn(last, 'usage'));
    await metered(f, 1);
  });
});

describe('withoutStreamUsage', () => {
  it('cuts a trailing usage: null, drops a usage-only chunk, and leaves other payloads as they are', () => {
    assert.equal(withoutStreamUsage('{"id":"a","choices":[{"index":0}],"usage":null}'), '{"id":"a","choices":[{"index":0}]}');
    assert.equal(withoutStreamUsage('{"id":"a", "usage": null, "choices":[]}'), '{"id":"a","choices":[]}');
    assert.equal(withoutStreamUsage('{"id":"a","choices":[],"usage":{"total_tokens":4}}'), undefined);
    assert.equal(withoutStreamUsage('[DONE]'), '[DONE]');
    const quoted = '{"choices":[{"delta":{"content":"say \\"usage\\": null"}}]}';
    assert.equal(withoutStreamUsage(quoted), quoted, 'usage inside a text is not a usage member');
    assert.equal(withoutStreamUsage('{"usage": not json'), '{"usage": not json');
  });
});

// The response cache assembles a stream whose choice and tool call indexes are huge, negative or fractional without building sparse lists.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;

const HEAD = { id: 'chatcmpl-idx', object: 'chat.completion.chunk', created: 1760000000, model: 'gpt-x' };
const chunk = (choices: Json[]): Json => ({ ...HEAD, choices });

/** The largest array index: a list built by it would be 4,294,967,295 long. */
const HUGE = 4_294_967_294;

/** Choice 0 calls a tool at index HUGE; choices at index -1 and 2.5 answer text. */
const streamedChunks = (): Json[] => [
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: HUGE, id: 'call_h', type: 'function', function: { name: 'far', arguments: '{"a":' } }] }, finish_reason: null }]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: HUGE, function: { arguments: '1}' } }] }, finish_reason: null }]),
  chunk([{ index: -1, delta: { content: 'minus one' }, finish_reason: null }]),
  chunk([{ index: 2.5, delta: { content: 'two and a half' }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }, { index: -1, delta: {}, finish_reason: 'stop' }, { index: 2.5, delta: {}, finish_reason: 'stop' }]),
];

async function sendChunks(res: ServerResponse, chunks: Json[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const data of [...chunks.map((c) => JSON.stringify(c)), '[DONE]']) await new Promise<void>((resolve) => res.write(`data: ${data}\n\n`, () => resolve()));
  res.end();
}

describe('response cache: stream indexes an upstream chooses', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let calls = 0;
  let client: OpenAI;

  before(async () => {
    upstream = await listenRawOnLoopback(createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls += 1;
        void sendChunks(res, streamedChunks());
      });
    }));
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-oai-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'cached-oai', type: 'chat', models: [{ name: 'gpt-x', provider: 'oai' }], config: { cache: { ttl_seconds: 60 } } });
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, timeout: 5000, defaultHeaders: { 'x-gateway-route': 'cached-oai' } });
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });

  it('a tool call at index 4,294,967,294 and choices at -1 and 2.5 are cached as sent, at once, and a hit answers them', async () => {
    const params = { model: 'any', messages: [{ role: 'user' as const, content: 'Far call?' }] };
    const miss = await client.chat.completions.create({ ...params, stream: true }).withResponse();
    for await (const _part of miss.data) void _part;
    assert.equal(miss.response.headers.get('x-gateway-cache'), 'miss');
    // The entry is stored just after the stream ends; the gateway stays responsive meanwhile.
    const started = Date.now();
    let hit: { data: unknown; response: Response } | undefined;
    for (let tries = 0; tries < 50 && hit?.response.headers.get('x-gateway-cache') !== 'hit'; tries++) {
      hit = await client.chat.completions.create(params).withResponse();
      if (hit.response.headers.get('x-gateway-cache') !== 'hit') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(Date.now() - started < 3000, `the hit took ${Date.now() - started} ms`);
    assert.equal(hit!.response.headers.get('x-gateway-cache'), 'hit');
    const answer = hit!.data as Json;
    const choices = answer.choices as Json[];
    assert.deepEqual(choices.map((choice) => choice.index), [-1, 0, 2.5]);
    const message = choices[1]!.message as Json;
    assert.deepEqual(message.tool_calls, [{ id: 'call_h', type: 'function', function: { name: 'far', arguments: '{"a":1}' } }]);
    assert.equal((choices[0]!.message as Json).content, 'minus one');
    assert.equal((choices[2]!.message as Json).content, 'two and a half');
    assert.ok(calls <= 2);
  });
});

// POST /v1/messages on a route with the response cache: a hit answers as the miss did, in Anthropic's format, JSON and stream, thinking signatures and tool_use included.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { messagesToChat } from '../../src/messages/messages-request.js';

type Json = Record<string, unknown>;

const SIGNATURE = 'EqQBCgIYAhIMcacheSigAAAAGgxBdjrkzLoky3dl1pkiMOYds+sig/==';
const SIGNATURE_2 = 'EqQBCgIYAhIMsecondSigBBBBGgxBdjrkzLoky3dl1pkiMOYds+two/==';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pLmN0=';

/** Anthropic's answer: a signed thinking block, a redacted one, a second signed one, text and a tool call. */
const toolAnswer = (): Json => ({
  id: 'msg_01Cached', type: 'message', role: 'assistant', model: 'claude-x',
  content: [
    { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
    { type: 'redacted_thinking', data: REDACTED },
    { type: 'thinking', thinking: 'I will call the tool.', signature: SIGNATURE_2 },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_01Cached', name: 'get_weather', input: { city: 'Paris', units: 'metric' } },
  ],
  stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
});

/** The same answer as Anthropic streams it, text and arguments in deltas. */
const toolEvents = (): Json[] => [
  { type: 'message_start', message: { id: 'msg_01Streamed', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 120, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'the weather.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'thinking_delta', thinking: 'I will call the tool.' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: SIGNATURE_2 } },
  { type: 'content_block_stop', index: 2 },
  { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'Let me ' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'check.' } },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_start', index: 4, content_block: { type: 'tool_use', id: 'toolu_01Streamed', name: 'get_weather', input: {} } },
  { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } },
  { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: 'ris", "units": "metric"}' } },
  { type: 'content_block_stop', index: 4 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 45 } },
  { type: 'message_stop' },
];

/** A message as data: without the members the SDK's stream helper adds to what it assembles (`parsed_output`, `stop_details`). */
const asData = (message: object): Json => {
  const { parsed_output: _parsed, stop_details: _details, ...rest } = message as Json;
  return rest;
};

async function sendEvents(res: ServerResponse, events: Json[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const data of events) await new Promise<void>((resolve) => res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`, () => setTimeout(resolve, 2)));
  res.end();
}

describe('POST /v1/messages: the response cache', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let calls = 0;
  let answer: (res: ServerResponse) => void;
  let client: Anthropic;
  const tools = [{ name: 'get_weather', description: 'The weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
  const params = (content: string) => ({ model: 'any', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, tools, messages: [{ role: 'user' as const, content }] });

  before(async () => {
    upstream = await listenRawOnLoopback(createServer(async (req, res) => {
      for await (const _part of req);
      calls += 1;
      answer(res);
    }));
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'cached-claude', type: 'chat', models: [{ name: 'claude-x', provider: 'claude' }], config: { cache: { ttl_seconds: 60 } } });
    server = await listenOnLoopback(f.app);
    client = new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'cached-claude' } });
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });
  beforeEach(() => {
    calls = 0;
  });

  const created = async (content: string) => {
    const { data, response } = await client.messages.create(params(content)).withResponse();
    return { message: data, cache: response.headers.get('x-gateway-cache') };
  };
  const streamed = async (content: string) => {
    const stream = client.messages.stream(params(content));
    const { response } = await stream.withResponse();
    return { message: await stream.finalMessage(), cache: response.headers.get('x-gateway-cache') };
  };

  it('a JSON miss and its JSON hit are the same message (thinking with signatures, redacted thinking, text, tool_use); a stream hit on that entry gives it too', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(toolAnswer()));
    };
    const miss = await created('Weather in Paris?');
    const hit = await created('Weather in Paris?');
    assert.equal(miss.cache, 'miss');
    assert.equal(hit.cache, 'hit');
    assert.equal(calls, 1);
    assert.deepEqual(hit.message, miss.message);
    assert.deepEqual(miss.message.content, toolAnswer().content);
    assert.equal(miss.message.stop_reason, 'tool_use');

    const asStream = await streamed('Weather in Paris?');
    assert.equal(asStream.cache, 'hit');
    assert.equal(calls, 1);
    // A stream joins thinking blocks' text apart, as Anthropic streams them; the message is the same.
    assert.deepEqual(asData(asStream.message), asData(miss.message));
  });

  it('answers asked for under other client betas are kept apart; the same betas in another order hit', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(toolAnswer()));
    };
    const withBetas = async (betas: string[]) => (await client.beta.messages.create({ ...params('Weather in Nice?'), betas }).withResponse()).response.headers.get('x-gateway-cache');
    assert.equal(await withBetas([]), 'miss');
    assert.equal(await withBetas(['interleaved-thinking-2025-05-14']), 'miss');
    assert.equal(await withBetas(['interleaved-thinking-2025-05-14', 'token-efficient-tools-2025-02-19']), 'miss');
    assert.equal(await withBetas(['token-efficient-tools-2025-02-19', 'interleaved-thinking-2025-05-14']), 'hit');
    assert.equal(calls, 3);
  });

  it('a stream miss and its stream hit give the SDK the same final message; a JSON hit on that entry too', async () => {
    answer = (res) => void sendEvents(res, toolEvents());
    const miss = await streamed('Weather in Lyon?');
    const hit = await streamed('Weather in Lyon?');
    assert.equal(miss.cache, 'miss');
    assert.equal(hit.cache, 'hit');
    assert.equal(calls, 1);
    assert.deepEqual(hit.message, miss.message);
    assert.deepEqual(miss.message.content, [
      { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'thinking', thinking: 'I will call the tool.', signature: SIGNATURE_2 },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01Streamed', name: 'get_weather', input: { city: 'Paris', units: 'metric' } },
    ]);
    assert.deepEqual(miss.message.usage, { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 });

    const asJson = await created('Weather in Lyon?');
    assert.equal(asJson.cache, 'hit');
    assert.equal(calls, 1);
    assert.deepEqual(asData(asJson.message), asData(miss.message));
  });

  it('a Messages request and a chat request of the same translated body keep apart entries, in one application', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(toolAnswer()));
    };
    const { chat } = messagesToChat({ model: 'any', max_tokens: 256, messages: [{ role: 'user', content: 'Same body?' }] });
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'cached-claude' } });
    const viaChat = await openai.chat.completions.create(chat as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
    assert.equal(viaChat.response.headers.get('x-gateway-cache'), 'miss');
    const viaMessages = await client.messages.create({ model: 'any', max_tokens: 256, messages: [{ role: 'user', content: 'Same body?' }] }).withResponse();
    assert.equal(viaMessages.response.headers.get('x-gateway-cache'), 'miss');
    assert.equal(calls, 2);
    const again = await client.messages.create({ model: 'any', max_tokens: 256, messages: [{ role: 'user', content: 'Same body?' }] }).withResponse();
    assert.equal(again.response.headers.get('x-gateway-cache'), 'hit');
    assert.equal(calls, 2);
  });
});

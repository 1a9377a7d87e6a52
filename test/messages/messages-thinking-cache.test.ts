// POST /v1/messages through Anthropic's SDK: extended thinking (request, thinking blocks with signatures, history) and prompt cache breakpoints reach the upstream and come back.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;
type Answer = (res: ServerResponse, body: Json) => void;

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+sig/==';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pLmN0=';

const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
/** Writes Anthropic's events, one write each, waiting a little between them so the gateway reads them apart. */
async function sendEvents(res: ServerResponse, events: Json[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const data of events) await new Promise<void>((resolve) => res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`, () => setTimeout(resolve, 5)));
  res.end();
}

/** An Anthropic answer that thought (a signed block and a redacted one), then answered. */
const thoughtAnswer = (thinking = 'Let me add 2 and 2. That makes 4.', text = 'The answer is 4.'): Json => ({
  id: 'msg_01Thought', type: 'message', role: 'assistant', model: 'claude-x',
  content: [{ type: 'thinking', thinking, signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED }, { type: 'text', text }],
  stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 50, output_tokens: 30 },
});

/** The same answer as Anthropic streams it, the thinking in deltas (the last one ending in `sk`, which begins a form of the provider key). */
const thoughtEvents = (): Json[] => [
  { type: 'message_start', message: { id: 'msg_01Thought', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1234, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me add 2 and 2. ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'That makes 4, I ask' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'The answer is 4.' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } },
  { type: 'message_stop' },
];

describe('POST /v1/messages: extended thinking and prompt caching', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let answer: Answer;
  let sent: Json;
  const client = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const thinkingRequest = { model: 'any', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, messages: [{ role: 'user' as const, content: 'What is 2 + 2?' }] };

  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      sent = body;
      answer(res, sent);
    });
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, streamWindowing: { stepChars: 20, windowChars: 50 } });
    await addTranslatedRoutes(f, upstream.url, { openai: true });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });
  const setPolicy = (policy: Json) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);
  afterEach(async () => {
    await request(f.app).delete('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin);
  });

  it('thinking reaches the Anthropic upstream; thinking blocks come back with their signature, redacted ones as they came', async () => {
    answer = (res) => sendJson(res, thoughtAnswer());
    const message = await client('via-anthropic').messages.create(thinkingRequest);
    assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(sent.max_tokens, 4096);
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'Let me add 2 and 2. That makes 4.', signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'text', text: 'The answer is 4.' },
    ]);
    await client('via-anthropic').messages.create({ ...thinkingRequest, thinking: { type: 'disabled' } });
    assert.deepEqual(sent.thinking, { type: 'disabled' });
    // An OpenAI-format client of the same route reads the thinking as reasoning_content.
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } });
    const chat = await openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'What is 2 + 2?' }] });
    assert.equal((chat.choices[0]!.message as unknown as Json).reasoning_content, 'Let me add 2 and 2. That makes 4.');
    assert.equal(chat.choices[0]!.message.content, 'The answer is 4.');
  });

  it('a stream carries the thinking deltas, the signature_delta and the redacted block; message_start reports the input tokens (0 over an OpenAI-format upstream, whose final usage has them)', async () => {
    answer = (res) => void sendEvents(res, thoughtEvents());
    const stream = client('via-anthropic').messages.stream(thinkingRequest);
    const events: Anthropic.MessageStreamEvent[] = [];
    stream.on('streamEvent', (event) => events.push(structuredClone(event))); // the SDK builds its message on message_start's
    const message = await stream.finalMessage();
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'Let me add 2 and 2. That makes 4, I ask', signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'text', text: 'The answer is 4.' },
    ]);
    const start = events.find((event) => event.type === 'message_start');
    assert.deepEqual(start?.type === 'message_start' ? start.message.usage : undefined, { input_tokens: 1234, output_tokens: 1, cache_creation_input_tokens: 200, cache_read_input_tokens: 1000 });
    const signatures = events.filter((event) => event.type === 'content_block_delta' && event.delta.type === 'signature_delta');
    assert.equal(signatures.length, 1);
    assert.deepEqual(message.usage, { input_tokens: 1234, output_tokens: 30, cache_creation_input_tokens: 200, cache_read_input_tokens: 1000 });
    // An OpenAI-format upstream reports usage only at the end: message_start counts 0, and message_delta carries the input tokens.
    const chunk = (delta: Json, finish: string | null = null): Json => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }], usage: null });
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunks = [chunk({ role: 'assistant', content: 'Hi' }), chunk({}, 'stop'), { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [], usage: { prompt_tokens: 77, completion_tokens: 3, total_tokens: 80 } }];
      res.end(`${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`);
    };
    const plain = client('via-openai').messages.stream({ model: 'any', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    const openaiEvents: Anthropic.MessageStreamEvent[] = [];
    plain.on('streamEvent', (event) => openaiEvents.push(structuredClone(event)));
    const plainMessage = await plain.finalMessage();
    const plainStart = openaiEvents.find((event) => event.type === 'message_start');
    assert.equal(plainStart?.type === 'message_start' ? plainStart.message.usage.input_tokens : undefined, 0);
    assert.equal(plainMessage.usage.input_tokens, 77);
    assert.equal(plainMessage.usage.output_tokens, 3);
  });

  it('a tool-use turn that continues a thinking turn reaches the upstream with its thinking blocks intact', async () => {
    const tools = [{ name: 'get_weather', description: 'The weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
    answer = (res) => sendJson(res, {
      id: 'msg_01Tool', type: 'message', role: 'assistant', model: 'claude-x',
      content: [{ type: 'thinking', thinking: 'I need the weather in Paris.', signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED }, { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }],
      stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 40, output_tokens: 20 },
    });
    const first = await client('via-anthropic').messages.create({ ...thinkingRequest, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    assert.equal(first.stop_reason, 'tool_use');
    answer = (res) => sendJson(res, thoughtAnswer('It is sunny.', 'Sunny in Paris.'));
    await client('via-anthropic').messages.create({
      ...thinkingRequest,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny, 24°C' }] },
      ],
    });
    const turns = sent.messages as Array<{ role: string; content: unknown }>;
    assert.deepEqual(turns[1], {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I need the weather in Paris.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    assert.deepEqual(turns[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny, 24°C' }] });
    assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 2048 });
  });

  it('cache_control reaches the Anthropic upstream on system blocks, message blocks, tool results and tools', async () => {
    answer = (res) => sendJson(res, thoughtAnswer());
    const ephemeral = { type: 'ephemeral' as const };
    await client('via-anthropic').messages.create({
      model: 'any', max_tokens: 256,
      system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'A long reference document.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} }, cache_control: ephemeral }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'First question.', cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'found', cache_control: ephemeral }, { type: 'text', text: 'And now?' }] },
      ],
    });
    assert.deepEqual(sent.system, [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'A long reference document.', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    assert.deepEqual((sent.tools as Json[])[0], { name: 'lookup', input_schema: { type: 'object', properties: {} }, cache_control: ephemeral });
    const turns = sent.messages as Array<{ role: string; content: unknown }>;
    assert.deepEqual(turns[0], { role: 'user', content: [{ type: 'text', text: 'First question.', cache_control: ephemeral }] });
    assert.deepEqual(turns[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'found', cache_control: ephemeral }, { type: 'text', text: 'And now?' }] });
  });

  it('an OpenAI-format upstream gets neither thinking nor cache_control nor thinking blocks: thinking becomes reasoning_effort', async () => {
    answer = (res) => sendJson(res, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'Done.', reasoning_content: 'Thought about it.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });
    const message = await client('via-openai').messages.create({
      model: 'any', max_tokens: 20000, thinking: { type: 'enabled', budget_tokens: 16384 },
      system: [{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} }, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Earlier.', signature: SIGNATURE }, { type: 'text', text: 'A' }] },
        { role: 'user', content: 'Again' },
      ],
    });
    assert.equal(sent.thinking, undefined);
    assert.equal(sent.reasoning_effort, 'high');
    assert.ok(!JSON.stringify(sent).includes('cache_control'), JSON.stringify(sent));
    assert.ok(!JSON.stringify(sent).includes('thinking'), JSON.stringify(sent));
    assert.deepEqual(sent.messages, [
      { role: 'system', content: 'One.\n\nTwo.' },
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: 'A' },
      { role: 'user', content: 'Again' },
    ]);
    assert.deepEqual(sent.tools, [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }]);
    // Its reasoning comes back as a thinking block without a signature.
    assert.deepEqual(message.content, [{ type: 'thinking', thinking: 'Thought about it.', signature: '' }, { type: 'text', text: 'Done.' }]);
  });

  it('a Gemini upstream gets the thinking budget as thinkingConfig', async () => {
    answer = (res) => sendJson(res, { candidates: [{ content: { role: 'model', parts: [{ text: 'Four.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 } });
    await client('via-gemini').messages.create(thinkingRequest);
    assert.deepEqual((sent.generationConfig as Json).thinkingConfig, { thinkingBudget: 2048 });
    assert.ok(!JSON.stringify(sent).includes('"thinking"'), JSON.stringify(sent));
  });

  it('adaptive thinking (as Claude Code sends it) reaches each provider: as sent to Anthropic, as dynamic thinking to Gemini, as nothing or an effort to an OpenAI-format server', async () => {
    answer = (res) => sendJson(res, thoughtAnswer());
    const adaptive = { model: 'any', max_tokens: 4096, messages: [{ role: 'user', content: 'What is 2 + 2?' }] };
    const post = (route: string, thinking: Json) => request(server.base).post('/v1/messages').set('x-api-key', f.developerKey).set('x-gateway-route', route).send({ ...adaptive, thinking });
    assert.equal((await post('via-anthropic', { type: 'adaptive' })).status, 200);
    assert.deepEqual(sent.thinking, { type: 'adaptive' });
    assert.equal((await post('via-anthropic', { type: 'adaptive', display: 'summarized', budget_tokens: 2048 })).status, 200);
    assert.deepEqual(sent.thinking, { type: 'adaptive', budget_tokens: 2048, display: 'summarized' });
    answer = (res) => sendJson(res, { candidates: [{ content: { role: 'model', parts: [{ text: 'Four.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 } });
    assert.equal((await post('via-gemini', { type: 'adaptive' })).status, 200);
    assert.deepEqual((sent.generationConfig as Json).thinkingConfig, { thinkingBudget: -1 });
    answer = (res) => sendJson(res, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'Four.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } });
    assert.equal((await post('via-openai', { type: 'adaptive' })).status, 200);
    assert.equal(sent.reasoning_effort, undefined);
    assert.equal(sent.thinking, undefined);
    assert.equal((await post('via-openai', { type: 'adaptive', budget_tokens: 2048 })).status, 200);
    assert.equal(sent.reasoning_effort, 'low');
    // Its bounds: a budget as for enabled thinking, a display word of lower-case letters.
    sent = {};
    for (const [thinking, param] of [[{ type: 'adaptive', budget_tokens: 512 }, 'thinking.budget_tokens'], [{ type: 'adaptive', budget_tokens: 4096 }, 'thinking.budget_tokens'], [{ type: 'adaptive', display: 'x'.repeat(33) }, 'thinking.display'], [{ type: 'disabled', display: 'summarized' }, 'thinking.display']] as Array<[Json, string]>) {
      const res = await post('via-anthropic', thinking);
      assert.equal(res.status, 400, `${param}: ${res.text}`);
      assert.ok(String(res.body.error.message).includes(param), `${param}: ${res.text}`);
    }
    assert.deepEqual(sent, {}, 'no invalid request reached the upstream');
  });

  it('invalid thinking and cache_control are 400 in Anthropic\'s shape, naming the field, and nothing is sent', async () => {
    sent = {};
    answer = (res) => sendJson(res, thoughtAnswer());
    const cases: Array<[Json, string]> = [
      [{ thinking: { type: 'enabled', budget_tokens: 512 } }, 'thinking.budget_tokens'],
      [{ thinking: { type: 'enabled', budget_tokens: 4096 } }, 'thinking.budget_tokens'],
      [{ thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
      [{ thinking: { type: 'enabled', budget_tokens: 2048.5 } }, 'thinking.budget_tokens'],
      [{ thinking: { type: 'auto' } }, 'thinking.type'],
      [{ thinking: { type: 'disabled', budget_tokens: 2048 } }, 'thinking.budget_tokens'],
      [{ system: [{ type: 'text', text: 'S', cache_control: { type: 'persistent' } }] }, 'system[0].cache_control.type'],
      [{ messages: [{ role: 'user', content: [{ type: 'text', text: 'Q', cache_control: { type: 'ephemeral', ttl: '2h' } }] }] }, 'messages[0].content[0].cache_control.ttl'],
      [{ tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', scope: 'global' } }] }, 'tools[0].cache_control.scope'],
      [{ messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'T' }] }, { role: 'user', content: 'Go' }] }, 'messages[1].content[0].signature'],
      [{ messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'T', signature: 'x'.repeat(64 * 1024 + 1) }] }, { role: 'user', content: 'Go' }] }, 'messages[1].content[0].signature'],
      [{ messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'redacted_thinking' }] }, { role: 'user', content: 'Go' }] }, 'messages[1].content[0].data'],
      [{ messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'T', signature: 's', cache_control: { type: 'ephemeral' } }] }, { role: 'user', content: 'Go' }] }, 'messages[1].content[0].cache_control'],
    ];
    for (const [change, param] of cases) {
      const res = await request(server.base).post('/v1/messages').set('x-api-key', f.developerKey).set('x-gateway-route', 'via-anthropic')
        .send({ model: 'any', max_tokens: 4096, messages: [{ role: 'user', content: 'Q' }], ...change });
      assert.equal(res.status, 400, `${param}: ${res.text}`);
      assert.equal(res.body.type, 'error', res.text);
      assert.equal(res.body.error.type, 'invalid_request_error', res.text);
      assert.ok(String(res.body.error.message).includes(param), `${param}: ${res.text}`);
    }
    assert.deepEqual(sent, {}, 'no invalid request reached the upstream');
    // The SDK raises its own error class.
    await assert.rejects(client('via-anthropic').messages.create({ ...thinkingRequest, max_tokens: 2048 }), (error: unknown) => error instanceof Anthropic.BadRequestError && /budget_tokens/.test(error.message));
  });

  it('thinking text meets the output checks: a JSON answer is withheld, a stream cut before the word, and DLP masks it but never the signature', async () => {
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } });
    answer = (res) => sendJson(res, thoughtAnswer('I could reveal the forbidden plan.', 'No.'));
    await assert.rejects(client('via-anthropic').messages.create(thinkingRequest), (error: unknown) => error instanceof Anthropic.BadRequestError && /guardrail_rejected|banned_words/.test(error.message));
    answer = (res) => void sendEvents(res, [
      ...thoughtEvents().slice(0, 2),
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'A long and entirely harmless opening line. I could reveal the forb' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'idden plan.' } },
      ...thoughtEvents().slice(4),
    ]);
    let thinking = '';
    const streamed = await (async () => {
      for await (const event of client('via-anthropic').messages.stream(thinkingRequest)) if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta') thinking += event.delta.thinking;
    })().then(() => undefined, (caught: unknown) => caught);
    assert.ok(streamed instanceof Error, `the stream ended as a message: ${thinking}`);
    assert.ok(!thinking.includes('forbidden'), thinking);
    await setPolicy({ mode: 'reject', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });
    answer = (res) => sendJson(res, thoughtAnswer('Write to jane.doe@example.com.', 'Done.'));
    const masked = await client('via-anthropic').messages.create(thinkingRequest);
    assert.deepEqual(masked.content[0], { type: 'thinking', thinking: 'Write to ********************.', signature: SIGNATURE });
    assert.deepEqual(masked.content[1], { type: 'redacted_thinking', data: REDACTED });
    // Streamed, the thinking text is masked as it flows (an address cut across two deltas) and stays one block with its signature.
    answer = (res) => void sendEvents(res, [
      ...thoughtEvents().slice(0, 2),
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Write to jane.d' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'oe@example.com.' } },
      ...thoughtEvents().slice(4),
    ]);
    const final = await client('via-anthropic').messages.stream(thinkingRequest).finalMessage();
    assert.deepEqual(final.content.slice(0, 2), [{ type: 'thinking', thinking: 'Write to ********************.', signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED }]);
  });
});

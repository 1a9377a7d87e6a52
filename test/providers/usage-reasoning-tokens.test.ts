// Reasoning (thinking) token counts in usage, through the official clients: Anthropic's thinking_tokens as OpenAI's reasoning_tokens, and back.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startTranslatedGateway, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { LoopbackServer } from '../helpers/loopback-server.js';

type Answer = (res: ServerResponse) => void;

const json = (body: unknown): Answer => (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const sse = (payloads: Array<Record<string, unknown> | string>): Answer => (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(payloads.map((data) => (typeof data === 'string' ? `data: ${data}\n\n` : `event: ${String(data.type ?? 'message')}\ndata: ${JSON.stringify(data)}\n\n`)).join(''));
};

/** An Anthropic answer that thought: 40 of its 52 output tokens were thinking. */
const anthropicUsage = { input_tokens: 20, output_tokens: 52, output_tokens_details: { thinking_tokens: 40 } };
const anthropicMessage = {
  id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'end_turn', stop_sequence: null, usage: anthropicUsage,
  content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }, { type: 'text', text: 'Four.' }],
};
const anthropicStream = [
  { type: 'message_start', message: { ...anthropicMessage, content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Four.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 52, output_tokens_details: { thinking_tokens: 40 } } },
  { type: 'message_stop' },
];
const openaiUsage = { prompt_tokens: 20, completion_tokens: 52, total_tokens: 72, completion_tokens_details: { reasoning_tokens: 40 } };

describe('usage: reasoning tokens between the OpenAI and Anthropic shapes', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let answer: Answer;
  const openai = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const anthropic = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const ask = { model: 'any', messages: [{ role: 'user' as const, content: '2+2?' }] };

  let close: () => Promise<void>;
  before(async () => {
    ({ f, server, close } = await startTranslatedGateway((res) => answer(res)));
  });
  after(() => close());

  it('an Anthropic provider\'s thinking_tokens reach an OpenAI client as completion_tokens_details.reasoning_tokens, JSON and streamed', async () => {
    answer = json(anthropicMessage);
    const completion = await openai('via-anthropic').chat.completions.create(ask);
    assert.deepEqual(completion.usage, openaiUsage);

    answer = sse(anthropicStream);
    const stream = await openai('via-anthropic').chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    let usage: unknown;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    assert.deepEqual(usage, openaiUsage);
  });

  it('an OpenAI-format model\'s reasoning_tokens and a Gemini model\'s thoughts reach the Anthropic SDK as output_tokens_details.thinking_tokens', async () => {
    const expected = { input_tokens: 20, output_tokens: 52, output_tokens_details: { thinking_tokens: 40 } };
    const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'Four.' }, finish_reason: 'stop' }], usage: openaiUsage };
    answer = json(completion);
    const message = await anthropic('via-openai').messages.create({ ...ask, max_tokens: 256 });
    assert.deepEqual(message.usage, expected);

    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }] });
    answer = sse([chunk({ role: 'assistant', content: 'Four.' }), chunk({}, 'stop'), { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [], usage: openaiUsage }, '[DONE]']);
    const streamed = await anthropic('via-openai').messages.stream({ ...ask, max_tokens: 256 }).finalMessage();
    assert.deepEqual(streamed.usage, expected);

    answer = json({ candidates: [{ content: { role: 'model', parts: [{ text: 'Four.' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 12, thoughtsTokenCount: 40, totalTokenCount: 72 } });
    const fromGemini = await anthropic('via-gemini').messages.create({ ...ask, max_tokens: 256 });
    assert.deepEqual(fromGemini.usage, expected);
  });
});

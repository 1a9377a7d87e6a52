// POST /v1/messages through Anthropic's official SDK over upstreams scripted event by event: how streams end, stop sequences, cache usage and tool results.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Answer = (res: ServerResponse, body: Record<string, unknown>) => void;

const sse = (events: Array<Record<string, unknown> | string>): string =>
  events.map((data) => (typeof data === 'string' ? `data: ${data}\n\n` : `${typeof data.type === 'string' && !('object' in data) ? `event: ${data.type}\n` : ''}data: ${JSON.stringify(data)}\n\n`)).join('');
const sendSse = (res: ServerResponse, events: Array<Record<string, unknown> | string>): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(sse(events));
};
const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

describe('POST /v1/messages: protocol fidelity over scripted upstreams', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let answer: Answer;
  let sent: Record<string, unknown>;
  const client = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const hi = { model: 'any', max_tokens: 32, messages: [{ role: 'user' as const, content: 'Hi' }] };

  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      sent = body;
      answer(res, sent);
    });
    f = await createTrafficFixture();
    await addTranslatedRoutes(f, upstream.url, { openai: true });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });

  it('an upstream stream that reports an error mid-way ends in an Anthropic error event, not a finished message', async () => {
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hel' }), { error: { message: 'The server had an error while processing your request.', type: 'server_error' } }]);
    const stream = client('via-openai').messages.stream(hi);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    await assert.rejects(stream.finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.match(error.message, /api_error/);
      assert.match(error.message, /The server had an error while processing your request/);
      return true;
    });
    assert.equal(text, 'Hel', 'the text before the error is delivered');
  });

  it('an upstream stream that ends with neither a finish reason nor [DONE] ends in an error event, not end_turn', async () => {
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo' })]);
    await assert.rejects(client('via-openai').messages.stream(hi).finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.match(error.message, /the stream ended before its finish reason/);
      return true;
    });
    // A stream that ends with [DONE] but without a finish reason is whole.
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hello' }), '[DONE]']);
    const message = await client('via-openai').messages.stream(hi).finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello' }]);
    assert.equal(message.stop_reason, 'end_turn');
  });

  const cacheUsage = { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 200, output_tokens: 3 };
  const stoppedAtSequence = { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'One, two, ' }], stop_reason: 'stop_sequence', stop_sequence: 'three', usage: cacheUsage };
  const stoppedAtSequenceStream = [
    { type: 'message_start', message: { ...stoppedAtSequence, content: [], stop_reason: null, stop_sequence: null, usage: { ...cacheUsage, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'One, two, ' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: 'three' }, usage: { output_tokens: 3 } },
    { type: 'message_stop' },
  ];

  it('an Anthropic upstream\'s stop at a stop sequence, and its cache reads and writes, reach the SDK as Anthropic reported them', async () => {
    const request = { ...hi, stop_sequences: ['three'] };
    const expectedUsage = { input_tokens: 5, output_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 200 };
    answer = (res) => sendJson(res, stoppedAtSequence);
    const message = await client('via-anthropic').messages.create(request);
    assert.equal(sent.stop_sequences && (sent.stop_sequences as string[])[0], 'three');
    assert.equal(message.stop_reason, 'stop_sequence');
    assert.equal(message.stop_sequence, 'three');
    assert.deepEqual(message.usage, expectedUsage);

    answer = (res) => sendSse(res, stoppedAtSequenceStream);
    const streamed = await client('via-anthropic').messages.stream(request).finalMessage();
    assert.equal(streamed.stop_reason, 'stop_sequence');
    assert.equal(streamed.stop_sequence, 'three');
    assert.deepEqual(streamed.content, [{ type: 'text', text: 'One, two, ' }]);
    assert.deepEqual(streamed.usage, expectedUsage);
  });

  it('an OpenAI client through the Anthropic adapter sees the stop sequence as the choice\'s stop_reason and cache writes in usage', async () => {
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } });
    answer = (res) => sendJson(res, stoppedAtSequence);
    const completion = await openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Count' }], stop: ['three'] });
    const choice = completion.choices[0] as OpenAI.Chat.ChatCompletion.Choice & { stop_reason?: unknown };
    assert.equal(choice.finish_reason, 'stop');
    assert.equal(choice.stop_reason, 'three');
    assert.deepEqual(completion.usage, { prompt_tokens: 305, completion_tokens: 3, total_tokens: 308, prompt_tokens_details: { cached_tokens: 200 }, cache_creation_input_tokens: 100 });

    answer = (res) => sendSse(res, stoppedAtSequenceStream);
    const stream = await openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Count' }], stop: ['three'], stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const item of stream) chunks.push(item);
    const finished = chunks.find((item) => item.choices[0]?.finish_reason)!.choices[0] as OpenAI.Chat.ChatCompletionChunk.Choice & { stop_reason?: unknown };
    assert.equal(finished.finish_reason, 'stop');
    assert.equal(finished.stop_reason, 'three');
    assert.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: 305, completion_tokens: 3, total_tokens: 308, prompt_tokens_details: { cached_tokens: 200 }, cache_creation_input_tokens: 100 });
  });

  it('Anthropic\'s model_context_window_exceeded reaches an OpenAI client as length and the Anthropic SDK as max_tokens', async () => {
    answer = (res) => sendJson(res, { ...stoppedAtSequence, stop_reason: 'model_context_window_exceeded', stop_sequence: null });
    const message = await client('via-anthropic').messages.create(hi);
    assert.equal(message.stop_reason, 'max_tokens');
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } });
    const completion = await openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(completion.choices[0]!.finish_reason, 'length');
  });

  it('a tool_result with an image reaches every provider with its image, in the user turn after the tool message; a block that cannot be translated is 400 naming it', async () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' } };
    const turns = (content: Anthropic.ToolResultBlockParam['content'], isError = false): Anthropic.MessageParam[] => [
      { role: 'user', content: 'Take a screenshot' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content, is_error: isError }] },
    ];
    answer = (res) => sendJson(res, { ...stoppedAtSequence, stop_reason: 'end_turn', stop_sequence: null });
    await client('via-anthropic').messages.create({ ...hi, messages: turns([{ type: 'text', text: 'Here it is' }, image]) });
    assert.deepEqual((sent.messages as Array<{ content: unknown }>)[2]!.content, [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Here it is\n[1 image from this tool result follows]' },
      image,
    ]);

    // OpenAI takes only text in a tool message: the image goes in the user message after it.
    answer = (res) => sendJson(res, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
    await client('via-openai').messages.create({ ...hi, messages: turns([image], true) });
    assert.deepEqual((sent.messages as unknown[]).slice(2), [
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Error: [1 image from this tool result follows]' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
    ]);

    // Gemini: the function response, then the image as inline data of the user turn.
    answer = (res) => sendJson(res, { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } });
    await client('via-gemini').messages.create({ ...hi, messages: turns([image]) });
    assert.match(JSON.stringify(sent.contents), /"inlineData":\{"mimeType":"image\/png","data":"iVBORw0KGgo="\}/);

    sent = {};
    const search = { type: 'search_result', source: 'https://example.com', title: 'Result', content: [{ type: 'text', text: 'notes' }] } as unknown as Anthropic.TextBlockParam;
    await assert.rejects(client('via-openai').messages.create({ ...hi, messages: turns([{ type: 'text', text: 'Attached' }, search]) }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^messages\[2\]\.content\[0\]\.content\[1\] has the type "search_result", which this gateway does not translate in a tool result/);
      return true;
    });
    assert.deepEqual(sent, {}, 'a provider was called');
  });

  it('a tool_result with a document reaches every provider with its document, after the tool message as its images do; a document it cannot carry is 400 naming it', async () => {
    const notes = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'meeting notes' }, title: 'notes.txt' } as unknown as Anthropic.TextBlockParam;
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' } } as unknown as Anthropic.TextBlockParam;
    const turns = (content: Anthropic.ToolResultBlockParam['content']): Anthropic.MessageParam[] => [
      { role: 'user', content: 'Fetch the files' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'fetch', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }, { type: 'text', text: 'Summarise them.' }] },
    ];
    const notesData = Buffer.from('meeting notes').toString('base64');
    answer = (res) => sendJson(res, { ...stoppedAtSequence, stop_reason: 'end_turn', stop_sequence: null });
    await client('via-anthropic').messages.create({ ...hi, messages: turns([{ type: 'text', text: 'Two files' }, notes, pdf]) });
    assert.deepEqual((sent.messages as Array<{ content: unknown }>)[2]!.content, [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Two files\n[2 documents from this tool result follow]' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'meeting notes' }, title: 'notes.txt' },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'document.pdf' },
      { type: 'text', text: 'Summarise them.' },
    ]);

    answer = (res) => sendJson(res, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
    await client('via-openai').messages.create({ ...hi, messages: turns([notes]) });
    assert.deepEqual((sent.messages as unknown[]).slice(2), [
      { role: 'tool', tool_call_id: 'toolu_1', content: '[1 document from this tool result follows]' },
      { role: 'user', content: [{ type: 'file', file: { file_data: `data:text/plain;base64,${notesData}`, filename: 'notes.txt' } }, { type: 'text', text: 'Summarise them.' }] },
    ]);

    answer = (res) => sendJson(res, { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } });
    await client('via-gemini').messages.create({ ...hi, messages: turns([notes]) });
    assert.match(JSON.stringify(sent.contents), new RegExp(`"inlineData":\\{"mimeType":"text/plain","data":"${notesData}"\\}`));

    sent = {};
    const linked = { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } } as unknown as Anthropic.TextBlockParam;
    await assert.rejects(client('via-openai').messages.create({ ...hi, messages: turns([linked]) }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^messages\[2\]\.content\[0\]\.content\[0\]\.source of type "url" is not translated/);
      return true;
    });
    assert.deepEqual(sent, {}, 'a provider was called');
  });

  it('parallel tool calls an OpenAI upstream interleaves arrive as whole tool_use blocks; sequential ones still stream live', async () => {
    const usage = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [], usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 } };
    const expected = [
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_time', input: { zone: 'CET' } },
    ];
    // Both calls announced first, then their arguments in turns.
    answer = (res) => sendSse(res, [
      chunk({ role: 'assistant', content: null, tool_calls: [
        { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
        { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
      ] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"zone":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] }),
      chunk({}, 'tool_calls'), usage, '[DONE]',
    ]);
    const interleaved = await client('via-openai').messages.stream(hi).finalMessage();
    assert.deepEqual(interleaved.content, expected);
    assert.equal(interleaved.stop_reason, 'tool_use');

    // One call after the other, as OpenAI streams them: the second block starts after the first's arguments, live.
    answer = (res) => sendSse(res, [
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"zone":"CET"}' } }] }),
      chunk({}, 'tool_calls'), usage, '[DONE]',
    ]);
    const stream = client('via-openai').messages.stream(hi);
    const events: string[] = [];
    for await (const event of stream) {
      if (event.type === 'content_block_start') events.push(`start ${event.index}`);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') events.push(`delta ${event.index}`);
      if (event.type === 'content_block_stop') events.push(`stop ${event.index}`);
    }
    assert.deepEqual(events, ['start 0', 'delta 0', 'delta 0', 'stop 0', 'start 1', 'delta 1', 'stop 1']);
    assert.deepEqual((await stream.finalMessage()).content, expected);
  });
});

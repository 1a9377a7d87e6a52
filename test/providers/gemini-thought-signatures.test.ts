// Gemini's thought signatures on function calls, through the official openai client: answered as extra_content, sent back on the next turn.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Answer = (res: ServerResponse) => void;

const SIGNATURE = 'CiQB0e2Kb7signature-of-the-reasoning==';
/** Two parallel calls, as Gemini 3 answers them: the signature on the first call's part only. */
const callParts = [
  { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
  { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
];
const answerWith = (parts: unknown[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
});

describe('gemini adapter: thought signatures of function calls', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let answer: Answer;
  let sent: Record<string, unknown>;
  let client: OpenAI;
  const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  const ask: OpenAI.Chat.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris and Rome?' };

  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      sent = body;
      answer(res);
    });
    f = await createTrafficFixture();
    await addTranslatedRoutes(f, upstream.url);
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-gemini' } });
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });

  it('answers a call\'s signature as extra_content.google.thought_signature, and sends it back on that call\'s part', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answerWith(callParts)));
    };
    const first = await client.chat.completions.create({ model: 'any', messages: [ask], tools });
    const message = first.choices[0]!.message;
    const calls = message.tool_calls as Array<OpenAI.Chat.ChatCompletionMessageFunctionToolCall & { extra_content?: unknown }>;
    assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
    assert.deepEqual(calls[0]!.extra_content, { google: { thought_signature: SIGNATURE } });
    assert.equal('extra_content' in calls[1]!, false, 'the second call had no signature');

    // The usual loop: the assistant message as answered, then each tool's result.
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answerWith([{ text: 'Sunny in both.' }])));
    };
    await client.chat.completions.create({
      model: 'any', tools,
      messages: [ask, message, ...calls.map((call): OpenAI.Chat.ChatCompletionToolMessageParam => ({ role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' }))],
    });
    const contents = sent.contents as Array<{ role: string; parts: unknown[] }>;
    assert.deepEqual(contents[1], { role: 'model', parts: callParts });
  });

  it('streams the signature in the tool call delta, and refuses a signature that is not a string by name', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(answerWith(callParts))}\n\n`);
    };
    const stream = await client.chat.completions.create({ model: 'any', messages: [ask], tools, stream: true });
    const deltas: Array<Record<string, unknown>> = [];
    for await (const chunk of stream) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) deltas.push(call as unknown as Record<string, unknown>);
    assert.equal(deltas.length, 2);
    assert.deepEqual(deltas[0]!.extra_content, { google: { thought_signature: SIGNATURE } });
    assert.equal(deltas[1]!.extra_content, undefined);

    sent = {};
    const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' }, extra_content: { google: { thought_signature: 42 } } };
    const messages = [ask, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'ok' }] as OpenAI.Chat.ChatCompletionMessageParam[];
    await assert.rejects(client.chat.completions.create({ model: 'any', messages, tools }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'messages[1].tool_calls[0].extra_content.google.thought_signature');
      return true;
    });
    assert.deepEqual(sent, {}, 'a provider was called');
  });

  it('Gemini 3: a replayed turn whose calls lost their signature gets the documented stand-in on its first call, from chat and /v1/messages clients', async () => {
    await f.create('/v1/admin/routes', { name: 'via-gemini-3', type: 'chat', models: [{ name: 'gemini-3-pro-preview', provider: 'gem' }] });
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answerWith([{ text: 'Sunny in both.' }])));
    };
    const stripped = [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ] as const;
    const messages = [ask, { role: 'assistant', content: null, tool_calls: [...stripped] }, ...stripped.map((call) => ({ role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' }))] as OpenAI.Chat.ChatCompletionMessageParam[];
    const modelTurn = () => (sent.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>)[1]!;
    for (const route of ['via-gemini-3', 'via-gemini']) {
      await client.chat.completions.create({ model: 'any', messages, tools }, { headers: { 'x-gateway-route': route } });
      const signatures = modelTurn().parts.map((part) => part.thoughtSignature);
      // Gemini 3 refuses the turn without a signature; earlier models (gemini-x here) take it as it is.
      assert.deepEqual(signatures, route === 'via-gemini-3' ? ['skip_thought_signature_validator', undefined] : [undefined, undefined], route);
    }
    // A real signature is never replaced.
    const signed = [{ ...stripped[0], extra_content: { google: { thought_signature: SIGNATURE } } }, stripped[1]];
    await client.chat.completions.create({ model: 'any', tools, messages: [ask, { role: 'assistant', content: null, tool_calls: signed } as OpenAI.Chat.ChatCompletionMessageParam, ...messages.slice(2)] }, { headers: { 'x-gateway-route': 'via-gemini-3' } });
    assert.deepEqual(modelTurn().parts.map((part) => part.thoughtSignature), [SIGNATURE, undefined]);

    // Anthropic's SDK has no place for a Gemini signature: its tool loop through /v1/messages gets the stand-in.
    const anthropic = new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-gemini-3' } });
    await anthropic.messages.create({
      model: 'any', max_tokens: 64, tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"sky":"clear"}' }] },
      ],
    });
    assert.deepEqual(modelTurn().parts.map((part) => part.thoughtSignature), ['skip_thought_signature_validator']);
  });
});

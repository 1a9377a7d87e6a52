// POST /v1/messages through Anthropic's official SDK: what each provider type gets of top_k, output_config, thinking, system turns, the length limit, service_tier and context_management, the members no route can honour, and an OpenAI refusal's answer.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { startTranslatedGateway, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { LoopbackServer, RawLoopbackServer } from '../helpers/loopback-server.js';

type Answer = (res: ServerResponse, body: Record<string, unknown>) => void;

const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const sendSse = (res: ServerResponse, payloads: Array<Record<string, unknown> | string>): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(payloads.map((data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join(''));
};
const completion = (message: Record<string, unknown>, finish = 'stop'): Record<string, unknown> => ({
  id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const anthropicMessage = { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } };
const geminiAnswer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } };

describe('POST /v1/messages: request members and refusals across provider types', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let answer: Answer;
  let sent: Record<string, unknown>;
  const client = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const hi = { model: 'any', max_tokens: 2048, messages: [{ role: 'user' as const, content: 'Hi' }] };

  let close: () => Promise<void>;
  before(async () => {
    ({ f, server, upstream, close } = await startTranslatedGateway((res, body) => {
      sent = body;
      answer(res, sent);
    }));
    await f.create('/v1/admin/providers', { name: 'oai-new', type: 'openai', config: { api_base: `${upstream.url}/v1`, max_tokens_field: 'max_completion_tokens' }, api_keys: [{ api_key: 'sk-oai-provider-key-000002' }] });
    await f.create('/v1/admin/routes', { name: 'via-openai-new', type: 'chat', models: [{ name: 'gpt-5-x', provider: 'oai-new' }] });
  });
  after(() => close());

  it('top_k reaches an Anthropic provider as top_k and a Gemini one as topK; an OpenAI-format one, which has none, is not sent it', async () => {
    // The SDK's types no longer list the sampling options; the API still takes them for the models that have them.
    const withTopK = (topK: number) => ({ ...hi, top_k: topK }) as Anthropic.MessageCreateParamsNonStreaming;
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create(withTopK(5));
    assert.equal(sent.top_k, 5);

    answer = (res) => sendJson(res, geminiAnswer);
    await client('via-gemini').messages.create(withTopK(7));
    assert.equal((sent.generationConfig as Record<string, unknown>).topK, 7);

    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create(withTopK(5));
    assert.equal('top_k' in sent, false, 'OpenAI refuses top_k');
  });

  it('output_config (a JSON schema format, an effort) and the automatic cache breakpoint reach each provider type as it takes them', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const request: Anthropic.MessageCreateParamsNonStreaming = { ...hi, output_config: { format: { type: 'json_schema', schema }, effort: 'high' }, cache_control: { type: 'ephemeral' } };
    answer = (res) => sendJson(res, { ...anthropicMessage, content: [{ type: 'text', text: '{"city":"Paris"}' }] });
    const message = await client('via-anthropic').messages.create(request);
    assert.deepEqual(message.content, [{ type: 'text', text: '{"city":"Paris"}' }]);
    assert.deepEqual(sent.output_config, { format: { type: 'json_schema', schema }, effort: 'high' });
    assert.deepEqual(sent.cache_control, { type: 'ephemeral' });

    // OpenAI-format servers: the schema as response_format; Anthropic's effort and breakpoint are not theirs.
    answer = (res) => sendJson(res, completion({ content: '{"city":"Paris"}' }));
    await client('via-openai').messages.create(request);
    assert.deepEqual(sent.response_format, { type: 'json_schema', json_schema: { name: 'output', schema } });
    assert.equal('output_config' in sent, false);
    assert.equal('cache_control' in sent, false);

    answer = (res) => sendJson(res, geminiAnswer);
    await client('via-gemini').messages.create(request);
    assert.deepEqual(sent.generationConfig, { maxOutputTokens: 2048, responseMimeType: 'application/json', responseJsonSchema: schema });

    // A member of output_config the gateway does not know is refused by name, before any provider is called.
    sent = {};
    const unknown = { ...hi, output_config: { verbosity: 'low' } } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    await assert.rejects(client('via-anthropic').messages.create(unknown), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /output_config/);
      return true;
    });
    assert.deepEqual(sent, {});
  });

  it('thinking only between tool calls reaches an Anthropic provider as sent; the others think as they are configured to', async () => {
    const request: Anthropic.MessageCreateParamsNonStreaming = { ...hi, thinking: { type: 'between_tools' } };
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create(request);
    assert.deepEqual(sent.thinking, { type: 'between_tools' });

    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create(request);
    assert.equal('thinking' in sent || 'reasoning_effort' in sent, false);

    answer = (res) => sendJson(res, geminiAnswer);
    await client('via-gemini').messages.create(request);
    assert.deepEqual(sent.generationConfig, { maxOutputTokens: 2048 });

    const budgeted = { ...hi, thinking: { type: 'between_tools', budget_tokens: 1024 } } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    await assert.rejects(client('via-anthropic').messages.create(budgeted), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^thinking\.budget_tokens is only taken with thinking of type enabled or adaptive/);
      return true;
    });
  });

  it('a system turn in the messages stays in place for Anthropic and OpenAI-format providers and joins Gemini\'s instruction; only text is taken', async () => {
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      ...hi, system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'system', content: [{ type: 'text', text: 'Answer in French from now on.' }] }, { role: 'user', content: 'How are you?' }],
    };
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create(request);
    assert.equal(sent.system, 'Be brief.');
    assert.deepEqual(sent.messages, [
      { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'system', content: 'Answer in French from now on.' }, { role: 'user', content: 'How are you?' },
    ]);

    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create(request);
    assert.deepEqual((sent.messages as Array<{ role: string }>).map((message) => message.role), ['system', 'user', 'assistant', 'system', 'user']);

    answer = (res) => sendJson(res, geminiAnswer);
    await client('via-gemini').messages.create(request);
    assert.deepEqual(sent.systemInstruction, { parts: [{ text: 'Be brief.' }, { text: 'Answer in French from now on.' }] });

    sent = {};
    const image = { ...hi, messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }, { role: 'user', content: 'Hi' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    await assert.rejects(client('via-anthropic').messages.create(image), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^messages\[0\]\.content\[0\] has the type "image"; a system turn takes text only/);
      return true;
    });
    assert.deepEqual(sent, {});
  });

  it('an inference_geo is refused by name, on every route, before any provider is called', async () => {
    sent = {};
    for (const route of ['via-anthropic', 'via-openai', 'via-gemini']) {
      await assert.rejects(client(route).messages.create({ ...hi, inference_geo: 'us' }), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, String(error));
        assert.match((error.error as { error: { message: string } }).error.message, /^inference_geo is not taken/);
        return true;
      });
    }
    assert.deepEqual(sent, {});
    // null asks for the default, as absent does.
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create({ ...hi, inference_geo: null });
    assert.equal('inference_geo' in sent, false);
  });

  it('members no route can honour (container, mcp_servers, compaction, thread, fallbacks, …) are 400 naming them on every route; their empty forms pass', async () => {
    const asks: Array<[string, unknown]> = [
      ['container', 'container_011CZ'],
      ['mcp_servers', [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }]],
      ['compaction', { type: 'enabled' }],
      ['thread', { type: 'continue', previous_message_id: 'msg_01' }],
      ['fallbacks', 'default'],
      ['fallback_credit_token', 'fct_123'],
      ['billing_policy', { type: 'billing_policy', bill_to: 'user_profile' }],
      ['speed', 'fast'],
    ];
    sent = {};
    for (const route of ['via-anthropic', 'via-openai', 'via-gemini']) {
      for (const [name, value] of asks) {
        await assert.rejects(client(route).messages.create({ ...hi, [name]: value } as Anthropic.MessageCreateParamsNonStreaming), (error: unknown) => {
          assert.ok(error instanceof Anthropic.BadRequestError, `${route} ${name}: ${String(error)}`);
          assert.match((error.error as { error: { message: string } }).error.message, new RegExp(`^${name} is not taken: `));
          return true;
        });
      }
    }
    assert.deepEqual(sent, {}, 'no provider was called');
    answer = (res) => sendJson(res, anthropicMessage);
    const empty = { container: null, mcp_servers: [], compaction: null, thread: null, fallbacks: null, billing_policy: { type: 'billing_policy', bill_to: 'self' }, speed: 'standard' };
    await client('via-anthropic').messages.create({ ...hi, ...empty } as Anthropic.MessageCreateParamsNonStreaming);
    assert.deepEqual(Object.keys(empty).filter((name) => name in sent), []);
  });

  it('service_tier and context_management reach an Anthropic provider as sent; other providers never get them, and context_management is 400 on a route that may reach one', async () => {
    const editing = { edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30000 } }] };
    const fields = { ...hi, service_tier: 'standard_only', context_management: editing } as Anthropic.MessageCreateParamsNonStreaming;
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create(fields);
    assert.equal(sent.service_tier, 'standard_only');
    assert.deepEqual(sent.context_management, editing);

    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create({ ...hi, service_tier: 'standard_only' });
    assert.equal('service_tier' in sent, false);
    answer = (res) => sendJson(res, geminiAnswer);
    await client('via-gemini').messages.create({ ...hi, service_tier: 'auto' });
    assert.equal('service_tier' in sent, false);

    await f.create('/v1/admin/routes', { name: 'claude-then-openai', type: 'chat', models: [{ name: 'claude-x', provider: 'claude', fallback_enabled: true }, { name: 'gpt-x', provider: 'oai', weight: 0 }] });
    for (const route of ['via-openai', 'via-gemini', 'claude-then-openai']) {
      sent = {};
      await assert.rejects(client(route).messages.create(fields), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, `${route}: ${String(error)}`);
        assert.match((error.error as { error: { message: string } }).error.message, /^context_management is only taken on routes whose models are all on Anthropic providers/);
        return true;
      });
      assert.deepEqual(sent, {}, `${route}: no provider was called`);
    }
  });

  it('the deprecated output_format is translated as output_config.format; sending both is 400 naming output_format', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    answer = (res) => sendJson(res, anthropicMessage);
    await client('via-anthropic').messages.create({ ...hi, output_format: { type: 'json_schema', schema } } as Anthropic.MessageCreateParamsNonStreaming);
    assert.deepEqual(sent.output_config, { format: { type: 'json_schema', schema } });
    answer = (res) => sendJson(res, completion({ content: '{"city":"Paris"}' }));
    await client('via-openai').messages.create({ ...hi, output_format: { type: 'json_schema', schema } } as Anthropic.MessageCreateParamsNonStreaming);
    assert.deepEqual(sent.response_format, { type: 'json_schema', json_schema: { name: 'output', schema } });
    sent = {};
    await assert.rejects(client('via-openai').messages.create({ ...hi, output_format: { type: 'json_schema', schema }, output_config: { format: { type: 'json_schema', schema } } } as Anthropic.MessageCreateParamsNonStreaming), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^output_format is the deprecated form of output_config\.format/);
      return true;
    });
    assert.deepEqual(sent, {});
  });

  it('a tool_choice without tools: auto and none are not sent on (OpenAI refuses them), any and tool are 400', async () => {
    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create({ ...hi, tool_choice: { type: 'none' } });
    assert.equal('tool_choice' in sent, false);
    sent = {};
    await assert.rejects(client('via-openai').messages.create({ ...hi, tool_choice: { type: 'any' } }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match((error.error as { error: { message: string } }).error.message, /^tool_choice of type any needs tools/);
      return true;
    });
    assert.deepEqual(sent, {});
  });

  it('the length limit goes as max_completion_tokens when the OpenAI-format model reasons or the provider says so, else as max_tokens', async () => {
    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai').messages.create(hi);
    assert.equal(sent.max_tokens, 2048);
    assert.equal('max_completion_tokens' in sent, false);

    // Thinking asks for a reasoning model, which OpenAI and Azure hold to max_completion_tokens (max_tokens is refused).
    await client('via-openai').messages.create({ ...hi, thinking: { type: 'enabled', budget_tokens: 1024 } });
    assert.equal(sent.max_completion_tokens, 2048);
    assert.equal(sent.reasoning_effort, 'low');
    assert.equal('max_tokens' in sent, false);

    // config.max_tokens_field names the field for a server that needs it.
    answer = (res) => sendJson(res, completion({ content: 'ok' }));
    await client('via-openai-new').messages.create(hi);
    assert.equal(sent.max_completion_tokens, 2048);
    assert.equal('max_tokens' in sent, false);
  });

  it('an OpenAI refusal reaches the SDK as the answer\'s text with stop_reason refusal, JSON and streamed', async () => {
    const refusal = 'I\'m sorry, I cannot help with that request.';
    answer = (res) => sendJson(res, completion({ content: null, refusal }));
    const message = await client('via-openai').messages.create(hi);
    assert.deepEqual(message.content, [{ type: 'text', text: refusal }]);
    assert.equal(message.stop_reason, 'refusal');

    const usage = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [], usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 } };
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: 'I\'m sorry, ' }), chunk({ refusal: 'I cannot help with that request.' }), chunk({}, 'stop'), usage, '[DONE]']);
    const stream = client('via-openai').messages.stream(hi);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const streamed = await stream.finalMessage();
    assert.equal(text, refusal);
    assert.deepEqual(streamed.content, [{ type: 'text', text: refusal }]);
    assert.equal(streamed.stop_reason, 'refusal');
    assert.deepEqual(streamed.usage, { input_tokens: 7, output_tokens: 4 });
  });
});

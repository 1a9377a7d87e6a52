// Chat options through the translating adapters and the official openai client: what they cannot honour is refused by name; structured output and safety_identifier reach Anthropic.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

describe('translating adapters refuse what they cannot answer', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  const client = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const messages = [{ role: 'user' as const, content: 'Hi' }];

  before(async () => {
    f = await createTrafficFixture();
    await addTranslatedRoutes(f);
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
  });
  beforeEach(() => f.fake.reset());

  const refused = async (route: string, extra: Record<string, unknown>, param: string, stream = false): Promise<void> => {
    const body = { model: 'any', messages, ...extra, ...(stream ? { stream: true } : {}) } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    await assert.rejects(client(route).chat.completions.create(body), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, `${route} ${JSON.stringify(extra)}: ${String(error)}`);
      assert.equal(error.param, param);
      assert.equal(error.code, 'invalid_value');
      assert.match(error.message, new RegExp(`^400 ${param}: the (anthropic|gemini) provider does not support `));
      return true;
    });
  };

  it('the Anthropic adapter refuses n above 1, logprobs and a json_object response_format with 400 naming the field, calling no provider', async () => {
    for (const stream of [false, true]) {
      await refused('via-anthropic', { n: 2 }, 'n', stream);
      await refused('via-anthropic', { logprobs: true, top_logprobs: 2 }, 'logprobs', stream);
      await refused('via-anthropic', { response_format: { type: 'json_object' } }, 'response_format', stream);
    }
    assert.equal(f.fake.requests.length, 0, 'a provider was called');
    // What it can honour still passes: one choice, no log probabilities, plain text.
    const answer = await client('via-anthropic').chat.completions.create({ model: 'any', messages, n: 1, logprobs: false, response_format: { type: 'text' } });
    assert.equal(answer.choices.length, 1);
  });

  it('the Anthropic adapter sends safety_identifier, which replaces the deprecated user, as metadata.user_id', async () => {
    await client('via-anthropic').chat.completions.create({ model: 'any', messages, safety_identifier: 'user-hash-1', user: 'legacy' });
    assert.deepEqual((f.fake.requests[0]!.body as Record<string, unknown>).metadata, { user_id: 'user-hash-1' });
    await client('via-anthropic').chat.completions.create({ model: 'any', messages, user: 'legacy' });
    assert.deepEqual((f.fake.requests[1]!.body as Record<string, unknown>).metadata, { user_id: 'legacy' });
  });

  it('the Anthropic adapter sends a json_schema response_format as output_config.format, and output_config.effort as sent', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const extra = { response_format: { type: 'json_schema', json_schema: { name: 'place', strict: true, schema } }, output_config: { effort: 'low' } };
    await client('via-anthropic').chat.completions.create({ model: 'any', messages, ...extra } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    assert.deepEqual((f.fake.requests[0]!.body as Record<string, unknown>).output_config, { format: { type: 'json_schema', schema }, effort: 'low' });
    f.fake.reset();
    const invalid = async (body: Record<string, unknown>, param: string): Promise<void> => {
      await assert.rejects(client('via-anthropic').chat.completions.create({ model: 'any', messages, ...body } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, param);
        return true;
      });
    };
    await invalid({ response_format: { type: 'json_schema', json_schema: { name: 'place' } } }, 'response_format.json_schema.schema');
    await invalid({ output_config: { effort: 'extreme' } }, 'output_config.effort');
    await invalid({ output_config: { format: { type: 'json_schema', schema } } }, 'output_config.format');
    assert.equal(f.fake.requests.length, 0, 'a provider was called');
  });

  it('the Gemini adapter refuses logprobs with 400 naming the field, and still takes n and a JSON schema', async () => {
    await refused('via-gemini', { logprobs: true }, 'logprobs');
    await refused('via-gemini', { top_logprobs: 3 }, 'top_logprobs');
    assert.equal(f.fake.requests.length, 0, 'a provider was called');
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    await client('via-gemini').chat.completions.create({ model: 'any', messages, n: 2, response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } });
    const config = (f.fake.requests[0]!.body as { generationConfig: Record<string, unknown> }).generationConfig;
    assert.deepEqual(config, { candidateCount: 2, responseMimeType: 'application/json', responseJsonSchema: schema });
  });

  it('both adapters refuse audio output, web search, the deprecated functions and logit_bias by name, and pass empty forms', async () => {
    const tool = { name: 'lookup', parameters: { type: 'object', properties: {} } };
    for (const route of ['via-anthropic', 'via-gemini']) {
      for (const stream of [false, true]) {
        await refused(route, { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, 'modalities', stream);
        await refused(route, { audio: { voice: 'alloy', format: 'wav' } }, 'audio', stream);
        await refused(route, { web_search_options: { search_context_size: 'low' } }, 'web_search_options', stream);
        await refused(route, { functions: [tool] }, 'functions', stream);
        await refused(route, { function_call: { name: 'lookup' } }, 'function_call', stream);
        await refused(route, { logit_bias: { '50256': -100 } }, 'logit_bias', stream);
      }
    }
    assert.equal(f.fake.requests.length, 0, 'a provider was called');
    // Their empty or text-only forms ask for nothing the providers lack.
    for (const route of ['via-anthropic', 'via-gemini']) {
      const answer = await client(route).chat.completions.create({ model: 'any', messages, modalities: ['text'], logit_bias: {}, functions: [], function_call: 'auto' });
      assert.equal(answer.choices.length, 1);
    }
    assert.equal(f.fake.requests.length, 2);
  });
});

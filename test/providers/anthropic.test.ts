// Tests of the Anthropic adapter: the Messages API request, answers translated back, and a round trip to the fake.
import assert from 'node:assert/strict';
import anthropic from '../../plugins/providers/anthropic/index.js';
import { FAKE_TEXT, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { assertCoded, bodyOf, chunksOf, makeContext, sendJson, sendStream, streamedText } from './provider-test-kit.js';

const chat = (body: Record<string, unknown>, extra: Parameters<typeof makeContext>[1] = {}) =>
  makeContext('anthropic', { model: 'claude-sonnet-4-5', body: { model: 'claude-sonnet-4-5', ...body }, ...extra });

describe('anthropic adapter', () => {
  describe('buildRequest', () => {
    it('posts to /v1/messages with x-api-key, anthropic-version and a default max_tokens', () => {
      const request = anthropic.buildRequest(chat({ messages: [{ role: 'user', content: 'Hi' }] }, { apiKey: { value: 'sk-ant-1' } }));
      assert.equal(request.url, 'https://api.anthropic.com/v1/messages');
      assert.deepEqual(request.headers, { 'content-type': 'application/json', accept: 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-1' });
      assert.deepEqual(bodyOf(request), { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4096 });
    });

    it('moves system and developer messages to system and copies the sampling options', () => {
      const request = anthropic.buildRequest(chat({
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Bonjour.' },
          { role: 'user', content: [{ type: 'text', text: 'How are ' }, { type: 'text', text: 'you?' }] },
        ],
        max_tokens: 100, max_completion_tokens: 256, temperature: 0.3, top_p: 0.9, stop: 'END', user: 'u-42', n: 1, presence_penalty: 0.5,
      }, { stream: true }));
      assert.equal(request.headers.accept, 'text/event-stream');
      assert.deepEqual(bodyOf(request), {
        model: 'claude-sonnet-4-5',
        system: 'Be terse.\n\nAnswer in French.',
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Bonjour.' },
          { role: 'user', content: [{ type: 'text', text: 'How are ' }, { type: 'text', text: 'you?' }] },
        ],
        max_tokens: 256, temperature: 0.3, top_p: 0.9, stop_sequences: ['END'], metadata: { user_id: 'u-42' }, stream: true,
      });
    });

    it('translates tools, tool_choice and parallel_tool_calls', () => {
      const tools = [
        { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
        { type: 'function', function: { name: 'now' } },
      ];
      const body = (extra: Record<string, unknown>) => bodyOf(anthropic.buildRequest(chat({ messages: [{ role: 'user', content: 'Hi' }], tools, ...extra })));
      assert.deepEqual(body({}).tools, [
        { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { name: 'now', input_schema: { type: 'object', properties: {} } },
      ]);
      assert.equal(body({}).tool_choice, undefined);
      assert.deepEqual(body({ tool_choice: 'auto' }).tool_choice, { type: 'auto' });
      assert.deepEqual(body({ tool_choice: 'required' }).tool_choice, { type: 'any' });
      assert.deepEqual(body({ tool_choice: 'none' }).tool_choice, { type: 'none' });
      assert.deepEqual(body({ tool_choice: { type: 'function', function: { name: 'now' } } }).tool_choice, { type: 'tool', name: 'now' });
      assert.deepEqual(body({ parallel_tool_calls: false }).tool_choice, { type: 'auto', disable_parallel_tool_use: true });
      assertCoded(() => body({ tool_choice: 'sometimes' }), 'invalid_value', 400);
    });

    it('turns tool calls into tool_use blocks and merges consecutive tool results into one user turn', () => {
      const request = anthropic.buildRequest(chat({
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          { role: 'assistant', content: null, tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ] },
          { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
          { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '24°C' }] },
          { role: 'user', content: 'Thanks' },
        ],
      }));
      assert.deepEqual(bodyOf(request).messages, [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
        ] },
        { role: 'user', content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '24°C' }] },
          { type: 'text', text: 'Thanks' },
        ] },
      ]);
    });

    it('sends image parts as base64 or URL image blocks', () => {
      const request = anthropic.buildRequest(chat({ messages: [{ role: 'user', content: [
        { type: 'text', text: 'Compare' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
      ] }] }));
      assert.deepEqual(bodyOf(request).messages, [{ role: 'user', content: [
        { type: 'text', text: 'Compare' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      ] }]);
    });

    it('honours config.default_max_tokens, anthropic_beta and api_base', () => {
      const provider = { name: 'c', type: 'anthropic', config: { api_base: 'http://127.0.0.1:9/', default_max_tokens: 1024, anthropic_beta: 'prompt-caching-2024-07-31' } };
      const request = anthropic.buildRequest(chat({ messages: [{ role: 'user', content: 'Hi' }] }, { provider }));
      assert.equal(request.url, 'http://127.0.0.1:9/v1/messages');
      assert.equal(request.headers['anthropic-beta'], 'prompt-caching-2024-07-31');
      assert.equal(bodyOf(request).max_tokens, 1024);
    });

    it('refuses completions, embeddings and untranslatable bodies with coded 400s', () => {
      assertCoded(() => anthropic.buildRequest(makeContext('anthropic', { endpoint: 'embeddings', body: { input: 'x' } })), 'unsupported_endpoint', 400);
      assertCoded(() => anthropic.buildRequest(makeContext('anthropic', { endpoint: 'completions', body: { prompt: 'x' } })), 'unsupported_endpoint', 400);
      assertCoded(() => anthropic.buildRequest(chat({ messages: [] })), 'invalid_value', 400);
      assertCoded(() => anthropic.buildRequest(chat({ messages: [{ role: 'robot', content: 'x' }] })), 'invalid_value', 400);
      const badArgs = [{ role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{not json' } }] }];
      assertCoded(() => anthropic.buildRequest(chat({ messages: badArgs })), 'invalid_value', 400);
    });
  });

  describe('translateResponse', () => {
    const translate = (upstream: unknown) => anthropic.translateResponse!(upstream, chat({ messages: [] }));

    it('translates a text answer with its usage', () => {
      const answer = translate({
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: 'Hello! How can I help?' }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 8 },
      });
      assert.equal(typeof answer.created, 'number');
      assert.deepEqual({ ...answer, created: 0 }, {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL', object: 'chat.completion', created: 0, model: 'claude-sonnet-4-5-20250929',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help?', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
      });
    });

    it('translates tool_use blocks into tool_calls with JSON-string arguments, and thinking into reasoning_content and thinking_blocks', () => {
      const answer = translate({
        id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
        content: [
          { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'celsius' } },
        ],
        stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 472, output_tokens: 89 },
      });
      assert.deepEqual(answer.choices, [{
        index: 0, logprobs: null, finish_reason: 'tool_calls',
        message: { role: 'assistant', content: 'Let me check.', refusal: null, tool_calls: [
          { id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' } },
        ], reasoning_content: 'The user wants weather.', thinking_blocks: [{ type: 'thinking', thinking: 'The user wants weather.', signature: 'sig' }] },
      }]);
    });

    it('maps stop reasons and counts cached input in prompt_tokens', () => {
      const answer = (stop_reason: string) => translate({ type: 'message', model: 'm', content: [], stop_reason, usage: { input_tokens: 5, output_tokens: 1 } });
      const reasons = ['end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'refusal'].map((reason) => (answer(reason).choices as Array<{ finish_reason: string }>)[0]?.finish_reason);
      assert.deepEqual(reasons, ['stop', 'stop', 'length', 'tool_calls', 'content_filter']);
      assert.equal((answer('end_turn').choices as Array<{ message: { content: unknown } }>)[0]?.message.content, null);
      const cached = translate({ type: 'message', model: 'm', content: [], stop_reason: 'end_turn', usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 } });
      assert.deepEqual(cached.usage, { prompt_tokens: 1110, completion_tokens: 7, total_tokens: 1117, prompt_tokens_details: { cached_tokens: 1000 }, cache_creation_input_tokens: 100 });
    });

    it('refuses an answer without a content array with upstream_invalid_response', () => {
      assertCoded(() => translate({ type: 'error' }), 'upstream_invalid_response', 502);
      assertCoded(() => translate('nope'), 'upstream_invalid_response', 502);
    });

    it('reads Anthropic error bodies', () => {
      assert.equal(anthropic.errorMessage?.(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), 'Overloaded');
    });
  });

  describe('round trip to the fake provider', () => {
    let fake: FakeProvider;
    before(async () => {
      fake = await startFakeProvider();
    });
    after(() => fake.close());
    beforeEach(() => fake.reset());

    const context = (extra: Parameters<typeof makeContext>[1] = {}) =>
      chat({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Hi' }] }, {
        provider: { name: 'claude', type: 'anthropic', config: { api_base: fake.url } }, apiKey: { value: 'sk-ant' }, ...extra,
      });

    it('translates a JSON tool-call answer, and the fake saw the Messages request', async () => {
      fake.script({ toolCall: { name: 'lookup', arguments: { q: 'x' } } });
      const ctx = context();
      const { status, body } = await sendJson(anthropic.buildRequest(ctx));
      assert.equal(status, 200);
      const answer = anthropic.translateResponse!(body, ctx);
      assert.deepEqual((answer.choices as Array<{ message: unknown }>)[0]?.message, {
        role: 'assistant', content: null, refusal: null,
        tool_calls: [{ id: 'toolu_fake_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      });
      const [seen] = fake.requests;
      assert.equal(seen?.path, '/v1/messages');
      assert.equal(seen?.headers['x-api-key'], 'sk-ant');
      assert.equal(seen?.headers['anthropic-version'], '2023-06-01');
      assert.deepEqual(seen?.body, { model: 'claude-sonnet-4-5', system: 'sys', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4096 });
    });

    it('translates a streamed answer into chunks ending with [DONE]', async () => {
      fake.script({ chunks: 4 });
      const ctx = context({ stream: true });
      const { payloads } = await sendStream(anthropic.buildRequest(ctx), anthropic.createStreamTranslator!(ctx));
      const chunks = chunksOf(payloads);
      assert.equal(streamedText(chunks), FAKE_TEXT);
      assert.equal(chunks.length, 1 + 4 + 1);
      assert.equal((chunks.at(-1)?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason, 'stop');
      assert.equal(fake.requests[0]?.stream, true);
    });

    it('fails the read when the fake cuts the stream mid-way', async () => {
      fake.script({ chunks: 4, failAfterChunks: 2 });
      const ctx = context({ stream: true });
      await assert.rejects(sendStream(anthropic.buildRequest(ctx), anthropic.createStreamTranslator!(ctx)));
    });
  });
});

// Tests of the Gemini adapter: generateContent and batchEmbedContents requests, answers translated back, a round trip.
import assert from 'node:assert/strict';
import gemini from '../../plugins/providers/gemini/index.js';
import { FAKE_TEXT, fakeVector, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { assertCoded, bodyOf, chunksOf, makeContext, sendJson, sendStream, streamedText } from './provider-test-kit.js';

const chat = (body: Record<string, unknown>, extra: Parameters<typeof makeContext>[1] = {}) =>
  makeContext('gemini', { model: 'gemini-2.5-flash', body: { model: 'gemini-2.5-flash', ...body }, ...extra });
const hi = [{ role: 'user', content: 'Hi' }];

describe('gemini adapter', () => {
  describe('buildRequest', () => {
    it('posts to models/{model}:generateContent with x-goog-api-key', () => {
      const request = gemini.buildRequest(chat({ messages: hi }, { apiKey: { value: 'AIza-1' } }));
      assert.equal(request.url, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
      assert.deepEqual(request.headers, { 'content-type': 'application/json', accept: 'application/json', 'x-goog-api-key': 'AIza-1' });
      assert.deepEqual(bodyOf(request), { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    });

    it('streams with :streamGenerateContent?alt=sse, and puts the key in ?key= when asked', () => {
      const request = gemini.buildRequest(chat({ messages: hi, stream: true }, { stream: true, apiKey: { value: 'AIza-2', queryParamKey: 'key' } }));
      assert.equal(request.url, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIza-2');
      assert.equal(request.headers['x-goog-api-key'], undefined);
      assert.equal(request.headers.accept, 'text/event-stream');
      assert.equal(bodyOf(request).stream, undefined, 'streaming lives in the URL');
    });

    it('strips a models/ prefix and honours config.api_version', () => {
      const provider = { name: 'g', type: 'gemini', config: { api_version: 'v1' } };
      const request = gemini.buildRequest(chat({ messages: hi }, { model: 'models/gemini-2.0-flash', provider }));
      assert.equal(request.url, 'https://generativelanguage.googleapis.com/v1/models/gemini-2.0-flash:generateContent');
    });

    it('maps system, turns and sampling options to systemInstruction, contents and generationConfig', () => {
      const request = gemini.buildRequest(chat({
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi.' },
          { role: 'user', content: [{ type: 'text', text: 'List colours' }] },
        ],
        temperature: 0.5, top_p: 0.8, max_tokens: 200, stop: ['\n\n'], n: 2, seed: 7,
        response_format: { type: 'json_schema', json_schema: { name: 'c', schema: { type: 'array', items: { type: 'string' } } } },
      }));
      assert.deepEqual(bodyOf(request), {
        systemInstruction: { parts: [{ text: 'Be terse.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Hello' }] },
          { role: 'model', parts: [{ text: 'Hi.' }] },
          { role: 'user', parts: [{ text: 'List colours' }] },
        ],
        generationConfig: {
          temperature: 0.5, topP: 0.8, candidateCount: 2, seed: 7, maxOutputTokens: 200, stopSequences: ['\n\n'],
          responseMimeType: 'application/json', responseJsonSchema: { type: 'array', items: { type: 'string' } },
        },
      });
    });

    it('translates tools and tool_choice into functionDeclarations and toolConfig', () => {
      const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
      const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters } }, { type: 'function', function: { name: 'now' } }];
      const body = (extra: Record<string, unknown>) => bodyOf(gemini.buildRequest(chat({ messages: hi, tools, ...extra })));
      assert.deepEqual(body({}).tools, [{ functionDeclarations: [
        { name: 'get_weather', description: 'Weather', parametersJsonSchema: parameters },
        { name: 'now' },
      ] }]);
      assert.equal(body({}).toolConfig, undefined);
      assert.deepEqual(body({ tool_choice: 'none' }).toolConfig, { functionCallingConfig: { mode: 'NONE' } });
      assert.deepEqual(body({ tool_choice: 'required' }).toolConfig, { functionCallingConfig: { mode: 'ANY' } });
      assert.deepEqual(body({ tool_choice: { type: 'function', function: { name: 'now' } } }).toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['now'] } });
    });

    it('turns tool calls into functionCall parts and tool results into one turn of functionResponse parts', () => {
      const request = gemini.buildRequest(chat({ messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: null, tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":18}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
      ] }));
      assert.deepEqual(bodyOf(request).contents, [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
        { role: 'user', parts: [
          { functionResponse: { name: 'get_weather', response: { celsius: 18 } } },
          { functionResponse: { name: 'get_weather', response: { content: 'sunny' } } },
        ] },
      ]);
      const orphan = [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'nope', content: 'y' }];
      assertCoded(() => gemini.buildRequest(chat({ messages: orphan })), 'invalid_value', 400);
    });

    it('sends image parts as inlineData or fileData', () => {
      const request = gemini.buildRequest(chat({ messages: [{ role: 'user', content: [
        { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png?x=1' } },
      ] }] }));
      assert.deepEqual(bodyOf(request).contents, [{ role: 'user', parts: [
        { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
        { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png?x=1' } },
      ] }]);
    });

    it('builds batchEmbedContents for embeddings, and refuses completions and token inputs', () => {
      const request = gemini.buildRequest(makeContext('gemini', { endpoint: 'embeddings', model: 'text-embedding-004', body: { input: ['a', 'b'], dimensions: 256 } }));
      assert.equal(request.url, 'https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:batchEmbedContents');
      assert.deepEqual(bodyOf(request), { requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 256 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 256 },
      ] });
      assertCoded(() => gemini.buildRequest(makeContext('gemini', { endpoint: 'embeddings', body: { input: [[1, 2]] } })), 'invalid_value', 400);
      assertCoded(() => gemini.buildRequest(makeContext('gemini', { endpoint: 'completions', body: { prompt: 'x' } })), 'unsupported_endpoint', 400);
    });
  });

  describe('translateResponse', () => {
    const translate = (upstream: unknown) => gemini.translateResponse!(upstream, chat({ messages: hi }));
    const finish = (answer: Record<string, unknown>) => (answer.choices as Array<{ finish_reason: string }>).map((choice) => choice.finish_reason);

    it('translates a text answer with its usage', () => {
      const answer = translate({
        candidates: [{ content: { parts: [{ text: 'AI learns ' }, { text: 'patterns.' }], role: 'model' }, finishReason: 'STOP', index: 0, safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }] }],
        usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 12, totalTokenCount: 20 },
        modelVersion: 'gemini-2.5-flash', responseId: 'mAitaLmkHPPlz7IPvtfUqQ4',
      });
      assert.deepEqual({ ...answer, created: 0 }, {
        id: 'mAitaLmkHPPlz7IPvtfUqQ4', object: 'chat.completion', created: 0, model: 'gemini-2.5-flash',
        choices: [{ index: 0, message: { role: 'assistant', content: 'AI learns patterns.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 8, completion_tokens: 12, total_tokens: 20 },
      });
    });

    it('translates function calls into tool_calls, skips thoughts and counts thought tokens', () => {
      const answer = translate({
        candidates: [{ content: { role: 'model', parts: [
          { text: 'Thinking about weather…', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
        ] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10, thoughtsTokenCount: 50, totalTokenCount: 90 },
      });
      const [choice] = answer.choices as Array<{ message: { content: unknown; tool_calls: Array<{ id: string; function: unknown }> }; finish_reason: string }>;
      assert.equal(choice?.finish_reason, 'tool_calls');
      assert.equal(choice?.message.content, null);
      assert.match(choice?.message.tool_calls[0]?.id ?? '', /^call-/);
      assert.deepEqual(choice?.message.tool_calls[0]?.function, { name: 'get_weather', arguments: '{"city":"Paris"}' });
      assert.deepEqual(answer.usage, { prompt_tokens: 30, completion_tokens: 60, total_tokens: 90, completion_tokens_details: { reasoning_tokens: 50 } });
    });

    it('maps MAX_TOKENS, SAFETY and a blocked prompt', () => {
      const candidate = (finishReason: string, index = 0) => ({ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason, index });
      assert.deepEqual(finish(translate({ candidates: [candidate('MAX_TOKENS'), candidate('SAFETY', 1), candidate('RECITATION', 2)] })), ['length', 'content_filter', 'content_filter']);
      const blocked = translate({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } });
      assert.deepEqual(blocked.choices, [{ index: 0, message: { role: 'assistant', content: null, refusal: null }, logprobs: null, finish_reason: 'content_filter' }]);
      assertCoded(() => translate({ usageMetadata: {} }), 'upstream_invalid_response', 502);
    });

    it('translates embeddings, as floats or base64', () => {
      const context = makeContext('gemini', { endpoint: 'embeddings', model: 'text-embedding-004', body: { input: ['a', 'b'] } });
      const answer = gemini.translateResponse!({ embeddings: [{ values: [0.5, -1] }, { values: [0.25, 2] }] }, context);
      assert.deepEqual(answer, { object: 'list', model: 'text-embedding-004', usage: { prompt_tokens: 0, total_tokens: 0 }, data: [
        { object: 'embedding', index: 0, embedding: [0.5, -1] }, { object: 'embedding', index: 1, embedding: [0.25, 2] },
      ] });
      const base64 = gemini.translateResponse!({ embeddings: [{ values: [0.5, -1] }] }, { ...context, body: { input: 'a', encoding_format: 'base64' } });
      const encoded = (base64.data as Array<{ embedding: string }>)[0]?.embedding ?? '';
      const bytes = Buffer.from(encoded, 'base64');
      assert.deepEqual([bytes.length, bytes.readFloatLE(0), bytes.readFloatLE(4)], [8, 0.5, -1]);
    });

    it('reads Gemini error bodies, single or in a list', () => {
      const error = { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } };
      assert.equal(gemini.errorMessage?.(400, error), 'API key not valid. Please pass a valid API key.');
      assert.equal(gemini.errorMessage?.(400, [error]), 'API key not valid. Please pass a valid API key.');
    });
  });

  describe('round trip to the fake provider', () => {
    let fake: FakeProvider;
    before(async () => {
      fake = await startFakeProvider();
    });
    after(() => fake.close());
    beforeEach(() => fake.reset());
    const provider = () => ({ name: 'g', type: 'gemini', config: { api_base: fake.url } });

    it('translates a JSON answer, and the fake saw the key header and contents', async () => {
      const context = chat({ messages: hi }, { provider: provider(), apiKey: { value: 'AIza' } });
      const { body } = await sendJson(gemini.buildRequest(context));
      const answer = gemini.translateResponse!(body, context);
      assert.equal((answer.choices as Array<{ message: { content: string } }>)[0]?.message.content, FAKE_TEXT);
      assert.deepEqual(answer.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
      const [seen] = fake.requests;
      assert.equal(seen?.path, '/v1beta/models/gemini-2.5-flash:generateContent');
      assert.equal(seen?.headers['x-goog-api-key'], 'AIza');
      assert.deepEqual(seen?.body, { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    });

    it('translates a streamed answer, with the key as a query parameter', async () => {
      fake.script({ chunks: 3 });
      const context = chat({ messages: hi, stream_options: { include_usage: true } }, { provider: provider(), stream: true, apiKey: { value: 'AIza', queryParamKey: 'key' } });
      const { payloads } = await sendStream(gemini.buildRequest(context), gemini.createStreamTranslator!(context));
      const chunks = chunksOf(payloads);
      assert.equal(streamedText(chunks), FAKE_TEXT);
      assert.deepEqual(chunks.at(-1)?.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
      assert.deepEqual(fake.requests[0]?.query, { alt: 'sse', key: 'AIza' });
    });

    it('translates embeddings', async () => {
      const context = makeContext('gemini', { endpoint: 'embeddings', model: 'text-embedding-004', provider: provider(), body: { input: ['a', 'b'] } });
      const { body } = await sendJson(gemini.buildRequest(context));
      const answer = gemini.translateResponse!(body, context);
      assert.deepEqual((answer.data as Array<{ embedding: number[] }>).map((item) => item.embedding), [fakeVector(0, 3), fakeVector(1, 3)]);
      assert.equal(fake.requests[0]?.endpoint, 'embeddings');
    });
  });
});

// Tests of the OpenAI adapter: URL, key placement, body pass-through, and a round trip to the fake provider.
import assert from 'node:assert/strict';
import openai from '../../plugins/providers/openai/index.js';
import { FAKE_TEXT, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { bodyOf, makeContext, sendJson, sendStream } from './provider-test-kit.js';

const key = { value: 'sk-test-123' };

describe('openai adapter', () => {
  describe('buildRequest', () => {
    it('posts chat to the default base with a bearer key and the upstream model', () => {
      const context = makeContext('openai', { model: 'gpt-4o-mini', apiKey: key, body: { model: 'my-route', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2, stream: false } });
      const request = openai.buildRequest(context);
      assert.equal(request.url, 'https://api.openai.com/v1/chat/completions');
      assert.equal(request.method, 'POST');
      assert.deepEqual(request.headers, { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer sk-test-123' });
      assert.deepEqual(bodyOf(request), { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2 });
      assert.equal(openai.openaiCompatible, true);
    });

    it('sets stream: true and keeps stream_options when streaming, drops stream_options otherwise', () => {
      const body = { messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } };
      const streaming = openai.buildRequest(makeContext('openai', { stream: true, body }));
      assert.equal(streaming.headers.accept, 'text/event-stream');
      assert.deepEqual(bodyOf(streaming), { ...body, model: 'test-model' });
      const plain = openai.buildRequest(makeContext('openai', { stream: false, body }));
      assert.deepEqual(bodyOf(plain), { messages: body.messages, model: 'test-model' });
    });

    it('sends a /v1/messages body\'s limit to OpenAI itself as max_completion_tokens, to another server as max_tokens; a chat client\'s body as it came', () => {
      const body = { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 512 };
      const fromMessages = (provider: { name: string; type: string; config: Record<string, unknown> }) => bodyOf(openai.buildRequest(makeContext('openai', { body, provider, clientFormat: 'anthropic' })));
      assert.deepEqual(fromMessages({ name: 'o', type: 'openai', config: {} }), { messages: body.messages, max_completion_tokens: 512, model: 'test-model' });
      assert.deepEqual(fromMessages({ name: 'o', type: 'openai', config: { api_base: 'https://api.openai.com/v1' } }), { messages: body.messages, max_completion_tokens: 512, model: 'test-model' });
      assert.deepEqual(fromMessages({ name: 'v', type: 'openai', config: { api_base: 'http://vllm.internal:8000/v1' } }), { ...body, model: 'test-model' });
      assert.deepEqual(fromMessages({ name: 'o', type: 'openai', config: { max_tokens_field: 'max_tokens' } }), { ...body, model: 'test-model' });
      assert.deepEqual(bodyOf(openai.buildRequest(makeContext('openai', { body }))), { ...body, model: 'test-model' });
    });

    it('maps completions and embeddings to their paths and passes their bodies through', () => {
      const completions = openai.buildRequest(makeContext('openai', { endpoint: 'completions', body: { prompt: 'Say hi', max_tokens: 5 } }));
      assert.equal(completions.url, 'https://api.openai.com/v1/completions');
      assert.deepEqual(bodyOf(completions), { prompt: 'Say hi', max_tokens: 5, model: 'test-model' });
      const embeddings = openai.buildRequest(makeContext('openai', { endpoint: 'embeddings', model: 'text-embedding-3-small', body: { input: ['a', 'b'] } }));
      assert.equal(embeddings.url, 'https://api.openai.com/v1/embeddings');
      assert.deepEqual(bodyOf(embeddings), { input: ['a', 'b'], model: 'text-embedding-3-small' });
    });

    it('uses config.api_base without its trailing slash, for any OpenAI-compatible API', () => {
      const provider = { name: 'groq', type: 'openai', config: { api_base: 'https://api.groq.com/openai/v1/' } };
      assert.equal(openai.buildRequest(makeContext('openai', { provider })).url, 'https://api.groq.com/openai/v1/chat/completions');
      const ollama = { name: 'ollama', type: 'openai', config: { api_base: 'http://localhost:11434/v1' } };
      const request = openai.buildRequest(makeContext('openai', { provider: ollama }));
      assert.equal(request.url, 'http://localhost:11434/v1/chat/completions');
      assert.equal(request.headers.authorization, undefined, 'no key, no authorization header');
    });

    it('replaces the whole endpoint path with the model suffix, keeping its query', () => {
      assert.equal(openai.buildRequest(makeContext('openai', { suffix: 'v2/chat' })).url, 'https://api.openai.com/v1/v2/chat');
      assert.equal(openai.buildRequest(makeContext('openai', { suffix: '/responses' })).url, 'https://api.openai.com/v1/responses');
      const withQuery = openai.buildRequest(makeContext('openai', { suffix: 'chat?mode=fast', apiKey: { value: 'k', queryParamKey: 'api_key' } }));
      assert.equal(withQuery.url, 'https://api.openai.com/v1/chat?mode=fast&api_key=k');
    });

    it('puts the raw key in a custom header, or in a query parameter instead of any header', () => {
      const header = openai.buildRequest(makeContext('openai', { apiKey: { value: 'raw-key', headerKey: 'X-Api-Key' } }));
      assert.equal(header.headers['X-Api-Key'], 'raw-key');
      assert.equal(header.headers.authorization, undefined);
      const query = openai.buildRequest(makeContext('openai', { apiKey: { value: 'a b&c', queryParamKey: 'key' } }));
      assert.equal(query.url, 'https://api.openai.com/v1/chat/completions?key=a+b%26c');
      assert.deepEqual(Object.keys(query.headers).sort(), ['accept', 'content-type']);
    });

    it('sends config.organization and config.project', () => {
      const provider = { name: 'oa', type: 'openai', config: { organization: 'org-42', project: 'proj_7' } };
      const request = openai.buildRequest(makeContext('openai', { provider, apiKey: key }));
      assert.equal(request.headers['openai-organization'], 'org-42');
      assert.equal(request.headers['openai-project'], 'proj_7');
    });
  });

  describe('errorMessage', () => {
    it('reads OpenAI, string, top-level and FastAPI-style error bodies', () => {
      const message = openai.errorMessage!;
      assert.equal(message(401, { error: { message: 'Incorrect API key provided: sk-test***.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }), 'Incorrect API key provided: sk-test***.');
      assert.equal(message(500, { error: 'model crashed' }), 'model crashed');
      assert.equal(message(400, { message: 'bad' }), 'bad');
      assert.equal(message(422, { detail: 'Unprocessable' }), 'Unprocessable');
      assert.equal(message(502, 'Bad Gateway'), 'Bad Gateway');
      assert.equal(message(500, { something: 'else' }), undefined);
    });
  });

  describe('round trip to the fake provider', () => {
    let fake: FakeProvider;
    before(async () => {
      fake = await startFakeProvider();
    });
    after(() => fake.close());
    beforeEach(() => fake.reset());

    const provider = () => ({ name: 'local', type: 'openai', config: { api_base: `${fake.url}/v1`, organization: 'org-1' } });

    it('answers chat JSON unchanged, and the fake saw the key, organization and body', async () => {
      const request = openai.buildRequest(makeContext('openai', { provider: provider(), apiKey: key, model: 'gpt-4o' }));
      const { status, body } = await sendJson(request);
      assert.equal(status, 200);
      assert.equal((body as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content, FAKE_TEXT);
      const [seen] = fake.requests;
      assert.equal(seen?.path, '/v1/chat/completions');
      assert.equal(seen?.headers.authorization, 'Bearer sk-test-123');
      assert.equal(seen?.headers['openai-organization'], 'org-1');
      assert.deepEqual(seen?.body, { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    });

    it('streams chunks that pass through unchanged, ending with [DONE]', async () => {
      fake.script({ text: 'one two three', chunks: 3 });
      const body = { messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } };
      const { events } = await sendStream(openai.buildRequest(makeContext('openai', { provider: provider(), stream: true, body })));
      assert.equal(events.at(-1)?.data, '[DONE]');
      const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data) as { choices: Array<{ delta: { content?: string } }>; usage: unknown });
      assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'one two three');
      assert.deepEqual(chunks.at(-1)?.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
      assert.equal(fake.requests[0]?.stream, true);
    });

    it('answers embeddings with one vector per input', async () => {
      const request = openai.buildRequest(makeContext('openai', { provider: provider(), endpoint: 'embeddings', model: 'text-embedding-3-small', body: { input: ['a', 'b'] } }));
      const { body } = await sendJson(request);
      assert.equal((body as { data: unknown[] }).data.length, 2);
      assert.equal(fake.requests[0]?.endpoint, 'embeddings');
    });
  });
});

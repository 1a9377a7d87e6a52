// Each provider adapter through the gateway: the request the fake provider received, and the OpenAI-format answer the client got.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import OpenAI from 'openai';
import { FAKE_TEXT, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const CASES = [
  {
    type: 'anthropic',
    config: (fake: FakeProvider) => ({ api_base: fake.url }),
    model: 'claude-test',
    check: (received: FakeProvider['requests'][number]) => {
      assert.equal(received.path, '/v1/messages');
      assert.equal(received.headers['x-api-key'], 'sk-adapter-key-00001');
      assert.equal(received.headers['anthropic-version'], '2023-06-01');
      const body = received.body as { system?: unknown; messages: unknown[]; max_tokens: number };
      assert.equal(body.system, 'Be brief.');
      assert.deepEqual(body.messages, [{ role: 'user', content: 'Hi' }]);
      assert.ok(body.max_tokens > 0);
    },
  },
  {
    type: 'gemini',
    config: (fake: FakeProvider) => ({ api_base: fake.url }),
    model: 'gemini-test',
    check: (received: FakeProvider['requests'][number]) => {
      assert.match(received.path, /\/models\/gemini-test:(generateContent|streamGenerateContent)$/);
      assert.equal(received.headers['x-goog-api-key'], 'sk-adapter-key-00001');
      const body = received.body as { systemInstruction: unknown; contents: unknown };
      assert.deepEqual(body.systemInstruction, { parts: [{ text: 'Be brief.' }] });
      assert.deepEqual(body.contents, [{ role: 'user', parts: [{ text: 'Hi' }] }]);
    },
  },
  {
    type: 'azure',
    config: (fake: FakeProvider) => ({ api_base: fake.url, api_version: '2024-10-21', deployments: { 'azure-test': 'my-deployment' } }),
    model: 'azure-test',
    check: (received: FakeProvider['requests'][number]) => {
      assert.equal(received.path, '/openai/deployments/my-deployment/chat/completions');
      assert.equal(received.query['api-version'], '2024-10-21');
      assert.equal(received.headers['api-key'], 'sk-adapter-key-00001');
      assert.equal(received.headers.authorization, undefined);
    },
  },
] as const;

for (const c of CASES) {
  describe(`the ${c.type} adapter through the gateway`, () => {
    let f: TrafficFixture;
    let server: Server;
    let client: OpenAI;
    before(async () => {
      f = await createTrafficFixture();
      await f.create('/v1/admin/providers', { name: c.type, type: c.type, config: c.config(f.fake), api_keys: [{ api_key: 'sk-adapter-key-00001' }] });
      await f.create('/v1/admin/routes', { name: c.type, type: 'chat', models: [{ name: c.model, provider: c.type }] });
      server = f.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      // The SDK always sends a Bearer; a developer key there is never passed on, so the stored key is used.
      client = new OpenAI({
        apiKey: f.developerKey,
        baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
        defaultHeaders: { 'X-Gateway-Apikey': f.developerKey, 'X-Gateway-route': c.type },
        maxRetries: 0,
      });
    });
    after(async () => {
      server.close();
      await f.close();
    });
    beforeEach(() => f.fake.reset());

    const messages = [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: 'Hi' }];

    it('translates the request, and the answer back into a chat.completion with usage', async () => {
      const completion = await client.chat.completions.create({ model: 'anything', messages });
      c.check(f.fake.requests[0]!);
      assert.equal(completion.object, 'chat.completion');
      assert.equal(completion.choices[0]?.message.content, FAKE_TEXT);
      assert.equal(completion.choices[0]?.finish_reason, 'stop');
      assert.equal(completion.usage?.prompt_tokens, 10);
      assert.equal(completion.usage?.completion_tokens, 5);
    });

    it('streams chat.completion.chunk events that add up to the answer', async () => {
      const stream = await client.chat.completions.create({ model: 'anything', messages, stream: true });
      let text = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        assert.equal(chunk.object, 'chat.completion.chunk');
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      c.check(f.fake.requests[0]!);
      assert.equal(text, FAKE_TEXT);
      assert.equal(finish, 'stop');
    });

    it('translates a tool call into tool_calls', async () => {
      f.fake.script({ toolCall: { name: 'get_weather', arguments: { city: 'Paris' } } });
      const completion = await client.chat.completions.create({
        model: 'anything',
        messages,
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      });
      const call = completion.choices[0]?.message.tool_calls?.[0] as { function: { name: string; arguments: string } } | undefined;
      assert.equal(call?.function.name, 'get_weather');
      assert.deepEqual(JSON.parse(call?.function.arguments ?? '{}'), { city: 'Paris' });
      assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
    });
  });
}

describe('a provider answering an error in its own format', () => {
  it('is answered in the OpenAI error shape with the upstream status', async () => {
    const fake = await startFakeProvider();
    const f = await createTrafficFixture();
    try {
      await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: fake.url }, api_keys: [{ api_key: 'sk-ant-000000001' }] });
      await f.create('/v1/admin/routes', { name: 'claude', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'claude-test', provider: 'claude' }] });
      fake.script({ fail: { status: 400, message: 'messages: text content blocks must be non-empty' } });
      const server = f.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const client = new OpenAI({ apiKey: 'x', baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, defaultHeaders: { 'X-Gateway-Apikey': f.developerKey, 'X-Gateway-route': 'claude' }, maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      server.close();
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.match(error.message, /text content blocks must be non-empty/);
    } finally {
      await f.close();
      await fake.close();
    }
  });
});

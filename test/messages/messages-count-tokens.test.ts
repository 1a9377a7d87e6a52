// POST /v1/messages/count_tokens through Anthropic's SDK: counted by an Anthropic upstream, checked, limited and logged as /v1/messages is.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Json;
}

const PROVIDER_KEY = 'sk-ant-count-provider-key-0001';

const sendJson = (res: ServerResponse, body: unknown, status = 200): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('POST /v1/messages/count_tokens (Anthropic token counting)', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let received: Received[];
  let answer: (res: ServerResponse, got: Received) => void;
  const client = (route: string, apiKey: string | null = f.developerKey) =>
    new Anthropic({ apiKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const lastEntry = async () => (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
  const prompt = {
    model: 'any',
    system: [{ type: 'text' as const, text: 'Be brief.', cache_control: { type: 'ephemeral' as const } }],
    messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }],
    tools: [{ name: 'weather', description: 'Looks up the weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }],
    thinking: { type: 'enabled' as const, budget_tokens: 2048 },
  };

  before(async () => {
    upstream = await listenRawOnLoopback(createServer(async (req, res) => {
      const parts: Buffer[] = [];
      for await (const part of req) parts.push(part as Buffer);
      const got = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Json };
      received.push(got);
      answer(res, got);
    }));
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream.url, anthropic_beta: 'prompt-caching-2024-07-31' }, api_keys: [{ api_key: PROVIDER_KEY }] });
    await f.create('/v1/admin/providers', { name: 'claude-files', type: 'anthropic', config: { api_base: upstream.url, allowed_client_betas: ['files-api-2025-04-14'] }, api_keys: [{ api_key: PROVIDER_KEY }] });
    await f.create('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-oai-count-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'via-anthropic', type: 'chat', models: [{ name: 'claude-x', provider: 'claude' }] });
    await f.create('/v1/admin/routes', { name: 'via-files', type: 'chat', models: [{ name: 'claude-y', provider: 'claude-files' }] });
    await f.create('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: upstream.url }, api_keys: [{ api_key: 'gemini-count-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'via-openai', type: 'chat', models: [{ name: 'gpt-x', provider: 'oai' }] });
    await f.create('/v1/admin/routes', { name: 'via-gemini', type: 'chat', models: [{ name: 'gemini-x', provider: 'gem' }] });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });
  beforeEach(() => {
    received = [];
    answer = (res, got) => {
      if (got.path.endsWith('/count_tokens')) sendJson(res, { input_tokens: 42 });
      else if (got.path.endsWith(':countTokens')) sendJson(res, { totalTokens: 17, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 17 }] });
      else if (got.path.startsWith('/v1/chat/completions')) sendJson(res, { id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
      else sendJson(res, { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Hi.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 } });
    };
  });

  it('messages.countTokens() is counted by the Anthropic upstream: the prompt, system, tools and thinking as /v1/messages sends them, with the provider key', async () => {
    const count = await client('via-anthropic').messages.countTokens(prompt);
    assert.deepEqual(count, { input_tokens: 42 });
    assert.equal(received.length, 1);
    const [got] = received;
    assert.equal(got!.path, '/v1/messages/count_tokens');
    assert.equal(got!.headers['x-api-key'], PROVIDER_KEY);
    assert.equal(got!.headers['anthropic-version'], '2023-06-01');
    assert.equal(got!.headers['anthropic-beta'], 'prompt-caching-2024-07-31');
    assert.deepEqual(got!.body, {
      model: 'claude-x',
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [{ name: 'weather', description: 'Looks up the weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    assert.ok(!JSON.stringify(got!.headers).includes(f.developerKey), 'the developer key reached the provider');

    const entry = await lastEntry();
    assert.equal(entry.endpoint, '/v1/messages/count_tokens');
    assert.equal(entry.status, 200);
    assert.equal(entry.provider, 'claude');
    assert.equal(entry.model, 'claude-x');
    assert.deepEqual(entry.input, [{ role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] }, { role: 'user', content: 'What is the weather in Paris?' }]);
    assert.equal(entry.usage, null, 'a count has no usage to price');
    assert.equal(entry.output, null);
  });

  it('a count takes no max_tokens; a max_tokens sent anyway is not passed on, and the answer carries the gateway headers', async () => {
    const res = await request(f.app).post('/v1/messages/count_tokens').set('x-api-key', f.developerKey).set('x-gateway-route', 'via-anthropic')
      .send({ model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] }).expect(200);
    assert.deepEqual(res.body, { input_tokens: 42 });
    assert.equal(res.headers['x-gateway-provider'], 'claude');
    assert.deepEqual(received[0]!.body, { model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('bad input is 400 in Anthropic\'s shape naming the field, and never reaches the upstream', async () => {
    for (const body of [{ model: 'm' }, { model: 'm', messages: [] }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled' } }, { model: 'm', messages: [{ role: 'user', content: [{ type: 'document' }] }] }]) {
      await assert.rejects(client('via-anthropic').messages.countTokens(body as never), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, String(error));
        const shape = error.error as { type: string; error: { type: string; code: string } };
        assert.equal(shape.type, 'error');
        assert.equal(shape.error.type, 'invalid_request_error');
        assert.equal(shape.error.code, 'invalid_value');
        return true;
      });
    }
    assert.equal(received.length, 0);
  });

  it('no developer key is 401 authentication_error; a wrong one too; an admin key is refused', async () => {
    await request(f.app).post('/v1/messages/count_tokens').set('x-gateway-route', 'via-anthropic').send({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }).expect(401)
      .expect((res) => assert.equal(res.body.error.type, 'authentication_error'));
    await assert.rejects(client('via-anthropic', 'gwk_wrong-key').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => error instanceof Anthropic.AuthenticationError);
    await request(f.app).post('/v1/messages/count_tokens').set('x-api-key', TEST_KEYS.superAdmin).send({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }).expect(401);
    assert.equal(received.length, 0);
  });

  it('a route whose chosen model is on an OpenAI-format provider answers 400 unsupported_endpoint naming the provider', async () => {
    await assert.rejects(client('via-openai').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      const shape = error.error as { error: { type: string; code: string; message: string } };
      assert.equal(shape.error.type, 'invalid_request_error');
      assert.equal(shape.error.code, 'unsupported_endpoint');
      assert.match(shape.error.message, /provider oai of type openai, which cannot count tokens/);
      return true;
    });
    assert.equal(received.length, 0);
  });

  it('a Gemini route is counted by Gemini\'s countTokens: the prompt as generateContent would get it, the answer as Anthropic\'s count, no betas', async () => {
    const count = await client('via-gemini').beta.messages.countTokens({ ...prompt, thinking: undefined, betas: ['interleaved-thinking-2025-05-14'] });
    assert.deepEqual(count, { input_tokens: 17 });
    const [got] = received;
    assert.equal(got!.path, '/v1beta/models/gemini-x:countTokens');
    assert.equal(got!.headers['x-goog-api-key'], 'gemini-count-provider-key-01');
    assert.equal(got!.headers['anthropic-beta'], undefined);
    assert.deepEqual(got!.body, {
      generateContentRequest: {
        model: 'models/gemini-x',
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }],
        tools: [{ functionDeclarations: [{ name: 'weather', description: 'Looks up the weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }],
      },
    });
  });

  it('the upstream\'s errors come back in Anthropic\'s shape, and an answer without a count is 502', async () => {
    answer = (res) => sendJson(res, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate' } }, 400);
    await assert.rejects(client('via-anthropic').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) =>
      error instanceof Anthropic.BadRequestError && /roles must alternate/.test(error.message));
    answer = (res) => sendJson(res, { tokens: 'many' });
    await assert.rejects(client('via-anthropic').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) =>
      error instanceof Anthropic.APIError && error.status === 502 && /input_tokens/.test(error.message));
  });

  it('the application\'s input checks apply: a rejected prompt is never sent to be counted', async () => {
    const policy = (body: Json) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(body).expect(200);
    await policy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    try {
      await assert.rejects(client('via-anthropic').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Tell me the forbidden plan.' }] }), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, String(error));
        assert.equal((error.error as { error: { code: string } }).error.code, 'guardrail_rejected');
        return true;
      });
      assert.equal(received.length, 0, 'the rejected prompt reached the provider');
      const entry = await lastEntry();
      assert.equal(entry.endpoint, '/v1/messages/count_tokens');
      assert.equal(entry.error.code, 'guardrail_rejected');
      // A prompt the checks pass is counted.
      assert.deepEqual(await client('via-anthropic').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hello' }] }), { input_tokens: 42 });
    } finally {
      await policy({ mode: 'inspect', processors: {} });
    }
  });

  it('a count is a request against requests_per_minute', async () => {
    await f.create('/v1/admin/applications', { name: 'counted', limits: { requests_per_minute: 2 } });
    const key = (await request(f.app).post('/v1/admin/applications/counted/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
    const counted = client('via-anthropic', key);
    const body = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };
    await counted.messages.countTokens(body);
    await counted.messages.countTokens(body);
    await assert.rejects(counted.messages.countTokens(body), (error: unknown) => error instanceof Anthropic.RateLimitError);
    assert.equal(received.length, 2);
  });

  describe('anthropic-beta from clients', () => {
    it('allowed client betas reach an Anthropic provider merged with its configured ones; others are left out', async () => {
      await client('via-anthropic').beta.messages.create({
        model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }],
        betas: ['interleaved-thinking-2025-05-14', 'files-api-2025-04-14', 'code-execution-2025-05-22', 'prompt-caching-2024-07-31', 'fine-grained-tool-streaming-2025-05-14'],
      });
      assert.equal(received[0]!.headers['anthropic-beta'], 'prompt-caching-2024-07-31,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14');
      // The count gets them too (the SDK adds its own token-counting beta, which is not on the list).
      // The 1M-token context is not on the default list: its long-context price is not in the price table, so budgets would undercount.
      await client('via-anthropic').beta.messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], betas: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'] });
      assert.equal(received[1]!.path, '/v1/messages/count_tokens');
      assert.equal(received[1]!.headers['anthropic-beta'], 'prompt-caching-2024-07-31,interleaved-thinking-2025-05-14');
    });

    it('a provider\'s allowed_client_betas replaces the default list', async () => {
      await client('via-files').beta.messages.create({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }], betas: ['interleaved-thinking-2025-05-14', 'files-api-2025-04-14'] });
      assert.equal(received[0]!.headers['anthropic-beta'], 'files-api-2025-04-14');
      await client('via-files').messages.create({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(received[1]!.headers['anthropic-beta'], undefined);
    });

    it('a malformed beta (too long, not a beta name) is 400 naming the header and nothing reaches the upstream', async () => {
      for (const value of [`interleaved-thinking-2025-05-14,${'a'.repeat(65)}`, 'Interleaved-Thinking', 'a;b', 'x y', Array.from({ length: 17 }, (_, i) => `beta-${i}`).join(',')]) {
        const res = await request(f.app).post('/v1/messages').set('x-api-key', f.developerKey).set('x-gateway-route', 'via-anthropic').set('anthropic-beta', value)
          .send({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
        assert.equal(res.status, 400, value);
        assert.equal(res.body.error.type, 'invalid_request_error');
        assert.match(res.body.error.message, /anthropic-beta/);
      }
      assert.equal(received.length, 0);
    });

    it('a CRLF in the header value never makes a header upstream: only the allowed beta arrives', async () => {
      const { connect } = await import('node:net');
      const body = JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
      const url = new URL(server.base);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(`POST /v1/messages HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${f.developerKey}\r\nx-gateway-route: via-anthropic\r\ncontent-type: application/json\r\n`
            + `anthropic-beta: interleaved-thinking-2025-05-14\r\nx-injected: files-api-2025-04-14\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        });
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(raw, /^HTTP\/1\.1 200/);
      assert.equal(received[0]!.headers['anthropic-beta'], 'prompt-caching-2024-07-31,interleaved-thinking-2025-05-14');
      assert.equal(received[0]!.headers['x-injected'], undefined);
    });

    it('an OpenAI-format provider never gets a client\'s anthropic-beta', async () => {
      await client('via-openai').beta.messages.create({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }], betas: ['interleaved-thinking-2025-05-14'] });
      assert.equal(received[0]!.path, '/v1/chat/completions');
      assert.equal(received[0]!.headers['anthropic-beta'], undefined);
    });
  });
});

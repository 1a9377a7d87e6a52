// POST /v1/messages through Anthropic's official SDK: JSON and streams, tools, errors, policies and the request log, over OpenAI and Anthropic upstreams.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

const UPSTREAMS = [
  { format: 'openai', route: 'via-openai', model: 'gpt-4o-mini' },
  { format: 'anthropic', route: 'via-anthropic', model: 'claude-upstream' },
] as const;

describe('15.1: POST /v1/messages (Anthropic Messages in front of any provider)', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let base: string;
  const client = (route: string, options: { apiKey?: string | null; authToken?: string } = {}) =>
    new Anthropic({ apiKey: options.apiKey === undefined ? f.developerKey : options.apiKey, authToken: options.authToken, baseURL: base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const lastEntry = async () => (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];

  before(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, streamWindowing: { stepChars: 4, windowChars: 200 } });
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-ant-stored-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'via-openai', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await f.create('/v1/admin/routes', { name: 'via-anthropic', type: 'chat', models: [{ name: 'claude-upstream', provider: 'claude' }] });
    server = await listenOnLoopback(f.app);
    base = server.base;
  });
  after(async () => {
    server.close();
    await f.close();
  });
  beforeEach(() => f.fake.reset());

  for (const upstream of UPSTREAMS) {
    it(`15.1: messages.create() answers an Anthropic message through an ${upstream.format} upstream, system prompt and turns translated`, async () => {
      const message = await client(upstream.route).messages.create({
        model: 'any-model', max_tokens: 64, system: 'Be brief.', stop_sequences: ['END'],
        messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: [{ type: 'text', text: 'How are you?' }] }],
      });
      assert.equal(message.type, 'message');
      assert.equal(message.role, 'assistant');
      assert.deepEqual(message.content, [{ type: 'text', text: 'Hello from the fake provider.' }]);
      assert.equal(message.stop_reason, 'end_turn');
      assert.equal(message.usage.input_tokens, 10);
      assert.equal(message.usage.output_tokens, 5);
      const sent = f.fake.requests.at(-1)!;
      assert.equal(sent.format, upstream.format);
      const body = sent.body as Record<string, unknown>;
      assert.equal(body.model, upstream.model);
      assert.equal(body.max_tokens, 64);
      if (upstream.format === 'openai') {
        assert.deepEqual(body.messages, [
          { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'How are you?' },
        ]);
        assert.deepEqual(body.stop, ['END']);
      } else {
        assert.equal(body.system, 'Be brief.');
        assert.deepEqual(body.stop_sequences, ['END']);
        assert.equal(sent.headers['x-api-key'], 'sk-ant-stored-provider-key-01', 'the stored provider key, never the developer key');
      }
    });

    it(`15.1: messages.stream() streams Anthropic events through an ${upstream.format} upstream, with usage in message_delta`, async () => {
      const stream = client(upstream.route).messages.stream({ model: 'any-model', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
      const types: string[] = [];
      let deltaUsage: unknown;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'message_delta') deltaUsage = event.usage;
      }
      const final = await stream.finalMessage();
      assert.deepEqual(final.content, [{ type: 'text', text: 'Hello from the fake provider.' }]);
      assert.equal(final.stop_reason, 'end_turn');
      assert.equal(types[0], 'message_start');
      assert.equal(types[1], 'content_block_start');
      assert.ok(types.filter((type) => type === 'content_block_delta').length >= 2, `several deltas: ${types.join(',')}`);
      assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
      assert.equal((deltaUsage as { output_tokens: number }).output_tokens, 5);
      assert.equal((deltaUsage as { input_tokens: number }).input_tokens, 10);
    });

    it(`15.1: tool use round-trips through an ${upstream.format} upstream, JSON and streamed`, async () => {
      const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
      f.fake.script({ toolCall: { name: 'get_weather', arguments: { city: 'Paris' } } });
      const message = await client(upstream.route).messages.create({ model: 'm', max_tokens: 64, tools, tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
      assert.equal(message.stop_reason, 'tool_use');
      const use = message.content.find((block) => block.type === 'tool_use');
      assert.ok(use && use.type === 'tool_use');
      assert.equal(use.name, 'get_weather');
      assert.deepEqual(use.input, { city: 'Paris' });
      const sentTools = (f.fake.requests.at(-1)!.body as { tools: unknown[]; tool_choice: unknown });
      if (upstream.format === 'openai') {
        assert.deepEqual(sentTools.tools, [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: tools[0]!.input_schema } }]);
        assert.equal(sentTools.tool_choice, 'required');
      } else {
        assert.deepEqual(sentTools.tools, tools);
        assert.deepEqual(sentTools.tool_choice, { type: 'any' });
      }

      const streamed = await client(upstream.route).messages.stream({ model: 'm', max_tokens: 64, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage();
      const streamedUse = streamed.content.find((block) => block.type === 'tool_use');
      assert.ok(streamedUse && streamedUse.type === 'tool_use');
      assert.deepEqual(streamedUse.input, { city: 'Paris' });
      assert.equal(streamed.stop_reason, 'tool_use');

      f.fake.script({ text: 'It is sunny.' });
      const answer = await client(upstream.route).messages.create({
        model: 'm', max_tokens: 64, tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny, 21 C' }] },
        ],
      });
      assert.deepEqual(answer.content, [{ type: 'text', text: 'It is sunny.' }]);
      const turns = (f.fake.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> }).messages;
      if (upstream.format === 'openai') {
        assert.deepEqual(turns.at(-1), { role: 'tool', tool_call_id: use.id, content: 'sunny, 21 C' });
        assert.deepEqual((turns.at(-2)!.tool_calls as unknown[])[0], { id: use.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
      } else {
        assert.deepEqual(turns.at(-1), { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny, 21 C' }] });
      }
    });
  }

  it('15.1: authenticates with x-api-key or Authorization: Bearer; a bad key is an Anthropic authentication_error before the body is read', async () => {
    const viaBearer = await client('via-openai', { apiKey: null, authToken: f.developerKey }).messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(viaBearer.content.length, 1);
    await assert.rejects(client('via-openai', { apiKey: 'gwk_wrong-key' }).messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.AuthenticationError);
      assert.equal((error.error as { error: { type: string } }).error.type, 'authentication_error');
      return true;
    });
    // An admin key is not a developer key.
    await request(f.app).post('/v1/messages').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(401);
    assert.equal(f.fake.requests.length, 1);
  });

  it('15.1: errors are in Anthropic\'s shape: an invalid body, an unknown route, an upstream 429 with Retry-After', async () => {
    const bad = await request(f.app).post('/v1/messages').set('x-api-key', f.developerKey).send({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }).expect(400);
    assert.deepEqual(bad.body, { type: 'error', error: { type: 'invalid_request_error', message: "The field 'max_tokens' is required.", code: 'invalid_value' } });
    await assert.rejects(client('no-such-route').messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }), Anthropic.NotFoundError);
    f.fake.script([{ fail: { status: 429, retryAfter: 7 } }, { fail: { status: 429, retryAfter: 7 } }]);
    await assert.rejects(client('via-openai').messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.RateLimitError);
      assert.equal((error.error as { error: { type: string } }).error.type, 'rate_limit_error');
      return true;
    });
  });

  it('messages.countTokens() on a route to an OpenAI-format provider is 400 in Anthropic\'s shape saying it cannot count tokens', async () => {
    await assert.rejects(client('via-openai').messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      const body = error.error as { type: string; error: { type: string; message: string; code: string } };
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'invalid_request_error');
      assert.equal(body.error.code, 'unsupported_endpoint');
      assert.match(body.error.message, /cannot count tokens/);
      return true;
    });
    assert.equal(f.fake.requests.length, 0);
  });

  it('a tool_use block whose input is not an object is 400 in Anthropic\'s shape, naming the field, with no upstream call', async () => {
    const turns = (input: unknown) => [
      { role: 'user' as const, content: 'Weather in Paris?' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'get_weather', input }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'sunny' }] },
    ];
    await assert.rejects(client('via-openai').messages.create({ model: 'm', max_tokens: 8, messages: turns('{"city":"Paris"}') }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError);
      assert.deepEqual(error.error, {
        type: 'error',
        error: { type: 'invalid_request_error', message: "messages[1].content[0].input must be an object (the tool's arguments).", code: 'invalid_value' },
      });
      return true;
    });
    for (const input of [['city', 'Paris'], null, 42, undefined]) {
      const res = await request(f.app).post('/v1/messages').set('x-api-key', f.developerKey).set('x-gateway-route', 'via-openai')
        .send({ model: 'm', max_tokens: 8, messages: turns(input) }).expect(400);
      assert.equal(res.body.type, 'error', JSON.stringify(input));
      assert.match(res.body.error.message, /^messages\[1\]\.content\[0\]\.input must be an object/, JSON.stringify(input));
    }
    assert.equal(f.fake.requests.length, 0, 'the provider was called');
    const answer = await client('via-openai').messages.create({ model: 'm', max_tokens: 8, messages: turns({ city: 'Paris' }) });
    assert.equal(answer.type, 'message');
  });

  it('15.1: the application\'s guardrail policy holds on input and on streamed output, and the request log records /v1/messages', async () => {
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { words: ['forbidden', 'provider'] } } }).expect(200);
    try {
      await assert.rejects(client('via-openai').messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'say something forbidden' }] }), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError);
        assert.equal((error.error as { error: { code: string } }).error.code, 'guardrail_rejected');
        return true;
      });
      assert.equal(f.fake.requests.length, 0, 'the provider was called');
      const rejected = await lastEntry();
      assert.equal(rejected.endpoint, '/v1/messages');
      assert.equal(rejected.error.code, 'guardrail_rejected');

      // The answer says "provider": the streamed output is cut with an Anthropic error event before that text is released.
      const stream = client('via-anthropic').messages.stream({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      await assert.rejects(stream.finalMessage());
      assert.ok(!text.includes('provider'), `the rejected text was released: ${text}`);
      const cut = await lastEntry();
      assert.equal(cut.endpoint, '/v1/messages');
      assert.equal(cut.provider, 'claude');
      assert.ok(cut.guardrail_checks.some((check: { phase: string }) => check.phase === 'output'));
    } finally {
      await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect', processors: {} }).expect(200);
    }
    await client('via-openai').messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
    const entry = await lastEntry();
    assert.equal(entry.endpoint, '/v1/messages');
    assert.equal(entry.status, 200);
    assert.equal(entry.output, 'Hello from the fake provider.');
    assert.deepEqual(entry.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.ok(!JSON.stringify(entry).includes(f.developerKey), 'the developer key is in the log');
  });

  it('15.1: without X-Gateway-route, `model` resolves as on chat completions', async () => {
    const anthropic = new Anthropic({ apiKey: f.developerKey, baseURL: base, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(message.model, 'gpt-4o-mini');
    assert.equal((f.fake.requests.at(-1)!.body as { model: string }).model, 'gpt-4o-mini');
  });
});

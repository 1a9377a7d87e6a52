// Input policies read an assistant's tool call arguments and refusal parts and a completion's suffix, and refuse token ids they cannot read: text a developer key writes.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const toolTurn = (args: string) => [
  { role: 'user', content: 'Look it up.' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: args } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'Done.' },
];

describe('input policies on tool call arguments and refusals', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  afterEach(() => f.close());

  const setPolicy = (policy: Record<string, unknown>) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);
  const post = (path: string, body: Record<string, unknown>) => request(f.app).post(path).set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send(body);

  it('a banned word in tool call arguments or a refusal part is rejected on chat, Messages and Responses, before any provider call', async () => {
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    const refused = [
      post('/v1/chat/completions', chatBody({ messages: toolTurn('{"query":"the forbidden plan"}') })),
      post('/v1/chat/completions', chatBody({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{"q":"forbidden"}' } }, { role: 'function', name: 'lookup', content: 'ok' }] })),
      post('/v1/chat/completions', chatBody({ messages: [{ role: 'assistant', content: [{ type: 'refusal', refusal: 'The forbidden plan, as you asked.' }] }, { role: 'user', content: 'Go on.' }] })),
      post('/v1/messages', {
        model: 'gpt-4o-mini',
        max_tokens: 50,
        messages: [
          { role: 'user', content: 'Look it up.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { query: 'the forbidden plan' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Done.' }] },
        ],
      }),
      post('/v1/responses', { model: 'gpt-4o-mini', input: [{ type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"query":"the forbidden plan"}' }, { type: 'function_call_output', call_id: 'call_1', output: 'Done.' }] }),
    ];
    for (const [index, pending] of refused.entries()) {
      const res = await pending;
      assert.equal(res.status, 400, `request ${index}: ${res.text}`);
      assert.equal(res.body.error.code, 'guardrail_rejected', `request ${index}`);
      assert.match(res.body.error.message, /The input was rejected by banned_words/, res.text);
    }
    assert.equal(f.fake.requests.length, 0, 'the provider is never called');
    await post('/v1/chat/completions', chatBody({ messages: toolTurn('{"query":"the capital of France"}') })).expect(200);
  });

  it('DLP mask rewrites tool call arguments the provider receives, which stay JSON', async () => {
    await setPolicy({ mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } });
    await post('/v1/chat/completions', chatBody({ messages: toolTurn('{"to":"jane.doe@example.com"}') })).expect(200);
    const sent = (f.fake.requests[0]?.body as { messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }> }).messages[1]!.tool_calls![0]!.function.arguments;
    assert.ok(!sent.includes('jane.doe@example.com'), sent);
    assert.match(JSON.parse(sent).to, /^\*+$/);
  });

  it('a completions prompt or embeddings input of token ids is refused 400 while input checks run, and passes without them', async () => {
    await f.create('/v1/admin/routes', { name: 'cmp', type: 'completions', models: [{ name: 'gpt-3.5-turbo-instruct', provider: 'fake' }] });
    await f.create('/v1/admin/routes', { name: 'emb', type: 'embeddings', models: [{ name: 'text-embedding-3-small', provider: 'fake' }] });
    const send = (path: string, route: string, body: Record<string, unknown>) => request(f.app).post(path).set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(body);
    const tokenBodies: Array<[string, string, Record<string, unknown>]> = [
      ['/v1/completions', 'cmp', { prompt: [40, 1390, 279, 37913, 3197] }],
      ['/v1/completions', 'cmp', { prompt: [[40, 1390], [279, 37913]] }],
      ['/v1/embeddings', 'emb', { input: [[40, 1390, 279]] }],
    ];
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    for (const [path, route, body] of tokenBodies) {
      const res = await send(path, route, body).expect(400);
      assert.equal(res.body.error.code, 'invalid_value');
      assert.equal(res.body.error.param, path === '/v1/completions' ? 'prompt' : 'input');
    }
    assert.equal(f.fake.requests.length, 0, 'the provider is never called');
    await send('/v1/completions', 'cmp', { prompt: ['a text prompt'] }).expect(200);
    await setPolicy({ mode: 'reject', processors: {} });
    for (const [path, route, body] of tokenBodies) await send(path, route, body).expect(200);
  });

  it('a completion\'s suffix is input: rejected in reject mode before any provider call, and DLP-masked', async () => {
    await f.create('/v1/admin/routes', { name: 'cmp', type: 'completions', models: [{ name: 'gpt-3.5-turbo-instruct', provider: 'fake' }] });
    const complete = (body: Record<string, unknown>) => request(f.app).post('/v1/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cmp' }).send(body);
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    const refused = await complete({ prompt: 'def plan():', suffix: '# the forbidden plan' }).expect(400);
    assert.equal(refused.body.error.code, 'guardrail_rejected');
    assert.equal(f.fake.requests.length, 0, 'the provider is never called');
    await setPolicy({ mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } });
    await complete({ prompt: 'To: ', suffix: '\nCc: jane.doe@example.com' }).expect(200);
    assert.equal((f.fake.requests[0]?.body as { suffix: string }).suffix, '\nCc: ********************');
  });
});

// Output policies read every text of an answer a client gets: refusal, reasoning and tool call arguments, JSON and streamed, fresh and cached.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

/** What the scripted upstream answers next: a JSON chat answer, or these raw SSE writes, one after another. */
let scripted: { json?: Record<string, unknown>; writes?: string[] } = {};

const chunk = (choices: unknown[]): string => JSON.stringify({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices });
const event = (delta: Record<string, unknown>, finish: string | null = null): string => `data: ${chunk([{ index: 0, delta, finish_reason: finish }])}\n\n`;
const answerOf = (message: Record<string, unknown>): Record<string, unknown> => ({
  id: 'chatcmpl-f', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
});

/** Answers the client gets, each carrying `forbidden` only outside its content. */
const MESSAGES: Record<string, Record<string, unknown>> = {
  'tool call arguments': { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send', arguments: '{"body":"the forbidden plan"}' } }] },
  refusal: { content: null, refusal: 'I will not share the forbidden plan.' },
  reasoning_content: { content: 'All is well.', reasoning_content: 'Think about the forbidden plan.' },
};
/** The same texts streamed, each cut inside the word. */
const DELTAS: Record<string, Array<Record<string, unknown>>> = {
  'tool call arguments': [
    { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'send', arguments: '{"body":"the forb' } }] },
    { tool_calls: [{ index: 0, function: { arguments: 'idden plan"}' } }] },
  ],
  refusal: [{ refusal: 'I will not share the forb' }, { refusal: 'idden plan.' }],
  reasoning_content: [{ reasoning_content: 'Think about the forb' }, { reasoning_content: 'idden plan.' }, { content: 'All is well.' }],
};

/** Each text a client joins from stream deltas: content, refusal, reasoning_content, and each tool call's arguments. */
function joinedTexts(deltas: unknown[]): string[] {
  const texts = new Map<string, string>();
  const add = (key: string, text: unknown) => typeof text === 'string' && texts.set(key, (texts.get(key) ?? '') + text);
  for (const delta of deltas as Array<Record<string, unknown> | undefined>) {
    for (const name of ['content', 'refusal', 'reasoning_content']) add(name, delta?.[name]);
    for (const call of (delta?.tool_calls ?? []) as Array<{ index: number; function?: { arguments?: string } }>) add(`tool:${call.index}`, call.function?.arguments);
  }
  return [...texts.values()];
}

describe('output policies on refusal, reasoning and tool call arguments', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let gateway: LoopbackServer;
  let client: OpenAI;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, streamWindowing: { stepChars: 20, windowChars: 50 } });
    upstream = await listenRawOnLoopback(
      createServer((req, res) => {
        req.resume();
        req.on('end', async () => {
          if (scripted.json) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(scripted.json));
            return;
          }
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Each write its own TCP chunk: written only once the gateway has read the one before.
          for (const text of scripted.writes ?? []) await new Promise<void>((resolve) => res.write(text, () => setTimeout(resolve, 10)));
          res.end();
        });
      }),
    );
    await f.create('/v1/admin/providers', { name: 'scripted', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key_secret_name: 'main', api_key: 'sk-scripted-provider-key-01' }] });
    // An OpenAI-compatible server without a key (Ollama, vLLM): its stream was relayed byte for byte.
    await f.create('/v1/admin/providers', { name: 'keyless', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['gpt-4o-mini'] } });
    await f.create('/v1/admin/routes', { name: 'scripted', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'scripted' }] });
    await f.create('/v1/admin/routes', { name: 'keyless', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'keyless' }] });
    gateway = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${gateway.base}/v1`, defaultHeaders: { 'x-gateway-route': 'scripted' }, maxRetries: 0 });
  });
  afterEach(async () => {
    scripted = {};
    gateway.close();
    await upstream.close();
    await f.close();
  });

  const setPolicy = (policy: Record<string, unknown>) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);
  const rejectForbidden = () => setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } });

  it('a JSON answer whose refusal, reasoning or tool call arguments fail the check is withheld (400 guardrail_rejected)', async () => {
    await rejectForbidden();
    for (const [name, message] of Object.entries(MESSAGES)) {
      scripted = { json: answerOf(message) };
      const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }).then(
        (answer) => assert.fail(`${name}: answered ${JSON.stringify(answer)}`),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof OpenAI.APIError && error.status === 400, `${name}: ${String(error)}`);
      assert.equal((error.error as { code?: string }).code, 'guardrail_rejected', name);
    }
  });

  it('streamed refusal, reasoning and tool call argument deltas are held and checked: none of the text reaches the client', async () => {
    await rejectForbidden();
    for (const [name, deltas] of Object.entries(DELTAS)) {
      scripted = { writes: [event({ role: 'assistant', content: '' }), ...deltas.map((delta) => event(delta)), event({}, 'stop'), 'data: [DONE]\n\n'] };
      const received: unknown[] = [];
      const error = await (async () => {
        const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
        for await (const part of stream) received.push(part.choices[0]?.delta);
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof OpenAI.APIError, `${name}: the stream ended without an error: ${JSON.stringify(received)}`);
      assert.match(error.message, /rejected by banned_words/, name);
      // What passed a window may be sent; the word itself never is, however the client joins the deltas.
      assert.ok(!joinedTexts(received).some((text) => text.includes('forbidden')), `${name}: ${JSON.stringify(received)}`);
    }
  });

  it('dlp_cloud mask on output masks an address in tool call arguments and a refusal of a JSON answer', async () => {
    await setPolicy({ mode: 'reject', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });
    scripted = { json: answerOf({ content: null, refusal: 'Not to jane.doe@example.com.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send', arguments: '{"to":"jane.doe@example.com"}' } }] }) };
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    const message = answer.choices[0]!.message;
    assert.equal(message.tool_calls?.[0]?.type === 'function' ? message.tool_calls[0].function.arguments : undefined, '{"to":"********************"}');
    assert.equal(message.refusal, 'Not to ********************.');
  });

  it('dlp_cloud mask on output: a stream reaches the client masked, and its Chronicles entry keeps the masked text', async () => {
    await setPolicy({ mode: 'inspect', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });
    scripted = { writes: [event({ role: 'assistant', content: '' }), event({ content: 'Write to jane.d' }), event({ content: 'oe@example.com today.' }), event({}, 'stop'), 'data: [DONE]\n\n'] };
    let text = '';
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
    assert.equal(text, 'Write to ******************** today.', 'the address cut across two events is masked whole');
    const entries = async () => (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data as Array<{ output: string | null; stream: boolean }>;
    let entry = (await entries())[0];
    for (let tries = 0; tries < 100 && entry?.stream !== true; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      entry = (await entries())[0];
    }
    assert.equal(entry?.output, 'Write to ******************** today.');
  });

  it('a keyless provider\'s stream cut inside an event: no part of that event is sent before its text is checked', async () => {
    await rejectForbidden();
    const clean = event({ content: 'A long and entirely harmless opening line.' });
    const bad = event({ content: ' Then the forbidden plan.' });
    const cutAt = bad.indexOf('plan');
    scripted = { writes: [event({ role: 'assistant', content: '' }), clean + bad.slice(0, cutAt), bad.slice(cutAt), event({}, 'stop'), 'data: [DONE]\n\n'] };
    const raw = await fetch(`${gateway.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'keyless' },
      body: JSON.stringify(chatBody({ stream: true, stream_options: { include_usage: true } })),
    });
    const text = await raw.text();
    const [before, errorEvent] = text.split('event: error\n');
    assert.ok(errorEvent !== undefined, text);
    assert.ok(!before!.includes('forbidden'), text);
    // The error event stands alone, so the client reads the gateway's error rather than a broken event.
    assert.match(before!, /\n\n$/, text);
    const official = new OpenAI({ apiKey: f.developerKey, baseURL: `${gateway.base}/v1`, defaultHeaders: { 'x-gateway-route': 'keyless' }, maxRetries: 0 });
    const error = await (async () => {
      for await (const _part of await official.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } }));
    })().then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.match(error.message, /rejected by banned_words/);
  });

  it('a cached answer\'s tool call arguments meet the output policy in force on a hit, JSON and streamed', async () => {
    await request(f.app).put('/v1/admin/routes/scripted').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { cache: { ttl_seconds: 60 } } }).expect(200);
    scripted = { json: answerOf(MESSAGES['tool call arguments']!) };
    const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Send it.' }] };
    await client.chat.completions.create(ask);
    await rejectForbidden();
    scripted = {};
    const json = await client.chat.completions.create(ask).then((answer) => JSON.stringify(answer), (caught: unknown) => caught);
    assert.ok(json instanceof OpenAI.APIError && json.status === 400, String(json));
    const received: unknown[] = [];
    const streamed = await (async () => {
      for await (const part of await client.chat.completions.create({ ...ask, stream: true })) received.push(part);
    })().then(() => undefined, (caught: unknown) => caught);
    assert.ok(streamed instanceof OpenAI.APIError, `the cached stream was replayed: ${JSON.stringify(received)}`);
    assert.ok(!JSON.stringify(received).includes('forbidden'));
  });

  it('/v1/messages: tool_use input is checked, JSON and streamed, a parallel call the stream holds to write whole included', async () => {
    await rejectForbidden();
    const anthropic = new Anthropic({ apiKey: f.developerKey, baseURL: gateway.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'scripted' } });
    const hi = { model: 'any', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
    scripted = { json: answerOf(MESSAGES['tool call arguments']!) };
    const json = await anthropic.messages.create(hi).then((message) => JSON.stringify(message), (caught: unknown) => caught);
    assert.ok(json instanceof Anthropic.APIError && json.status === 400, String(json));
    // Two calls announced, then their arguments in turns: the second is held and written whole after the first.
    scripted = {
      writes: [
        event({ role: 'assistant', content: null, tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
          { index: 1, id: 'call_b', type: 'function', function: { name: 'send', arguments: '' } },
        ] }),
        event({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        event({ tool_calls: [{ index: 1, function: { arguments: '{"body":"the forb' } }] }),
        event({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
        event({ tool_calls: [{ index: 1, function: { arguments: 'idden plan"}' } }] }),
        event({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    };
    const inputs: string[] = [];
    const streamed = await (async () => {
      for await (const part of anthropic.messages.stream(hi)) if (part.type === 'content_block_delta' && part.delta.type === 'input_json_delta') inputs.push(part.delta.partial_json);
    })().then(() => undefined, (caught: unknown) => caught);
    assert.ok(streamed instanceof Error, `the stream ended as a message: ${inputs.join(' | ')}`);
    assert.match(String(streamed), /guardrail_rejected|rejected by banned_words/);
    assert.ok(!inputs.join('').includes('forbidden'), inputs.join(' | '));
  });
});

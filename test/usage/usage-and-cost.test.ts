// Issue 15 point 5: usage from every answer (streams included, every provider format), its cost from the price table, and the price admin API.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { costOf, findPrice } from '../../src/usage/price-table.js';
import { normalizeUsage } from '../../src/usage/usage-extractor.js';
import { admin, chat, metered, ssePayloads } from './usage-helpers.js';

const entries = async (f: TrafficFixture) => (await admin(f, 'get', '/v1/admin/applications/app/chronicles', 'viewer').expect(200)).body.data;

describe('15.5 usage and cost', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  afterEach(() => f.close());

  it('15.5.1: a stream without include_usage asks the upstream for usage, hides the usage chunk, and records usage and cost', async () => {
    const res = await chat(f, { stream: true }).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString()));
      r.on('end', () => done(null, text));
    }).expect(200);
    assert.deepEqual((f.fake.requests[0]!.body as { stream_options?: unknown }).stream_options, { include_usage: true });
    const payloads = ssePayloads(res.body as string);
    assert.equal(payloads.at(-1), '[DONE]');
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload) as { choices: unknown[]; usage?: unknown });
    assert.ok(chunks.length >= 3, 'the content chunks were relayed');
    assert.ok(chunks.every((chunk) => chunk.choices.length > 0), 'no usage-only chunk reached the client');
    assert.equal(chunks.map((chunk) => (chunk.choices[0] as { delta: { content?: string } }).delta.content ?? '').join(''), 'Hello from the fake provider.');
    await metered(f, 1);
    const [entry] = await entries(f);
    assert.equal(entry.usage.prompt_tokens, 10);
    assert.equal(entry.usage.completion_tokens, 5);
    // gpt-4o-mini: 0.15 USD per million input tokens, 0.60 per million output tokens.
    assert.deepEqual(entry.cost, { usd: 0.0000045, input_usd: 0.0000015, output_usd: 0.000003, cached_input_usd: 0, cache_write_input_usd: 0 });
  });

  it('15.5.1: a stream with include_usage keeps its usage chunk', async () => {
    const res = await chat(f, { stream: true, stream_options: { include_usage: true } }).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString()));
      r.on('end', () => done(null, text));
    }).expect(200);
    const chunks = ssePayloads(res.body as string).slice(0, -1).map((payload) => JSON.parse(payload) as { choices: unknown[]; usage?: { total_tokens: number } });
    const usageChunk = chunks.find((chunk) => chunk.choices.length === 0);
    assert.equal(usageChunk?.usage?.total_tokens, 15);
  });

  it('15.5.1: a provider with stream_usage false is not asked for usage', async () => {
    await admin(f, 'put', '/v1/admin/providers/fake').send({ config: { api_base: `${f.fake.url}/v1`, models: ['gpt-4o-mini'], stream_usage: false } }).expect(200);
    await chat(f, { stream: true }).expect(200);
    assert.equal((f.fake.requests[0]!.body as { stream_options?: unknown }).stream_options, undefined);
  });

  for (const type of ['anthropic', 'gemini'] as const) {
    it(`15.5.1: ${type} usage, streamed and not, is recorded in the same fields and the client sees no usage chunk`, async () => {
      await f.create('/v1/admin/providers', { name: type, type, config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-test-provider-00001' }] });
      const model = type === 'anthropic' ? 'claude-sonnet-4-5-20250929' : 'gemini-2.5-flash';
      await f.create('/v1/admin/routes', { name: type, type: 'chat', models: [{ name: model, provider: type }] });
      const send = (stream: boolean) =>
        request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': type }).send({ model, stream, messages: [{ role: 'user', content: 'Hi' }] });
      await send(false).expect(200);
      const streamed = await send(true).expect(200);
      const chunks = ssePayloads(streamed.text).slice(0, -1).map((payload) => JSON.parse(payload) as { choices: unknown[] });
      assert.ok(chunks.length > 0 && chunks.every((chunk) => chunk.choices.length > 0), 'no usage-only chunk reached the client');
      await metered(f, 2);
      const logged = await entries(f);
      assert.equal(logged.length, 2);
      const price = type === 'anthropic' ? { input: 3, output: 15 } : { input: 0.3, output: 2.5 };
      for (const entry of logged) {
        assert.equal(entry.usage.prompt_tokens, 10, `${entry.stream ? 'streamed' : 'JSON'} prompt tokens`);
        assert.equal(entry.usage.completion_tokens, 5, `${entry.stream ? 'streamed' : 'JSON'} completion tokens`);
        assert.equal(entry.cost.usd, Math.round(((10 * price.input + 5 * price.output) / 1e6) * 1e8) / 1e8);
      }
    });
  }

  it('15.5.1: one extractor maps OpenAI, Responses, Anthropic and Gemini usage to the same fields', () => {
    assert.deepEqual(normalizeUsage({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 40 } }), {
      prompt_tokens: 100, completion_tokens: 20, cached_tokens: 40, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 120,
    });
    assert.deepEqual(normalizeUsage({ input_tokens: 100, output_tokens: 20, total_tokens: 120, input_tokens_details: { cached_tokens: 40 } }), {
      prompt_tokens: 100, completion_tokens: 20, cached_tokens: 40, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 120,
    });
    // Anthropic's input_tokens leave out cache reads and writes.
    assert.deepEqual(normalizeUsage({ input_tokens: 50, cache_creation_input_tokens: 10, cache_read_input_tokens: 40, output_tokens: 20 }), {
      prompt_tokens: 100, completion_tokens: 20, cached_tokens: 40, cache_write_tokens: 10, cache_write_1h_tokens: 0, total_tokens: 120,
    });
    assert.deepEqual(normalizeUsage({ promptTokenCount: 100, candidatesTokenCount: 15, thoughtsTokenCount: 5, cachedContentTokenCount: 40 }), {
      prompt_tokens: 100, completion_tokens: 20, cached_tokens: 40, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 120,
    });
    assert.equal(normalizeUsage({ foo: 1 }), null);
    assert.deepEqual(normalizeUsage({ prompt_tokens: -5, completion_tokens: 'x' }), { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 0 });
  });

  it('15.5.2: prices match dated model versions and bill cached input at its own price', () => {
    const table = { 'gpt-4o': { input: 2.5, output: 10, cached_input: 1.25 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } };
    assert.equal(findPrice(table, 'gpt-4o-2024-08-06'), table['gpt-4o']);
    assert.equal(findPrice(table, 'gpt-4o-mini-2024-07-18'), table['gpt-4o-mini']);
    assert.equal(findPrice(table, 'gpt-4oxyz'), undefined);
    assert.equal(findPrice(table, 'constructor'), undefined);
    const cost = costOf({ prompt_tokens: 1_000_000, completion_tokens: 1_000_000, cached_tokens: 400_000, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 2_000_000 }, table['gpt-4o']);
    assert.deepEqual(cost, { usd: 12, input_usd: 1.5, output_usd: 10, cached_input_usd: 0.5, cache_write_input_usd: 0 });
  });

  it('15.5.2: GET /v1/admin/prices shows the dated defaults; PUT overrides (admin role, validated) and is used for the next answer', async () => {
    const all = await admin(f, 'get', '/v1/admin/prices', 'viewer').expect(200);
    assert.match(all.body.as_of, /^\d{4}-\d{2}-\d{2}$/);
    for (const type of ['openai', 'azure', 'anthropic', 'gemini']) assert.ok(Object.keys(all.body.providers[type]).length >= 5, `${type} has default prices`);
    assert.deepEqual(all.body.providers.openai['gpt-4o-mini'], { input: 0.15, output: 0.6, cached_input: 0.075, source: 'default' });

    const body = { models: { 'gpt-4o-mini': { input: 1, output: 2 } } };
    const refused = await admin(f, 'put', '/v1/admin/prices/openai', 'viewer').send(body).expect(403);
    assert.equal(refused.body.error.code, 'insufficient_role');
    for (const bad of [{}, { models: { 'gpt-4o-mini': { input: -1, output: 2 } } }, { models: { 'gpt-4o-mini': { input: 1 } } }, { models: { __proto__x: { input: 1, output: 1 } } }, { models: { m: { input: 1, output: 1, extra: 1 } } }]) {
      const res = await admin(f, 'put', '/v1/admin/prices/openai').send(bad).expect(400);
      assert.equal(typeof res.body.error.message, 'string');
    }
    await admin(f, 'put', '/v1/admin/prices/bad%20type').send(body).expect(400);
    const set = await admin(f, 'put', '/v1/admin/prices/openai', 'admin').send(body).expect(200);
    assert.deepEqual(set.body.models['gpt-4o-mini'], { input: 1, output: 2, source: 'override' });

    await chat(f).expect(200);
    await metered(f, 1);
    assert.equal((await entries(f))[0].cost.usd, (10 * 1 + 5 * 2) / 1e6);

    await admin(f, 'put', '/v1/admin/prices/openai').send({ models: { 'gpt-4o-mini': null } }).expect(200);
    const reset = await admin(f, 'get', '/v1/admin/prices/openai').expect(200);
    assert.equal(reset.body.models['gpt-4o-mini'].source, 'default');
  });

  it('15.5.2: an answer from a model without a price records usage and a null cost', async () => {
    await f.create('/v1/admin/routes', { name: 'odd', type: 'chat', models: [{ name: 'unpriced-model', provider: 'fake' }] });
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'odd' }).send({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).expect(200);
    await metered(f, 1);
    const [entry] = await entries(f);
    assert.equal(entry.usage.total_tokens, 15);
    assert.equal(entry.cost, null);
  });

  it('usage totals count an answer without a price as unpriced, apart from the priced cost, not as free', async () => {
    await f.create('/v1/admin/routes', { name: 'odd', type: 'chat', models: [{ name: 'unpriced-model', provider: 'fake' }] });
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'odd' }).send({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).expect(200);
    await chat(f).expect(200);
    f.fake.script({ fail: { status: 400 } });
    await chat(f).expect(400);
    await metered(f, 3);
    const rows = (await admin(f, 'get', '/v1/admin/usage?group_by=route').expect(200)).body.data;
    const byRoute = Object.fromEntries(rows.map((row: { route: string }) => [row.route, row]));
    assert.equal(byRoute.odd.unpriced_requests, 1, 'the unpriced answer is counted as such');
    assert.equal(byRoute.odd.cost_usd, 0);
    assert.equal(byRoute.odd.total_tokens, 15);
    assert.equal(byRoute.chat.requests, 2);
    assert.equal(byRoute.chat.unpriced_requests, 0, 'a priced answer and a failure without usage are not unpriced');
  });
});

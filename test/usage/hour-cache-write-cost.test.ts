// Anthropic's 1-hour prompt-cache writes are priced at their own rate (cache_write_1h_input, else 2x input), through the official clients.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { costOf } from '../../src/usage/price-table.js';
import { normalizeUsage } from '../../src/usage/usage-extractor.js';
import { admin, metered } from './usage-helpers.js';

/** The fake's usage: 10 uncached input tokens, 4,000 read from the cache, 2,000 written to it (1,500 of them for an hour), 5 output. */
const CACHE = { write: 2000, read: 4000, write1h: 1500 } as const;
const BY_DURATION = { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1500 };
const MODEL = 'claude-sonnet-4-5-20250929';
/**
 * claude-sonnet-4-5's shipped prices: input 3, cache reads 0.30, 5-minute writes 3.75, 1-hour writes 6, output 15 (USD per
 * million). Cache writes: 500 × 3.75 + 1,500 × 6 = 0.010875 USD (all at 3.75 would be 0.0075).
 */
const EXPECTED = { usd: 0.01218, input_usd: 0.00003, output_usd: 0.000075, cached_input_usd: 0.0012, cache_write_input_usd: 0.010875 };

const round = (value: number): number => Math.round(value * 1e8) / 1e8;

describe('1-hour prompt-cache writes priced at their own rate', function () {
  this.timeout(20_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  const openai = () => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'claude' } });
  const anthropic = () => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'claude' } });
  const entries = async () => (await admin(f, 'get', '/v1/admin/applications/app/chronicles', 'viewer').expect(200)).body.data;
  const modelRow = async () => (await admin(f, 'get', '/v1/admin/usage?group_by=model', 'viewer').expect(200)).body.data[0];
  // The route names the model; the body's is any (the Anthropic SDK warns about a deprecated model name it is sent).
  const ask = { model: 'any', messages: [{ role: 'user' as const, content: 'Hi' }] };

  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'claude', type: 'chat', models: [{ name: MODEL, provider: 'claude' }] });
    f.fake.script({ promptCache: CACHE });
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  it('the usage extractor reads the 1-hour part of the cache writes, in Anthropic and translated shapes', () => {
    const expected = { prompt_tokens: 6010, completion_tokens: 5, cached_tokens: 4000, cache_write_tokens: 2000, cache_write_1h_tokens: 1500, total_tokens: 6015 };
    assert.deepEqual(normalizeUsage({ input_tokens: 10, cache_creation_input_tokens: 2000, cache_creation: BY_DURATION, cache_read_input_tokens: 4000, output_tokens: 5 }), expected);
    assert.deepEqual(normalizeUsage({ prompt_tokens: 6010, completion_tokens: 5, total_tokens: 6015, prompt_tokens_details: { cached_tokens: 4000 }, cache_creation_input_tokens: 2000, cache_creation: BY_DURATION }), expected);
    // A breakdown claiming more 1-hour writes than writes never bills more writes than there were.
    const odd = normalizeUsage({ input_tokens: 10, cache_creation_input_tokens: 100, cache_creation: { ephemeral_1h_input_tokens: 900 }, output_tokens: 0 })!;
    assert.equal(odd.cache_write_1h_tokens, 100);
  });

  it('a model without cache_write_1h_input bills 1-hour writes at twice its input price; 5-minute ones stay at cache_write_input', () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 400_000, cache_write_1h_tokens: 300_000, total_tokens: 1_000_000 };
    // 600,000 uncached at 2, 100,000 5-minute writes at 2.5, 300,000 1-hour writes at 4 (2 × 2).
    assert.deepEqual(costOf(usage, { input: 2, output: 8, cache_write_input: 2.5 }), { usd: 2.65, input_usd: 1.2, output_usd: 0, cached_input_usd: 0, cache_write_input_usd: 1.45 });
    assert.equal(costOf(usage, { input: 2, output: 8, cache_write_input: 2.5, cache_write_1h_input: 3 }).cache_write_input_usd, 1.15);
    // Without either write price: 5-minute writes at input, 1-hour writes at twice input.
    assert.equal(costOf(usage, { input: 2, output: 8 }).cache_write_input_usd, 1.4);
  });

  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'JSON';
    it(`a ${how} /v1/chat/completions answer (OpenAI SDK) with 1-hour cache writes costs them at 2x input, in the Chronicle and the usage totals`, async () => {
      let usage: unknown;
      if (stream) {
        const chunks = await openai().chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
        for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
      } else {
        usage = (await openai().chat.completions.create(ask)).usage;
      }
      assert.deepEqual((usage as { cache_creation?: unknown }).cache_creation, BY_DURATION, 'the client sees the breakdown beside cache_creation_input_tokens');
      await metered(f, 1);
      const [entry] = await entries();
      assert.deepEqual(entry.cost, EXPECTED);
      const row = await modelRow();
      assert.equal(row.cost_usd, EXPECTED.usd);
      assert.equal(row.cache_write_tokens, 2000);
    });

    it(`a ${how} /v1/messages answer (Anthropic SDK) with 1-hour cache writes costs them at 2x input, in the Chronicle and the usage totals`, async () => {
      const body = { ...ask, max_tokens: 64, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi', cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } }] }] };
      const message = stream ? await anthropic().messages.stream(body).finalMessage() : await anthropic().messages.create(body);
      assert.equal(message.usage.cache_creation_input_tokens, 2000);
      assert.deepEqual(message.usage.cache_creation, BY_DURATION);
      await metered(f, 1);
      const [entry] = await entries();
      assert.deepEqual(entry.cost, EXPECTED);
      const row = await modelRow();
      assert.equal(row.cost_usd, EXPECTED.usd);
      assert.equal(row.cache_write_tokens, 2000);
    });
  }

  it('cache_write_1h_input is an admin price override, validated like the others; without it, 1-hour writes cost twice input', async () => {
    const defaults = await admin(f, 'get', '/v1/admin/prices/anthropic', 'viewer').expect(200);
    assert.equal(defaults.body.models['claude-sonnet-4-5'].cache_write_1h_input, 6);
    assert.equal(defaults.body.models['claude-3-haiku'].cache_write_1h_input, 0.5);
    for (const bad of [-1, '6', null, true, 1e7]) {
      const res = await admin(f, 'put', '/v1/admin/prices/anthropic').send({ models: { 'claude-sonnet-4-5': { input: 3, output: 15, cache_write_1h_input: bad } } }).expect(400);
      assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'param', 'type']);
    }
    assert.equal((await admin(f, 'get', '/v1/admin/prices/anthropic', 'viewer').expect(200)).body.models['claude-sonnet-4-5'].source, 'default', 'a refused override stores nothing');

    // An override without cache_write_1h_input (as set before the field existed): 1-hour writes at 2 × 4 = 8.
    await admin(f, 'put', '/v1/admin/prices/anthropic', 'admin').send({ models: { 'claude-sonnet-4-5': { input: 4, output: 15, cached_input: 0.3, cache_write_input: 5 } } }).expect(200);
    await openai().chat.completions.create(ask);
    await metered(f, 1);
    const [fallback] = await entries();
    assert.equal(fallback.cost.cache_write_input_usd, round((500 * 5 + 1500 * 8) / 1e6));

    const set = await admin(f, 'put', '/v1/admin/prices/anthropic', 'admin').send({ models: { 'claude-sonnet-4-5': { input: 4, output: 15, cached_input: 0.3, cache_write_input: 5, cache_write_1h_input: 7 } } }).expect(200);
    assert.deepEqual(set.body.models['claude-sonnet-4-5'], { input: 4, output: 15, cached_input: 0.3, cache_write_input: 5, cache_write_1h_input: 7, source: 'override' });
    await openai().chat.completions.create(ask);
    await metered(f, 2);
    const [latest] = await entries();
    assert.equal(latest.cost.cache_write_input_usd, round((500 * 5 + 1500 * 7) / 1e6));
    assert.equal(latest.cost.usd, round(latest.cost.input_usd + latest.cost.cached_input_usd + latest.cost.cache_write_input_usd + latest.cost.output_usd));
  });
});

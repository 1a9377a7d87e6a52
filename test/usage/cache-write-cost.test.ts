// Anthropic prompt-cache writes are priced at their own rate (cache_write_input), apart from uncached input and cache reads.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { costOf } from '../../src/usage/price-table.js';
import { normalizeUsage } from '../../src/usage/usage-extractor.js';
import { admin, metered } from './usage-helpers.js';

/** The fake's usage with this cache: 10 uncached input tokens, 2,000 written to the cache, 4,000 read from it, 5 output. */
const CACHE = { write: 2000, read: 4000 } as const;
const MODEL = 'claude-sonnet-4-5-20250929';
/** claude-sonnet-4-5's shipped prices: input 3, cache reads 0.30, 5-minute cache writes 3.75, output 15 (USD per million). */
const EXPECTED = {
  usd: 0.008805,
  input_usd: 0.00003,
  output_usd: 0.000075,
  cached_input_usd: 0.0012,
  cache_write_input_usd: 0.0075,
};

const round = (value: number): number => Math.round(value * 1e8) / 1e8;

describe('prompt-cache writes priced at their own rate', () => {
  let f: TrafficFixture;
  const entries = async () => (await admin(f, 'get', '/v1/admin/applications/app/chronicles', 'viewer').expect(200)).body.data;
  const chat = (stream: boolean) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'claude' })
      .send({ model: MODEL, stream, messages: [{ role: 'user', content: 'Hi' }] });
  const messages = (stream: boolean) =>
    request(f.app).post('/v1/messages').set({ 'x-api-key': f.developerKey, 'x-gateway-route': 'claude' })
      .send({ model: MODEL, max_tokens: 64, stream, messages: [{ role: 'user', content: 'Hi' }] });

  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'claude', type: 'chat', models: [{ name: MODEL, provider: 'claude' }] });
    f.fake.script({ promptCache: CACHE });
  });
  afterEach(() => f.close());

  it('the usage extractor keeps cache writes apart from cache reads and uncached input, in Anthropic and translated shapes', () => {
    const expected = { prompt_tokens: 6010, completion_tokens: 5, cached_tokens: 4000, cache_write_tokens: 2000, cache_write_1h_tokens: 0, total_tokens: 6015 };
    assert.deepEqual(normalizeUsage({ input_tokens: 10, cache_creation_input_tokens: 2000, cache_read_input_tokens: 4000, output_tokens: 5 }), expected);
    // The Anthropic adapter's OpenAI-shaped usage: both cache counts are parts of prompt_tokens.
    assert.deepEqual(normalizeUsage({ prompt_tokens: 6010, completion_tokens: 5, total_tokens: 6015, prompt_tokens_details: { cached_tokens: 4000 }, cache_creation_input_tokens: 2000 }), expected);
    // Counts that claim more cache than prompt never make uncached input negative.
    const odd = normalizeUsage({ prompt_tokens: 100, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 80 }, cache_creation_input_tokens: 50 })!;
    assert.equal(odd.cached_tokens + odd.cache_write_tokens, 100);
    assert.equal(costOf(odd, { input: 1, output: 1 }).input_usd, 0);
  });

  it('a model without cache_write_input bills cache writes at its input price', () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 400_000, cache_write_1h_tokens: 0, total_tokens: 1_000_000 };
    assert.deepEqual(costOf(usage, { input: 2, output: 8 }), { usd: 2, input_usd: 1.2, output_usd: 0, cached_input_usd: 0, cache_write_input_usd: 0.8 });
    assert.equal(costOf(usage, { input: 2, output: 8, cache_write_input: 2.5 }).usd, 2.2);
  });

  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'JSON';
    it(`a ${how} /v1/chat/completions answer through Anthropic with cache writes costs writes at 1.25x input, in the Chronicle and the usage totals`, async () => {
      const res = await chat(stream).expect(200);
      if (!stream) assert.equal(res.body.usage.prompt_tokens, 6010);
      await metered(f, 1);
      const [entry] = await entries();
      assert.deepEqual(entry.cost, EXPECTED);
      const [row] = (await admin(f, 'get', '/v1/admin/usage?group_by=model').expect(200)).body.data;
      assert.equal(row.prompt_tokens, 6010);
      assert.equal(row.cached_tokens, 4000);
      assert.equal(row.cost_usd, EXPECTED.usd);
    });

    it(`a ${how} /v1/messages answer from Anthropic with cache writes costs writes at 1.25x input, in the Chronicle and the usage totals`, async () => {
      await messages(stream).expect(200);
      await metered(f, 1);
      const [entry] = await entries();
      assert.deepEqual(entry.cost, EXPECTED);
      const [row] = (await admin(f, 'get', '/v1/admin/usage?group_by=model').expect(200)).body.data;
      assert.equal(row.cost_usd, EXPECTED.usd);
    });
  }

  it('cache_write_input is an admin price override, validated like the others, used for the next answer', async () => {
    const defaults = await admin(f, 'get', '/v1/admin/prices/anthropic', 'viewer').expect(200);
    assert.deepEqual(defaults.body.models['claude-sonnet-4-5'], { input: 3, output: 15, cached_input: 0.3, cache_write_input: 3.75, cache_write_1h_input: 6, source: 'default' });
    for (const bad of [-1, '3', null, true, 1e7]) {
      const res = await admin(f, 'put', '/v1/admin/prices/anthropic').send({ models: { 'claude-sonnet-4-5': { input: 3, output: 15, cache_write_input: bad } } }).expect(400);
      assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'param', 'type']);
    }
    const still = await admin(f, 'get', '/v1/admin/prices/anthropic', 'viewer').expect(200);
    assert.equal(still.body.models['claude-sonnet-4-5'].source, 'default', 'a refused override stores nothing');

    const set = await admin(f, 'put', '/v1/admin/prices/anthropic', 'admin').send({ models: { 'claude-sonnet-4-5': { input: 3, output: 15, cached_input: 0.3, cache_write_input: 6 } } }).expect(200);
    assert.deepEqual(set.body.models['claude-sonnet-4-5'], { input: 3, output: 15, cached_input: 0.3, cache_write_input: 6, source: 'override' });
    await chat(false).expect(200);
    await metered(f, 1);
    const [entry] = await entries();
    assert.equal(entry.cost.cache_write_input_usd, 0.012);
    assert.equal(entry.cost.usd, round(0.00003 + 0.0012 + 0.012 + 0.000075));

    // Without cache_write_input, writes are billed at the input price.
    await admin(f, 'put', '/v1/admin/prices/anthropic').send({ models: { 'claude-sonnet-4-5': { input: 3, output: 15, cached_input: 0.3 } } }).expect(200);
    await chat(false).expect(200);
    await metered(f, 2);
    const [latest] = await entries();
    assert.equal(latest.cost.cache_write_input_usd, 0.006);
    assert.equal(latest.cost.usd, round(0.00003 + 0.0012 + 0.006 + 0.000075));
  });
});

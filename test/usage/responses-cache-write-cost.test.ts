// /v1/responses answered through Anthropic prices prompt-cache writes (5-minute and 1-hour) as /v1/chat/completions does, through the official openai client.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered } from './usage-helpers.js';

const MODEL = 'claude-sonnet-4-5-20250929';
/**
 * The fake's usage of one answer: 10 uncached input tokens, 4,000 read from the cache, 2,000 written to it (with
 * `write1h`, that many of them to the 1-hour cache), 5 output. claude-sonnet-4-5's shipped prices (USD per million):
 * input 3, cache reads 0.30, 5-minute writes 3.75, 1-hour writes 6, output 15. The expected costs are those the chat
 * endpoint's tests expect for the same usage (test/usage/cache-write-cost.test.ts, hour-cache-write-cost.test.ts).
 */
const CASES = [
  {
    name: '5-minute',
    cache: { write: 2000, read: 4000 },
    breakdown: undefined,
    cost: { usd: 0.008805, input_usd: 0.00003, output_usd: 0.000075, cached_input_usd: 0.0012, cache_write_input_usd: 0.0075 },
  },
  {
    name: '1-hour',
    cache: { write: 2000, read: 4000, write1h: 1500 },
    breakdown: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1500 },
    cost: { usd: 0.01218, input_usd: 0.00003, output_usd: 0.000075, cached_input_usd: 0.0012, cache_write_input_usd: 0.010875 },
  },
] as const;

const round = (value: number): number => Math.round(value * 1e8) / 1e8;
type Usage = OpenAI.Responses.ResponseUsage & { cache_creation_input_tokens?: number; cache_creation?: unknown };

describe('/v1/responses through Anthropic: prompt-cache writes priced as on /v1/chat/completions', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  const openai = () => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'claude' } });
  const entries = async () => (await admin(f, 'get', '/v1/admin/applications/app/chronicles', 'viewer').expect(200)).body.data;

  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'claude', type: 'chat', models: [{ name: MODEL, provider: 'claude' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' } }).expect(200);
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  for (const { name, cache, breakdown, cost } of CASES) {
    for (const stream of [false, true]) {
      it(`a ${stream ? 'streamed' : 'JSON'} response with ${name} cache writes: the usage carries them, the Chronicle, usage totals and budget price them`, async () => {
        f.fake.script({ promptCache: cache });
        let usage: Usage | undefined;
        if (stream) {
          const events = await openai().responses.create({ model: 'any', input: 'Hi', stream: true });
          for await (const event of events) if (event.type === 'response.completed') usage = event.response.usage as Usage;
        } else {
          usage = (await openai().responses.create({ model: 'any', input: 'Hi' })).usage as Usage;
        }
        assert.ok(usage);
        assert.equal(usage.input_tokens, 6010, 'cache reads and writes are parts of input_tokens');
        assert.equal(usage.input_tokens_details.cached_tokens, 4000);
        assert.equal(usage.cache_creation_input_tokens, 2000);
        assert.deepEqual(usage.cache_creation, breakdown);
        await metered(f, 1);
        const [entry] = await entries();
        assert.equal(entry.endpoint, '/v1/responses');
        assert.equal(entry.usage.cache_creation_input_tokens, 2000);
        assert.deepEqual(entry.cost, cost);
        const [row] = (await admin(f, 'get', '/v1/admin/usage?group_by=model', 'viewer').expect(200)).body.data;
        assert.equal(row.prompt_tokens, 6010);
        assert.equal(row.cached_tokens, 4000);
        assert.equal(row.cache_write_tokens, 2000);
        assert.equal(row.cost_usd, cost.usd);
        const [budget] = (await admin(f, 'get', '/v1/admin/budgets').expect(200)).body.data;
        assert.equal(budget.spent_usd, cost.usd);
      });
    }
  }

  it('a response without cache writes (an OpenAI model) carries no cache write members', async () => {
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    const client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'chat' } });
    const usage = (await client.responses.create({ model: 'any', input: 'Hi' })).usage as Usage;
    assert.deepEqual(Object.keys(usage).sort(), ['input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens']);
  });
});

describe('/v1/responses through Anthropic: cache writes of every round of the tool loop are summed and priced', function () {
  this.timeout(30_000);
  let f: McpFixture;
  let fake: FakeProvider;

  before(async () => {
    f = await createMcpFixture();
    fake = await startFakeProvider();
    await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name: 'claude', type: 'anthropic', config: { api_base: fake.url, models: [MODEL] }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] }).expect(201);
    // The model calls tools__add once, then answers; each round writes 2,000 tokens to the cache, 1,500 for an hour.
    fake.script((received: FakeRequest) => {
      const messages = (received.body as { messages?: Array<{ content: unknown }> }).messages ?? [];
      const answered = JSON.stringify(messages.at(-1)?.content ?? '').includes('tool_result');
      return answered ? { text: 'The sum is 5.', promptCache: CASES[1].cache } : { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } }, promptCache: CASES[1].cache };
    });
  });
  after(async () => {
    await f.close();
    await fake.close();
  });

  it('two rounds: twice the writes in the usage, twice the cost in the Chronicle', async () => {
    const client = new OpenAI({ apiKey: 'unused', baseURL: `${f.base}/v1`, defaultHeaders: { 'X-Gateway-Apikey': f.developerKey }, maxRetries: 0 });
    const tool = { type: 'mcp' as const, server_label: 'tools', server_url: f.requestUrl, headers: { Authorization: `Bearer ${f.developerKey}` }, require_approval: 'never' as const };
    const response = await client.responses.create({ model: MODEL, input: 'What is 2 + 3? Use the tool.', tools: [tool] });
    assert.equal(response.output_text, 'The sum is 5.');
    const usage = response.usage as Usage;
    assert.equal(usage.input_tokens, 2 * 6010);
    assert.equal(usage.cache_creation_input_tokens, 4000);
    assert.deepEqual(usage.cache_creation, { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 3000 });
    await metered(f, 1);
    const [entry] = (await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;
    assert.equal(entry.rounds, 2);
    const single = CASES[1].cost;
    assert.deepEqual(entry.cost, {
      usd: round(2 * single.usd), input_usd: round(2 * single.input_usd), output_usd: round(2 * single.output_usd),
      cached_input_usd: round(2 * single.cached_input_usd), cache_write_input_usd: round(2 * single.cache_write_input_usd),
    });
  });
});

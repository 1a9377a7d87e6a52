// Issue 14: the store behind previous_response_id on a real Redis: an approval started on one gateway continues on another; TTL, byte bound, outage.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import request from 'supertest';
import { createRedisClient } from '../../src/redis/redis-client.js';
import { RedisResponseStore } from '../../src/responses/redis-response-store.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix, redisThroughCut } from '../helpers/redis-test.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

const SECRET = 'a-shared-gateway-secret-for-two-replicas-0001';

describe('14.3 Redis: the response store is shared by two gateways', function () {
  this.timeout(30_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let a: McpFixture;
  let b: McpFixture;
  let fake: FakeProvider;
  before(async () => {
    fake = await startFakeProvider();
    a = await createMcpFixture({ secret: SECRET, redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    b = await createMcpFixture({ secret: SECRET, redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    for (const f of [a, b]) {
      await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] }, api_keys: [{ api_key: 'sk-provider-key-000001' }] }).expect(201);
    }
    fake.script((received) => {
      const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
      const last = messages.at(-1);
      return last?.role === 'tool' ? { text: `The sum is ${String(last.content).replace(/[^0-9]/g, '')}.` } : { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } } };
    });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
    await deleteKeys(prefix);
  });

  const clientOf = (f: McpFixture) => new OpenAI({ apiKey: 'unused', baseURL: `${f.base}/v1`, defaultHeaders: { 'X-Gateway-Apikey': f.developerKey }, maxRetries: 0 });
  const tool = (f: McpFixture) => ({ type: 'mcp' as const, server_label: 'tools', server_url: f.requestUrl, headers: { Authorization: `Bearer ${f.developerKey}` }, require_approval: 'always' as const });

  it('14.3: an approval requested through gateway A is approved through gateway B', async () => {
    const first = await clientOf(a).responses.create({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool(a)] });
    assert.deepEqual(first.output.map((i) => i.type), ['mcp_list_tools', 'mcp_approval_request']);
    const approval = first.output[1] as { id: string };
    const second = await clientOf(b).responses.create({
      model: 'tool-model',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: approval.id, approve: true }],
      tools: [tool(b)],
    });
    const call = second.output.find((i) => i.type === 'mcp_call') as { output: string };
    assert.equal(call.output, '5');
    assert.equal(second.output_text, 'The sum is 5.');
    assert.equal(b.mcp.calls.length, 1);
    assert.equal(a.mcp.calls.length, 0, 'nothing ran on A');
  });

  it('14.3: an unknown previous_response_id is still 404 with Redis', async () => {
    const res = await request(b.base).post('/v1/responses').set('x-gateway-apikey', b.developerKey).send({ model: 'tool-model', previous_response_id: 'resp_unknown', input: 'hi' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.param, 'previous_response_id');
  });
});

describe('14.3 RedisResponseStore: chains, TTL, byte bound, other applications, outage', function () {
  this.timeout(30_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let client: Redis;
  before(() => {
    client = createRedisClient({ url: TEST_REDIS_URL });
  });
  after(async () => {
    await client?.quit();
    await deleteKeys(prefix);
  });
  const state = (content: string, parent?: string) => ({ application: 'app', ...(parent ? { parent } : {}), messages: [{ role: 'user' as const, content }], pending: [] });

  it('14.3: loads a whole chain, and refuses another application', async () => {
    const store = new RedisResponseStore(client, { keyPrefix: `${prefix}chain:` });
    await store.save('r1', state('one'));
    await store.save('r2', state('two', 'r1'));
    await store.save('r3', state('three', 'r2'));
    const loaded = await store.load('r3', 'app');
    assert.deepEqual(loaded?.messages.map((m) => m.content), ['one', 'two', 'three']);
    assert.equal(await store.load('r3', 'other'), undefined);
    assert.equal(await store.load('r9', 'app'), undefined);
  });

  it('14.3: the byte bound drops the oldest responses; a state over maxEntryBytes is not stored', async () => {
    const store = new RedisResponseStore(client, { keyPrefix: `${prefix}bound:`, maxBytes: 100_000, maxEntryBytes: 30_000 });
    const big = 'x'.repeat(20_000);
    for (let i = 0; i < 24; i++) await store.save(`r${i}`, state(big));
    assert.ok((await store.bytes()) <= 100_000, `${await store.bytes()} bytes held`);
    assert.equal(await store.load('r0', 'app'), undefined, 'the oldest was dropped');
    assert.equal((await store.load('r23', 'app'))?.messages[0]?.content, big);
    await store.save('huge', state('y'.repeat(40_000)));
    assert.equal(await store.load('huge', 'app'), undefined);
  });

  it('14.3: the byte bound drops the least recently used response: one read since is kept, an older untouched one goes', async () => {
    const store = new RedisResponseStore(client, { keyPrefix: `${prefix}lru:`, maxBytes: 100_000, maxEntryBytes: 30_000 });
    const big = 'x'.repeat(20_000);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5)); // distinct Redis milliseconds
    for (let i = 0; i < 4; i++) {
      await store.save(`r${i}`, state(big));
      await tick();
    }
    assert.ok(await store.load('r0', 'app'), 'r0, the oldest saved, is read again');
    await tick();
    await store.save('r4', state(big));
    assert.ok((await store.bytes()) <= 100_000);
    assert.ok(await store.load('r0', 'app'), 'read since, so kept');
    assert.equal(await store.load('r1', 'app'), undefined, 'the least recently used was dropped');
    assert.ok(await store.load('r4', 'app'));
  });

  it('14.3: entries expire after ttlMs (Redis expiry, polled)', async () => {
    const store = new RedisResponseStore(client, { keyPrefix: `${prefix}ttl:`, ttlMs: 200 });
    await store.save('short', state('soon gone'));
    assert.ok(await store.load('short', 'app'));
    const started = Date.now();
    while (await store.load('short', 'app')) {
      assert.ok(Date.now() - started < 5000, 'expired within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('14.5: with Redis cut, save and load answer 503 storage_unavailable at once, and work again when it is back', async () => {
    const { relay, url } = await redisThroughCut();
    const cutClient = createRedisClient({ url });
    try {
      await new Promise((resolve) => cutClient.once('ready', resolve));
      const store = new RedisResponseStore(cutClient, { keyPrefix: `${prefix}cut:` });
      await store.save('kept', state('kept'));
      await relay.cut();
      const started = performance.now();
      await assert.rejects(store.load('kept', 'app'), (error: { code?: string; statusCode?: number }) => error.code === 'storage_unavailable' && error.statusCode === 503);
      await assert.rejects(store.save('lost', state('lost')), (error: { code?: string }) => error.code === 'storage_unavailable');
      assert.ok(performance.now() - started < 2000);
      await relay.restore();
      const back = performance.now();
      for (;;) {
        const loaded = await store.load('kept', 'app').catch(() => undefined);
        if (loaded) break;
        assert.ok(performance.now() - back < 10_000, 'back within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      cutClient.disconnect();
      await relay.close();
    }
  });
});

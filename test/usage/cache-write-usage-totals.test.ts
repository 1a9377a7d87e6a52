// GET /v1/admin/usage counts prompt-cache writes (cache_write_tokens) on memory, file and PostgreSQL storage; totals stored without them read 0.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { fileStorage, postgresStorage, type GatewayOptions } from '../../src/index.js';
import { CounterStore } from '../../src/usage/counter-store.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered } from './usage-helpers.js';

const today = new Date().toISOString().slice(0, 10);
const CLAUDE = 'claude-sonnet-4-5';

/**
 * Two answers through Anthropic that each wrote 2,000 tokens to the prompt cache (and read 4,000), one OpenAI answer
 * without cache writes, and a totals row as a version that did not count cache writes stored it (model `older`).
 */
async function traffic(f: TrafficFixture): Promise<void> {
  await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
  await f.create('/v1/admin/routes', { name: 'claude', type: 'chat', models: [{ name: CLAUDE, provider: 'claude' }] });
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  f.fake.forModel(CLAUDE, { promptCache: { write: 2000, read: 4000 } });
  const claude = () => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'claude' }).send({ model: 'any', messages: [{ role: 'user', content: 'Hi' }] });
  await claude().expect(200);
  await claude().expect(200);
  await chat(f).expect(200);
  await metered(f, 3);
  const older = { bucket: `usage/${today}`, item: JSON.stringify(['app', 'key-older', 'chat', 'older']) };
  await new CounterStore(f.gateway.storage).add([
    { ...older, field: 'requests', amount: 1 },
    { ...older, field: 'prompt_tokens', amount: 10 },
    { ...older, field: 'completion_tokens', amount: 5 },
  ]);
}

async function checkTotals(f: TrafficFixture): Promise<void> {
  const rows = (group: string) => admin(f, 'get', `/v1/admin/usage?group_by=${group}`, 'viewer').expect(200).then((res) => res.body.data as Array<Record<string, unknown>>);
  const byModel = Object.fromEntries((await rows('model')).map((row) => [row.model, row]));
  assert.equal(byModel[CLAUDE]?.cache_write_tokens, 4000);
  assert.equal(byModel[CLAUDE]?.cached_tokens, 8000);
  assert.equal(byModel[CLAUDE]?.prompt_tokens, 2 * 6010, 'cache writes stay a part of prompt_tokens');
  assert.equal(byModel['gpt-4o-mini']?.cache_write_tokens, 0);
  assert.equal(byModel.older?.cache_write_tokens, 0, 'a row stored without the field reads 0');
  assert.equal(byModel.older?.requests, 1);
  const byDay = await rows('day');
  assert.deepEqual(byDay.map((row) => [row.day, row.cache_write_tokens]), [[today, 4000]]);
  const byRoute = Object.fromEntries((await rows('route')).map((row) => [row.route, row.cache_write_tokens]));
  assert.deepEqual(byRoute, { claude: 4000, chat: 0 });
}

describe('GET /v1/admin/usage: cache_write_tokens', function () {
  this.timeout(30_000);

  it('memory storage', async () => {
    const f = await createTrafficFixture();
    try {
      await traffic(f);
      await checkTotals(f);
    } finally {
      await f.close();
    }
  });

  it('file storage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'usage-cache-writes-'));
    const f = await createTrafficFixture({ storage: fileStorage({ dir }) });
    try {
      await traffic(f);
      await checkTotals(f);
    } finally {
      await f.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('on PostgreSQL', function () {
    requirePostgres();
    const schema = testSchemaName();
    after(() => dropSchema(schema));
    const options = (): GatewayOptions => ({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }) });

    it('PostgreSQL storage (counters in gateway_counters, one row per field)', async () => {
      const f = await createTrafficFixture(options());
      try {
        await traffic(f);
        await checkTotals(f);
      } finally {
        await f.close();
      }
    });
  });
});

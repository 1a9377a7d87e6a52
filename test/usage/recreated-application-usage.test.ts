// A deleted and re-created application is a new tenant for usage: no spend, per-minute count or usage total of the old one applies to it.
import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import { MemoryCallerLimits } from '../../src/usage/caller-limits.js';
import type { GatewayOptions } from '../../src/index.js';
import { TEST_DATABASE_URL } from '../helpers/postgres-test.js';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { createTestGateway, TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

const CONTROLS = { budget: { amount_usd: 1.5, period: 'day' }, limits: { requests_per_minute: 3 } };

/** Deletes application `app` and creates it again through `f`, with `settings`; answers the new application's developer key. */
async function recreate(f: Pick<TrafficFixture, 'app'>, settings: Record<string, unknown>): Promise<string> {
  await request(f.app).delete('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
  await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'app', ...settings }).expect(201);
  return (await request(f.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
}

async function fixture(options: GatewayOptions = {}): Promise<TrafficFixture> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  await oneDollarPerAnswer(f);
  await admin(f, 'put', '/v1/admin/applications/app').send(CONTROLS).expect(200);
  return f;
}

/** Spends the old application's budget (2 USD of 1.5) and its requests per minute (3 of 3): it is refused. */
async function exhaust(f: TrafficFixture): Promise<void> {
  await chat(f).expect(200);
  await chat(f).expect(200);
  await metered(f, 2);
  assert.equal((await chat(f).expect(429)).body.error.code, 'budget_exceeded');
}

const createdAt = async (f: Pick<TrafficFixture, 'app'>): Promise<string> => (await request(f.app).get('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.admin).expect(200)).body.created_at as string;

describe('usage of a re-created application', function () {
  this.timeout(20_000);

  it('15.5.4: in process, a re-created application starts with no spend and a fresh per-minute window', async () => {
    const f = await fixture();
    try {
      await exhaust(f);
      await f.gateway.usage.flush();
      assert.ok(await f.gateway.storage.get('counters/spend/application/app'), 'the spend is persisted');
      const key = await recreate(f, CONTROLS);
      assert.equal(await f.gateway.storage.get('counters/spend/application/app'), undefined, 'the deleted application\'s spend is purged');
      const first = await chat(f, {}, key).expect(200);
      assert.equal(first.headers['x-ratelimit-remaining-requests'], '2', 'the old application\'s requests are not in the window');
      await metered(f, 3);
      const [state] = (await admin(f, 'get', '/v1/admin/budgets').expect(200)).body.data;
      assert.equal(state.spent_usd, 1);
      assert.equal(state.exceeded, false);
      await chat(f, {}, key).expect(200); // 1 USD of 1.5: admitted
      await metered(f, 4);
      assert.equal((await chat(f, {}, key).expect(429)).body.error.code, 'budget_exceeded');
    } finally {
      await f.close();
    }
  });

  it('15.5.3: usage totals keep each incarnation of a name apart, and the old one\'s history is kept', async () => {
    const f = await fixture();
    try {
      const old = await createdAt(f);
      await exhaust(f);
      const key = await recreate(f, {});
      const current = await createdAt(f);
      await chat(f, {}, key).expect(200);
      await metered(f, 4);
      const rows = (await admin(f, 'get', '/v1/admin/usage?group_by=application').expect(200)).body.data as Array<Record<string, unknown>>;
      const byIncarnation = new Map(rows.map((row) => [row.application_created_at, row]));
      assert.deepEqual(rows.map((row) => row.application), ['app', 'app']);
      assert.equal(byIncarnation.get(old)?.requests, 3, 'the deleted application\'s history, the refusal included');
      assert.equal(byIncarnation.get(old)?.cost_usd, 2);
      assert.equal(byIncarnation.get(current)?.requests, 1);
      assert.equal(byIncarnation.get(current)?.cost_usd, 1);
      const byModel = (await admin(f, 'get', '/v1/admin/usage?group_by=model').expect(200)).body.data;
      assert.equal(byModel[0].requests, 4, 'gateway-wide totals still count both');
    } finally {
      await f.close();
    }
  });

  it('15.5.5: per-minute windows held in process are dropped once idle for a window, so old incarnations leave none behind', async () => {
    let now = 0;
    const limits = new MemoryCallerLimits(() => now);
    for (let i = 0; i < 3000; i++) await limits.take(`application:app:incarnation-${i}:requests`, 5, 60_000, 1);
    now = 30_000;
    await limits.take('key:busy:requests', 5, 60_000, 1);
    now = 61_000;
    for (let i = 0; i < 2000; i++) await limits.take(`key:k${i}:requests`, 5, 60_000, 1);
    assert.ok(limits.size <= 2001, `the idle windows were dropped (${limits.size} held)`);
    assert.equal((await limits.take('key:busy:requests', 1, 60_000, 1)).admitted, false, 'a window in use is kept');
  });

  describe('two replicas on one PostgreSQL schema and one Redis', function () {
    const { options, schema } = sharedReplicaOptions();

    it('15.5.4: an application deleted and re-created on one replica starts afresh on the other; its old spend is purged from storage', async () => {
      const a = await fixture(options());
      const b = await createTestGateway(options());
      const viaB = { ...a, app: b.app, gateway: b.gateway } as TrafficFixture;
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await chat(a).expect(200);
        await chat(viaB).expect(200);
        await metered(a, 1);
        await metered(viaB, 1);
        for (const f of [a, viaB]) assert.equal((await chat(f).expect(429)).body.error.code, 'budget_exceeded');
        await Promise.all([a.gateway.usage.flush(), b.gateway.usage.flush()]);
        const spendRows = async () => (await client.query(`SELECT count(*)::int AS n FROM "${schema}".gateway_counters WHERE bucket = 'spend/application/app'`)).rows[0].n as number;
        assert.equal(await spendRows(), 1);
        const old = await createdAt(a);
        const key = await recreate(a, CONTROLS);
        assert.equal(await spendRows(), 0, 'the deleted application\'s spend is purged');
        const deadline = Date.now() + 5000;
        while (b.gateway.storage.peekCached<{ created_at: string }>('applications/app')?.value?.created_at === old) {
          assert.ok(Date.now() < deadline, 'replica B saw the re-created application within 5 s');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const first = await chat(viaB, {}, key).expect(200);
        assert.equal(first.headers['x-ratelimit-remaining-requests'], '2');
        await metered(viaB, 2);
        const [state] = (await admin(a, 'get', '/v1/admin/budgets').expect(200)).body.data;
        assert.equal(state.spent_usd, 1);
        await chat(a, {}, key).expect(200);
        await metered(a, 3);
        for (const f of [a, viaB]) assert.equal((await chat(f, {}, key).expect(429)).body.error.code, 'budget_exceeded');
      } finally {
        await client.end();
        await b.close();
        await a.close();
      }
    });
  });
});

// Issue 15 point 5: GET /v1/admin/usage on memory, file and PostgreSQL storage (an aggregate table, added to by several replicas).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { fileStorage, postgresStorage, type GatewayOptions } from '../../src/index.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered } from './usage-helpers.js';

const today = new Date().toISOString().slice(0, 10);

async function seed(f: TrafficFixture): Promise<void> {
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  await f.create('/v1/admin/routes', { name: 'other', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake' }] });
  await f.create('/v1/admin/applications', { name: 'second' });
}

async function traffic(f: TrafficFixture): Promise<string> {
  const second = (await admin(f, 'post', '/v1/admin/applications/second/keys').send({}).expect(201)).body.key as string;
  await chat(f).expect(200);
  await chat(f).expect(200);
  await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': second, 'x-gateway-route': 'other' }).send({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).expect(200);
  await metered(f, 3);
  return second;
}

const usage = (f: { app: TestGateway['app'] }, query: string) => request(f.app).get(`/v1/admin/usage${query}`).set('x-api-key', TEST_KEYS.viewer);

/** The usage API's answers after three requests: two by `app` on gpt-4o-mini, one by `second` on gpt-4o. */
async function checkTotals(f: { app: TestGateway['app'] }, factor = 1): Promise<void> {
  const byApp = (await usage(f, '?group_by=application').expect(200)).body;
  assert.equal(byApp.object, 'list');
  assert.equal(byApp.to, today);
  const rows = Object.fromEntries(byApp.data.map((row: { application: string }) => [row.application, row]));
  const createdAt = (await request(f.app).get('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.created_at;
  assert.deepEqual(rows.app, {
    application: 'app', application_created_at: createdAt, requests: 2 * factor, prompt_tokens: 20 * factor, completion_tokens: 10 * factor, cached_tokens: 0, cache_write_tokens: 0, total_tokens: 30 * factor, unpriced_requests: 0,
    cost_usd: Math.round(2 * factor * 0.0000045 * 1e8) / 1e8,
  });
  // gpt-4o: 2.5 and 10 USD per million tokens.
  assert.equal(rows.second.cost_usd, Math.round(factor * (10 * 2.5 + 5 * 10) * 1e2) / 1e8);
  const byModel = (await usage(f, `?group_by=model&from=${today}&to=${today}`).expect(200)).body.data;
  assert.deepEqual(byModel.map((row: { model: string; requests: number }) => [row.model, row.requests]), [['gpt-4o', factor], ['gpt-4o-mini', 2 * factor]]);
  const byRoute = (await usage(f, '?group_by=route').expect(200)).body.data;
  assert.deepEqual(byRoute.map((row: { route: string; requests: number }) => [row.route, row.requests]).sort(), [['chat', 2 * factor], ['other', factor]]);
  const byKey = (await usage(f, '?group_by=key').expect(200)).body.data;
  assert.equal(byKey.length, 2);
  const byDay = (await usage(f, '?group_by=day').expect(200)).body.data;
  assert.deepEqual(byDay.map((row: { day: string; requests: number }) => [row.day, row.requests]), [[today, 3 * factor]]);
  const past = (await usage(f, '?group_by=day&from=2020-01-01&to=2020-01-31').expect(200)).body.data;
  assert.deepEqual(past, []);
}

describe('15.5.3 GET /v1/admin/usage', function () {
  this.timeout(60_000);

  it('15.5.3: memory storage: requests, tokens and cost by application, key, route, model and day', async () => {
    const f = await createTrafficFixture();
    try {
      await seed(f);
      await traffic(f);
      await checkTotals(f);
    } finally {
      await f.close();
    }
  });

  it('15.5.3: clear 400s for bad query parameters, and 401 without an admin key', async () => {
    const f = await createTrafficFixture();
    try {
      for (const [query, param] of [
        ['?group_by=provider', 'group_by'], ['?group_by=', 'group_by'], ['?group_by=day&group_by=key', 'group_by'],
        ['?from=yesterday', 'from'], ['?to=2026-13-45', 'to'], ['?from=2026-02-01&to=2026-01-01', 'from'], ['?from=2020-01-01&to=2026-01-01', 'from'],
      ]) {
        const res = await usage(f, query!).expect(400);
        assert.equal(res.body.error.param, param, query);
        assert.equal(res.body.error.type, 'invalid_request_error');
      }
      await request(f.app).get('/v1/admin/usage').expect(401);
      await request(f.app).get('/v1/admin/usage').set('x-gateway-apikey', f.developerKey).expect(401);
    } finally {
      await f.close();
    }
  });

  it('refuses a date that is not in the calendar, and reads a time without an offset as UTC whatever the server time zone', async () => {
    const f = await createTrafficFixture();
    const zone = process.env.TZ;
    try {
      for (const query of ['?from=2026-02-30', '?to=2026-02-29T10:00Z', '?from=2026-04-31&to=2026-05-02']) {
        const res = await usage(f, query).expect(400);
        assert.equal(res.body.error.param, query.slice(1, query.indexOf('=')), query);
      }
      assert.equal((await usage(f, '?from=2024-02-29&to=2024-03-01').expect(200)).body.from, '2024-02-29');
      process.env.TZ = 'America/New_York';
      for (const query of ['?from=2026-11-25T23:30&to=2026-11-27', '?from=2026-11-25 23:30:00&to=2026-11-27']) {
        assert.equal((await usage(f, query).expect(200)).body.from, '2026-11-25', query);
      }
      assert.equal((await usage(f, '?from=2026-11-25T23:30:00-05:00&to=2026-11-27').expect(200)).body.from, '2026-11-26', 'an offset counts: the UTC day');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      await f.close();
    }
  });

  it('15.5.3: file storage: totals are kept across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'usage-file-'));
    try {
      const f = await createTrafficFixture({ storage: fileStorage({ dir }) });
      try {
        await seed(f);
        await traffic(f);
      } finally {
        await f.close();
      }
      const again = await createTestGateway({ storage: fileStorage({ dir }) });
      try {
        await checkTotals(again);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('on PostgreSQL', function () {
    requirePostgres();
    const schema = testSchemaName();
    after(() => dropSchema(schema));
    const options = (): GatewayOptions => ({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }) });

    it('15.5.3: two gateways on one database add to one aggregate table, concurrently, without losing a request', async () => {
      const a = await createTrafficFixture(options());
      const b = await createTestGateway(options());
      try {
        await seed(a);
        const second = await traffic(a);
        // The same traffic again, half on each gateway, all at once.
        const viaB = { ...a, app: b.app, gateway: b.gateway } as TrafficFixture;
        await Promise.all([
          chat(a).expect(200),
          chat(viaB).expect(200),
          request(b.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': second, 'x-gateway-route': 'other' }).send({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).expect(200),
        ]);
        await metered(a, 4);
        await metered(viaB, 2);
        await a.gateway.usage.flush();
        await b.gateway.usage.flush();
        await checkTotals(a, 2);
        await checkTotals(b, 2);
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        try {
          const rows = await client.query(`SELECT count(*)::int AS n FROM "${schema}".gateway_counters WHERE bucket = $1 AND field = 'requests'`, [`usage/${today}`]);
          assert.equal(rows.rows[0].n, 2, 'one row per application, key, route and model');
        } finally {
          await client.end();
        }
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
});

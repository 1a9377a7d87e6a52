// The Chronicles request log: one entry per developer-key request, every outcome recorded, no secrets, paging, filters and retention.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { fileStorage } from '../../src/index.js';
import { createTestGateway, TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const list = (f: TrafficFixture, query = '', app = 'app') =>
  request(f.app).get(`/v1/admin/applications/${app}/chronicles${query}`).set('x-api-key', TEST_KEYS.viewer).expect(200);

describe('Chronicles entries', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  afterEach(() => f.close());

  const chat = (body = chatBody(), headers: Record<string, string> = {}) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat', ...headers }).send(body);

  it('records a request with every field, and answers it by id', async () => {
    const res = await chat().expect(200);
    const entry = (await list(f)).body.data[0];
    assert.deepEqual(Object.keys(entry).sort(), [
      'application', 'attempts', 'cost', 'endpoint', 'error', 'guardrail_checks', 'id', 'input', 'kind', 'latency_ms', 'model', 'output',
      'provider', 'request_id', 'route', 'status', 'stream', 'timestamp', 'tool_invocations', 'usage',
    ]);
    assert.equal(entry.id, res.headers['x-gateway-request-id']);
    assert.equal(entry.application, 'app');
    assert.equal(entry.route, 'chat');
    assert.equal(entry.provider, 'fake');
    assert.equal(entry.model, 'gpt-4o-mini');
    assert.equal(entry.status, 200);
    assert.deepEqual(entry.input, [{ role: 'user', content: 'Hello' }]);
    assert.equal(entry.output, 'Hello from the fake provider.');
    assert.equal(entry.usage.total_tokens, 15);
    assert.equal(entry.attempts.length, 1);
    assert.equal(entry.attempts[0].status, 200);
    assert.equal(entry.error, null);
    assert.deepEqual(entry.tool_invocations, []);
    assert.ok(!Number.isNaN(Date.parse(entry.timestamp)));
    const one = await request(f.app).get(`/v1/admin/applications/app/chronicles/${entry.id}`).set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(one.body, entry);
  });

  it('records the assembled text of a stream', async () => {
    await chat(chatBody({ stream: true, stream_options: { include_usage: true } })).expect(200);
    const entry = (await list(f)).body.data[0];
    assert.equal(entry.stream, true);
    assert.equal(entry.output, 'Hello from the fake provider.');
  });

  it('never records a key: not the developer key, not the Bearer, not one pasted into a message', async () => {
    const bearer = 'sk-client-bearer-secret-123456';
    await chat(chatBody({ messages: [{ role: 'user', content: `my keys are ${f.developerKey} and ${bearer}` }] }), { authorization: `Bearer ${bearer}` }).expect(200);
    const text = JSON.stringify((await list(f)).body);
    assert.ok(!text.includes(f.developerKey));
    assert.ok(!text.includes(bearer));
    assert.ok(!text.includes('sk-stored-provider-key-0001'));
    assert.match(text, /\[REDACTED\]/);
  });

  it('records a failed upstream with its attempts and error, and a request to an unknown route', async () => {
    f.fake.script({ fail: { status: 500, message: 'boom' } });
    await chat().expect(500);
    await chat(chatBody(), { 'x-gateway-route': 'ghost' }).expect(404);
    const [unknown, failed] = (await list(f)).body.data;
    assert.equal(failed.status, 500);
    assert.equal(failed.attempts.length, 2);
    assert.equal(failed.error.message, 'boom');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.route, 'ghost');
    assert.equal(unknown.error.code, 'not_found');
  });

  it('keeps each application to its own entries', async () => {
    await chat().expect(200);
    await f.create('/v1/admin/applications', { name: 'other' });
    const id = (await list(f)).body.data[0].id;
    assert.deepEqual((await list(f, '', 'other')).body.data, []);
    await request(f.app).get(`/v1/admin/applications/other/chronicles/${id}`).set('x-api-key', TEST_KEYS.viewer).expect(404);
    await request(f.app).get('/v1/admin/applications/ghost/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(404);
    await request(f.app).get('/v1/admin/applications/app/chronicles').expect(401);
  });

  it('pages newest first with a cursor, and filters by route, status, model and time', async () => {
    await f.create('/v1/admin/routes', { name: 'other', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake' }] });
    for (let i = 0; i < 5; i++) await chat(chatBody({ messages: [{ role: 'user', content: `n${i}` }] })).expect(200);
    await chat(chatBody(), { 'x-gateway-route': 'other' }).expect(200);
    f.fake.script([{ fail: { status: 400, message: 'bad' } }]);
    await chat().expect(400);
    const first = (await list(f, '?limit=3')).body;
    assert.equal(first.data.length, 3);
    assert.equal(first.data[0].status, 400);
    assert.equal(first.data[1].route, 'other');
    assert.deepEqual(first.data[2].input, [{ role: 'user', content: 'n4' }]);
    const second = (await list(f, `?limit=3&cursor=${first.next_cursor}`)).body;
    assert.deepEqual(second.data.map((e: { input: Array<{ content: string }> }) => e.input[0]!.content), ['n3', 'n2', 'n1']);
    const third = (await list(f, `?limit=3&cursor=${second.next_cursor}`)).body;
    assert.equal(third.data.length, 1);
    assert.equal(third.next_cursor, null);
    assert.equal((await list(f, '?route=other')).body.data.length, 1);
    assert.equal((await list(f, '?status=400')).body.data.length, 1);
    assert.equal((await list(f, '?model=gpt-4o')).body.data.length, 1);
    assert.equal((await list(f, `?from=${Date.now() + 60_000}`)).body.data.length, 0);
    assert.equal((await list(f, `?to=${new Date(Date.now() + 60_000).toISOString()}`)).body.data.length, 7);
    await request(f.app).get('/v1/admin/applications/app/chronicles?limit=0').set('x-api-key', TEST_KEYS.viewer).expect(400);
    await request(f.app).get('/v1/admin/applications/app/chronicles?from=yesterday').set('x-api-key', TEST_KEYS.viewer).expect(400);
    await request(f.app).get('/v1/admin/applications/app/chronicles?cursor=bm9wZQ').set('x-api-key', TEST_KEYS.viewer).expect(400);
  });

  it('deleting an application deletes its request log', async () => {
    await chat().expect(200);
    await request(f.app).delete('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.admin).expect(200);
    await f.create('/v1/admin/applications', { name: 'app' });
    assert.deepEqual((await list(f)).body.data, []);
  });
});

describe('Chronicles retention', () => {
  it('keeps at most maxEntries per application, newest first', async () => {
    const f = await createTrafficFixture({ chronicles: { retention: { maxEntries: 5 } } });
    try {
      for (let i = 0; i < 12; i++) {
        await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ messages: [{ role: 'user', content: `n${i}` }] })).expect(200);
      }
      const data = (await list(f, '?limit=100')).body.data;
      assert.deepEqual(data.map((e: { input: Array<{ content: string }> }) => e.input[0]!.content), ['n11', 'n10', 'n9', 'n8', 'n7']);
    } finally {
      await f.close();
    }
  });
});

describe('Chronicles under mixed load', function () {
  this.timeout(60_000);

  it('writes exactly one entry for each of 1,000 mixed requests, with the right status, no secret, and keeps them across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-chronicles-'));
    const options = { storage: fileStorage({ dir }), plugins: TEST_GUARDRAILS, secret: 'chronicles-test-secret' };
    const f = await createTrafficFixture(options);
    let closeLast = () => f.close();
    try {
      await f.create('/v1/admin/routes', { name: 'ok', type: 'chat', models: [{ name: 'm', provider: 'fake' }] });
      await f.create('/v1/admin/routes', { name: 'failing', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'fail-model', provider: 'fake' }] });
      await f.create('/v1/admin/routes', { name: 'limited', type: 'chat', config: { settings: { rate_limit: 5 } }, models: [{ name: 'm', provider: 'fake' }] });
      await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} } }).expect(200);
      f.fake.forModel('fail-model', { fail: { status: 502, message: 'upstream down' } });
      const kinds = ['ok', 'rejected', 'failed', 'limited'] as const;
      const expected = new Map<number, number>();
      const statusCounts = new Map<number, number>();
      const send = (i: number) => {
        const kind = kinds[i % 4]!;
        const route = kind === 'rejected' ? 'ok' : kind === 'failed' ? 'failing' : kind;
        const content = kind === 'rejected' ? 'a forbidden request' : `request ${i}`;
        return request(f.app)
          .post('/v1/chat/completions')
          .set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route, authorization: 'Bearer sk-client-secret-abcdef' })
          .send(chatBody({ messages: [{ role: 'user', content }] }));
      };
      const startedAt = Date.now();
      for (let start = 0; start < 1000; start += 25) {
        const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => send(start + j)));
        for (const res of batch) statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
      }
      for (const [status, count] of statusCounts) expected.set(status, count);
      assert.equal(statusCounts.get(400), 250, 'every rejected request answered 400');
      assert.equal(statusCounts.get(502), 250, 'every failing request answered 502');
      // At 5 per second, the limited route admits at most 5 for each second the run took (plus the first window);
      // the rest of its 250 requests answer 429, however slow the machine is.
      const admittedAtMost = 5 * (Math.ceil((Date.now() - startedAt) / 1000) + 1);
      const limited = statusCounts.get(429) ?? 0;
      assert.ok(limited >= 250 - admittedAtMost && limited > 0, `${limited} limited requests answered 429; at most ${admittedAtMost} could be admitted`);
      assert.equal(statusCounts.get(200), 500 - limited, 'every other request answered 200');
      await f.close();

      const restarted = await createTestGateway({ ...options, storage: fileStorage({ dir }) });
      closeLast = () => restarted.close();
      const entries: Array<{ status: number; application: string }> = [];
      let cursor = '';
      for (;;) {
        const page = (await request(restarted.app).get(`/v1/admin/applications/app/chronicles?limit=500${cursor ? `&cursor=${cursor}` : ''}`).set('x-api-key', TEST_KEYS.viewer).expect(200)).body;
        entries.push(...page.data);
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      assert.equal(entries.length, 1000);
      const recorded = new Map<number, number>();
      for (const entry of entries) recorded.set(entry.status, (recorded.get(entry.status) ?? 0) + 1);
      assert.deepEqual([...recorded.entries()].sort(), [...expected.entries()].sort());
      const text = JSON.stringify(entries);
      assert.ok(!text.includes('sk-client-secret-abcdef'));
      assert.ok(!text.includes('sk-stored-provider-key-0001'));
      assert.ok(!text.includes('gwk_'));
    } finally {
      await closeLast();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

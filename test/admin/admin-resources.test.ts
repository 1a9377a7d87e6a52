// Admin CRUD behaviour: every spec field in answers, server-set stamps, spec answer shapes, filters and developer keys.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { sampleProvider, sampleRoute } from './admin-fixtures.js';
import { seedAll } from './admin-seed.js';

const STAMPS = ['created_at', 'modified_at', 'created_by', 'modified_by'];

describe('admin resources', () => {
  let t: TestGateway;
  let clock: number;
  beforeEach(async () => {
    clock = Date.parse('2026-01-01T00:00:00.000Z');
    t = await createTestGateway({ now: () => new Date(clock) });
    await seedAll(t.app);
  });
  afterEach(() => t.close());

  const get = (path: string) => request(t.app).get(path).set('x-api-key', TEST_KEYS.admin).expect(200);

  it('answers every field of the spec tables, with server-set stamps', async () => {
    const expected: Record<string, string[]> = {
      '/v1/admin/templates/inspect-pii': ['name', 'type', 'description', 'enabled', 'config', 'models'],
      '/v1/admin/gateways/edge': ['gateway_id', 'name', 'type', 'enabled', 'config'],
      '/v1/admin/providers/openai-main': ['name', 'type', 'enabled', 'vault_enabled', 'config', 'api_keys'],
      '/v1/admin/routes/chat-route': ['name', 'type', 'models', 'config', 'enabled'],
    };
    for (const [path, fields] of Object.entries(expected)) {
      const body = (await get(path)).body;
      assert.deepEqual(Object.keys(body).sort(), [...fields, ...STAMPS].sort(), path);
      assert.equal(body.created_at, '2026-01-01T00:00:00.000Z');
      assert.equal(body.created_by, 'root');
      assert.equal(body.modified_by, 'root');
    }
  });

  it('names the whole path in the 404 of an unknown admin path, as the client sent it', async () => {
    const res = await request(t.app).get('/v1/admin/applications/blog/keys/a%2Fb/extra').set('x-api-key', TEST_KEYS.admin).expect(404);
    assert.equal(res.body.error.message, 'No endpoint GET /v1/admin/applications/blog/keys/a%2Fb/extra.');
  });

  it('fills route defaults: rate_limit 0, retries 1, enabled true, model weight and fallback', async () => {
    const route = (await get('/v1/admin/routes/chat-route')).body;
    assert.equal(route.config.settings.rate_limit, 0);
    assert.equal(route.config.settings.retries, 1);
    assert.equal(route.enabled, true);
    assert.deepEqual(route.models[0], { name: 'gpt-4o-mini', provider: 'openai-main', weight: 1, fallback_enabled: false, fallback_codes: [] });
  });

  it('a unified route needs only its name', async () => {
    await request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.admin).send({ name: 'unified' }).expect(201);
    const route = (await get('/v1/admin/routes/unified')).body;
    assert.equal(route.type, null);
    assert.equal(route.models, null);
    assert.equal(route.config.settings.retries, 1);
  });

  it('update keeps created_*, sets modified_*, and replaces only the given top-level fields', async () => {
    clock += 60_000;
    const res = await request(t.app)
      .put('/v1/admin/templates/inspect-pii')
      .set('x-api-key', TEST_KEYS.admin)
      .send({ description: 'changed' })
      .expect(200);
    assert.deepEqual(res.body, { message: 'Template inspect-pii updated' });
    const template = (await get('/v1/admin/templates/inspect-pii')).body;
    assert.equal(template.description, 'changed');
    assert.equal(template.type, 'dlp');
    assert.equal(template.created_at, '2026-01-01T00:00:00.000Z');
    assert.equal(template.modified_at, '2026-01-01T00:01:00.000Z');
    assert.equal(template.created_by, 'root');
    assert.equal(template.modified_by, 'ops');
  });

  it('create answers 201 {message}, update and delete 200 {message}; gateways answer JSON strings', async () => {
    const created = await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: 'blog' }).expect(201);
    assert.deepEqual(created.body, { message: 'Application blog created' });
    const deleted = await request(t.app).delete('/v1/admin/applications/blog').set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.deepEqual(deleted.body, { message: 'Application blog deleted' });
    await request(t.app).get('/v1/admin/applications/blog').set('x-api-key', TEST_KEYS.admin).expect(404);

    const gw = await request(t.app).post('/v1/admin/gateways').set('x-api-key', TEST_KEYS.admin).send({ name: 'g2' }).expect(201);
    assert.equal(gw.body, 'Gateway g2 created');
    assert.equal((await request(t.app).put('/v1/admin/gateways/g2').set('x-api-key', TEST_KEYS.admin).send({ type: 't' })).body, 'Gateway g2 updated');
    const list = (await get('/v1/admin/gateways')).body;
    assert.deepEqual(Object.keys(list), ['gateways']);
    assert.deepEqual(list.gateways.map((g: { name: string }) => g.name), ['edge', 'g2']);
    assert.match(list.gateways[0].gateway_id, /^[0-9a-f-]{36}$/);
  });

  it('lists routes by type, enabled, provider and name prefix', async () => {
    const as = (body: Record<string, unknown>) => request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.admin).send(body).expect(201);
    await request(t.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.admin).send(sampleProvider('second')).expect(201);
    await as({ ...sampleRoute('chat-two', 'second'), enabled: false });
    await as({ name: 'embed-one', type: 'embeddings', models: [{ name: 'text-embedding-3-small', provider: 'openai-main' }] });
    const names = async (query: string) =>
      (await get(`/v1/admin/routes${query}`)).body.map((route: { name: string }) => route.name);
    assert.deepEqual(await names(''), ['chat-route', 'chat-two', 'embed-one']);
    assert.deepEqual(await names('?type=chat'), ['chat-route', 'chat-two']);
    assert.deepEqual(await names('?enabled=false'), ['chat-two']);
    assert.deepEqual(await names('?provider=second'), ['chat-two']);
    assert.deepEqual(await names('?name=chat'), ['chat-route', 'chat-two']);
    assert.deepEqual(await names('?type=chat&enabled=true'), ['chat-route']);
    await request(t.app).get('/v1/admin/routes?enabled=maybe').set('x-api-key', TEST_KEYS.admin).expect(400);
  });

  it('keeps provider keys apart by namespace', async () => {
    const keys = (ns: string) => request(t.app).get('/v1/admin/providers/openai-main/keys').set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', ns).expect(200);
    assert.deepEqual((await keys('team-a')).body.map((k: { api_key_secret_name: string }) => k.api_key_secret_name), ['team-key']);
    assert.deepEqual((await keys('team-b')).body, []);
    assert.deepEqual((await keys('default')).body.map((k: { api_key_secret_name: string }) => k.api_key_secret_name), ['primary']);
    await request(t.app).get('/v1/admin/providers/openai-main/keys/team-key').set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', 'team-b').expect(404);
    const key = (await request(t.app).get('/v1/admin/providers/openai-main/keys/team-key').set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', 'team-a').expect(200)).body;
    assert.equal(key.provider_name, 'openai-main');
    assert.equal(key.namespace, 'team-a');
    assert.equal(key.header_key, 'api-key');
    assert.equal(key.enabled, true);
    for (const field of ['api_key', 'api_key_secret_key', 'api_key_secret_key_gateway', 'api_key_secret_name', 'group', 'query_param_key', 'organization', ...STAMPS]) {
      assert.ok(field in key, field);
    }
  });

  it('deleting a provider deletes its keys in every namespace', async () => {
    await request(t.app).delete('/v1/admin/providers/openai-main').set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.deepEqual(await t.gateway.storage.list('provider-keys/'), []);
  });

  it('a developer key is shown once, then listed masked, and revoking it removes it at once', async () => {
    const created = await request(t.app).post('/v1/admin/applications/shop/keys').set('x-api-key', TEST_KEYS.admin).send({ name: 'ci' }).expect(201);
    assert.match(created.body.key, /^gwk_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.application, 'shop');
    const listed = (await get('/v1/admin/applications/shop/keys')).body;
    assert.equal(listed.length, 2);
    const mine = listed.find((k: { id: string }) => k.id === created.body.id);
    assert.equal(mine.name, 'ci');
    assert.equal(mine.masked, `gwk...${created.body.key.slice(-4)}`);
    assert.ok(!JSON.stringify(listed).includes(created.body.key));
    assert.ok(!('hash' in mine));
    assert.deepEqual(await t.gateway.services.developerKeys.identify(created.body.key), { application: 'shop', keyId: created.body.id });
    await request(t.app).delete(`/v1/admin/applications/shop/keys/${created.body.id}`).set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.equal(await t.gateway.services.developerKeys.identify(created.body.key), undefined);
  });

  it('a developer key reads every field, unset budget and limits as null, and a PUT of what was read changes only what it names', async () => {
    const created = await request(t.app).post('/v1/admin/applications/shop/keys').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'ci' }).expect(201);
    const fields = ['id', 'application', 'name', 'masked', 'budget', 'limits', ...STAMPS].sort();
    assert.deepEqual(Object.keys(created.body).filter((field) => field !== 'message' && field !== 'key').sort(), fields);
    const listed = ((await get('/v1/admin/applications/shop/keys')).body as Array<Record<string, unknown>>).find((key) => key.id === created.body.id)!;
    assert.deepEqual(Object.keys(listed).sort(), fields);
    assert.equal(listed.budget, null);
    assert.equal(listed.limits, null);
    assert.equal(listed.modified_at, '2026-01-01T00:00:00.000Z');
    assert.equal(listed.modified_by, 'root');

    clock += 60_000;
    const limits = { requests_per_minute: 10 };
    const updated = await request(t.app).put(`/v1/admin/applications/shop/keys/${created.body.id}`).set('x-api-key', TEST_KEYS.admin).send({ ...listed, limits }).expect(200);
    assert.deepEqual(updated.body.limits, limits);
    assert.equal(updated.body.budget, null);
    assert.equal(updated.body.name, 'ci');
    assert.equal(updated.body.modified_at, '2026-01-01T00:01:00.000Z');
    assert.equal(updated.body.modified_by, 'ops');
    assert.equal(updated.body.created_by, 'root');
    const relisted = ((await get('/v1/admin/applications/shop/keys')).body as Array<Record<string, unknown>>).find((key) => key.id === created.body.id)!;
    assert.deepEqual(relisted, { ...listed, limits, modified_at: '2026-01-01T00:01:00.000Z', modified_by: 'ops' });
  });

  it('deleting an application revokes its keys and drops its policy', async () => {
    const { developerKey } = await seedAll(await fresh());
    await request(t.app).put('/v1/admin/applications/shop/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject' }).expect(200);
    await request(t.app).delete('/v1/admin/applications/shop').set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.equal(await t.gateway.services.developerKeys.identify(developerKey), undefined);
    assert.equal(await t.gateway.storage.get('application-policies/shop'), undefined);
  });

  it('stores and validates an application policy', async () => {
    const path = '/v1/admin/applications/shop/policy';
    const initial = (await get(path)).body;
    assert.deepEqual(initial, { mode: 'inspect', processors: {}, on_error: 'fail_closed', timeout_ms: 2000, unreadable_content: 'allow', read_pdf_text: false });
    await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } }).expect(200);
    const stored = (await get(path)).body;
    assert.equal(stored.mode, 'reject');
    assert.deepEqual(stored.dlp, { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] });
    const bad = await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).send({ dlp: { strategy: 'shred' } }).expect(400);
    assert.equal(bad.body.error.param, 'dlp.strategy');
  });

  async function fresh() {
    await t.close();
    t = await createTestGateway();
    return t.app;
  }
});

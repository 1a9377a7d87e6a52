// Model requests through unified and custom routes: authentication, route checks, model lookup, keys and answer headers.
import assert from 'node:assert/strict';
import request from 'supertest';
import { startFakeProvider } from '../helpers/fake-provider.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('model routing', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture();
  });
  afterEach(() => f.close());

  const chat = (headers: Record<string, string>, body = chatBody()) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, ...headers }).send(body);

  it('a unified route picks the provider listing the model, and answers in OpenAI format with gateway headers', async () => {
    await f.create('/v1/admin/routes', { name: 'unified' });
    const res = await chat({ 'x-gateway-route': 'unified' }).expect(200);
    assert.equal(res.body.object, 'chat.completion');
    assert.equal(res.body.choices[0].message.content, 'Hello from the fake provider.');
    assert.equal(res.headers['x-gateway-route'], 'unified');
    assert.equal(res.headers['x-gateway-provider'], 'fake');
    assert.equal(res.headers['x-gateway-model'], 'gpt-4o-mini');
    assert.equal(res.headers['x-gateway-attempts'], '1');
    const received = f.fake.requests[0];
    assert.equal(received?.path, '/v1/chat/completions');
    assert.equal(received?.headers.authorization, 'Bearer sk-stored-provider-key-0001');
    assert.equal(received?.headers['x-gateway-apikey'], undefined, 'the developer key never reaches the provider');
    assert.deepEqual(received?.body, chatBody());
  });

  it('a unified route accepts provider/model, and answers 400 for an unknown model', async () => {
    await f.create('/v1/admin/routes', { name: 'unified' });
    await chat({ 'x-gateway-route': 'unified' }, chatBody({ model: 'fake/some-other-model' })).expect(200);
    assert.equal((f.fake.requests[0]?.body as { model: string }).model, 'some-other-model');
    const unknown = await chat({ 'x-gateway-route': 'unified' }, chatBody({ model: 'nobody-serves-this' })).expect(400);
    assert.equal(unknown.body.error.code, 'unknown_model');
    assert.equal(unknown.body.error.param, 'model');
    const missing = await chat({ 'x-gateway-route': 'unified' }, { messages: [{ role: 'user', content: 'x' }] }).expect(400);
    assert.equal(missing.body.error.param, 'model');
  });

  it('model paths match as Express routes do by default: any letter case and one trailing slash; other methods are not model requests', async () => {
    for (const path of ['/V1/Chat/Completions', '/v1/chat/completions/']) {
      const res = await request(f.app).post(path).set({ 'x-gateway-apikey': f.developerKey }).send(chatBody()).expect(200);
      assert.equal(res.body.object, 'chat.completion', path);
    }
    const get = await request(f.app).get('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey });
    assert.equal(get.status, 404);
    assert.equal(f.fake.requests.length, 2, 'only the two POSTs reached the provider');
  });

  it('a warm unified route follows provider changes at once: a model listed by another provider, disabled or dropped', async () => {
    const admin = (method: 'put' | 'delete', path: string, body?: object) => request(f.app)[method](`/v1/admin${path}`).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(200);
    const second = await startFakeProvider();
    try {
      // 'another' sorts before 'fake': when both list a model, it is the one chosen.
      await f.create('/v1/admin/providers', { name: 'another', type: 'openai', config: { api_base: `${second.url}/v1`, models: ['other-model'] }, api_keys: [{ api_key: 'sk-stored-provider-key-0002' }] });
      // Warm: the model index is built and every record is cached, so these are resolved without a storage read.
      for (let i = 0; i < 3; i++) assert.equal((await chat({}).expect(200)).headers['x-gateway-provider'], 'fake');
      assert.equal((await chat({}, chatBody({ model: 'other-model' })).expect(200)).headers['x-gateway-provider'], 'another');
      // Only 'another' changes; 'fake' stays cached, so a stale index would still send the model there.
      await admin('put', '/providers/another', { config: { api_base: `${second.url}/v1`, models: ['other-model', 'gpt-4o-mini'] } });
      assert.equal((await chat({}).expect(200)).headers['x-gateway-provider'], 'another');
      await admin('put', '/providers/another', { enabled: false });
      assert.equal((await chat({}).expect(200)).headers['x-gateway-provider'], 'fake');
      await admin('put', '/providers/fake', { config: { api_base: `${f.fake.url}/v1`, models: ['text-embedding-3-small'] } });
      assert.equal((await chat({}).expect(400)).body.error.code, 'unknown_model');
      assert.equal((await chat({}, chatBody({ model: 'another/gpt-4o-mini' })).expect(400)).body.error.code, 'unknown_model');
      // provider/model on an enabled provider still resolves.
      assert.equal((await chat({}, chatBody({ model: 'fake/gpt-4o-mini' })).expect(200)).headers['x-gateway-model'], 'gpt-4o-mini');
    } finally {
      await second.close();
    }
  });

  it('without X-Gateway-route the request uses an implicit unified route', async () => {
    const res = await chat({}).expect(200);
    assert.equal(res.headers['x-gateway-route'], '(unified)');
  });

  it('X-Gateway-Apikey is required: missing, wrong or revoked is 401; an admin key is not a developer key', async () => {
    assert.equal((await request(f.app).post('/v1/chat/completions').send(chatBody()).expect(401)).body.error.code, 'missing_api_key');
    assert.equal((await chat({ 'x-gateway-apikey': 'gwk_wrong' }).expect(401)).body.error.code, 'invalid_api_key');
    assert.equal((await chat({ 'x-gateway-apikey': TEST_KEYS.superAdmin }).expect(401)).body.error.code, 'invalid_api_key');
    const keys = (await request(f.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.admin)).body;
    await request(f.app).delete(`/v1/admin/applications/app/keys/${keys[0].id}`).set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.equal((await chat({}).expect(401)).body.error.code, 'invalid_api_key');
    assert.equal(f.fake.requests.length, 0);
  });

  it('an unknown route is 404, a disabled one 403, a type mismatch 400', async () => {
    assert.equal((await chat({ 'x-gateway-route': 'ghost' }).expect(404)).body.error.code, 'not_found');
    await f.create('/v1/admin/routes', { name: 'off', type: 'chat', enabled: false, models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    assert.equal((await chat({ 'x-gateway-route': 'off' }).expect(403)).body.error.code, 'route_disabled');
    await f.create('/v1/admin/routes', { name: 'embed', type: 'embeddings', models: [{ name: 'text-embedding-3-small', provider: 'fake' }] });
    assert.equal((await chat({ 'x-gateway-route': 'embed' }).expect(400)).body.error.code, 'route_type_mismatch');
    assert.equal(f.fake.requests.length, 0);
  });

  it('a route, application and key served warm from the cache are refused at once once disabled or revoked', async () => {
    await f.create('/v1/admin/routes', { name: 'warm', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    const admin = (method: 'put' | 'delete', path: string, body?: object) => request(f.app)[method](`/v1/admin${path}`).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(200);
    const warm = async (): Promise<void> => {
      for (let i = 0; i < 2; i++) await chat({ 'x-gateway-route': 'warm' }).expect(200);
    };
    await warm();
    await admin('put', '/providers/fake', { enabled: false });
    assert.equal((await chat({ 'x-gateway-route': 'warm' }).expect(503)).body.error.code, 'no_provider_available');
    await admin('put', '/providers/fake', { enabled: true });
    await warm();
    await admin('put', '/routes/warm', { enabled: false });
    assert.equal((await chat({ 'x-gateway-route': 'warm' }).expect(403)).body.error.code, 'route_disabled');
    await admin('put', '/routes/warm', { enabled: true });
    await warm();
    await admin('put', '/applications/app', { enabled: false });
    assert.equal((await chat({ 'x-gateway-route': 'warm' }).expect(403)).body.error.code, 'application_disabled');
    await admin('put', '/applications/app', { enabled: true });
    await warm();
    const keys = (await request(f.app).get('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.admin)).body as Array<{ id: string }>;
    await admin('delete', `/applications/app/keys/${keys[0]!.id}`);
    assert.equal((await chat({ 'x-gateway-route': 'warm' }).expect(401)).body.error.code, 'invalid_api_key');
    assert.equal(f.fake.requests.length, 8, 'only the warm-up requests reached the provider');
  });

  it('bad bodies are 400 before any provider call', async () => {
    await chat({}, { model: 'gpt-4o-mini' }).expect(400);
    await chat({}, { model: 'gpt-4o-mini', messages: 'hi' }).expect(400);
    await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).set('content-type', 'application/json').send('{oops').expect(400);
    assert.equal(f.fake.requests.length, 0);
  });

  it('a custom route sends its model name and suffix, with the stored key even when the client sends a Bearer', async () => {
    await f.create('/v1/admin/routes', { name: 'custom', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake' }] });
    await chat({ 'x-gateway-route': 'custom', authorization: 'Bearer sk-client-own-key' }, chatBody({ model: 'ignored' })).expect(200);
    const received = f.fake.requests[0];
    assert.equal((received?.body as { model: string }).model, 'gpt-4o');
    assert.equal(received?.headers.authorization, 'Bearer sk-stored-provider-key-0001');
    await f.create('/v1/admin/routes', { name: 'suffixed', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake', suffix: '/chat/completions?variant=b' }] });
    await chat({ 'x-gateway-route': 'suffixed' }).expect(200);
    assert.equal(f.fake.requests[1]?.path, '/v1/chat/completions');
    assert.equal(f.fake.requests[1]?.query.variant, 'b');
  });

  it('virtual_secret_key selects a stored key, placed by header_key or query_param_key; a disabled key is never used', async () => {
    const keyPath = '/v1/admin/providers/fake/keys';
    const ns = { 'x-gateway-namespace': 'default' };
    await f.create(`${keyPath}/azure-style`, { api_key: 'sk-in-a-header-0001', header_key: 'api-key' }, ns);
    await f.create(`${keyPath}/gemini-style`, { api_key: 'sk-in-the-query-0001', query_param_key: 'key' }, ns);
    await f.create('/v1/admin/routes', { name: 'h', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake', virtual_secret_key: 'azure-style' }] });
    await f.create('/v1/admin/routes', { name: 'q', type: 'chat', models: [{ name: 'gpt-4o', provider: 'fake', virtual_secret_key: 'gemini-style' }] });
    await chat({ 'x-gateway-route': 'h', authorization: 'Bearer sk-client' }).expect(200);
    assert.equal(f.fake.requests[0]?.headers['api-key'], 'sk-in-a-header-0001');
    assert.equal(f.fake.requests[0]?.headers.authorization, undefined);
    await chat({ 'x-gateway-route': 'q' }).expect(200);
    assert.equal(f.fake.requests[1]?.query.key, 'sk-in-the-query-0001');

    await request(f.app).put(`${keyPath}/azure-style`).set('x-api-key', TEST_KEYS.admin).set(ns).send({ enabled: false }).expect(200);
    const res = await chat({ 'x-gateway-route': 'h' }).expect(500);
    assert.equal(res.body.error.code, 'provider_key_unavailable');
    assert.ok(!res.text.includes('sk-in-a-header-0001'));
    assert.equal(f.fake.requests.length, 2);
  });

  it('never passes a developer key sent as the Bearer on to the provider', async () => {
    await chat({ authorization: `Bearer ${f.developerKey}` }).expect(200);
    assert.equal(f.fake.requests[0]?.headers.authorization, 'Bearer sk-stored-provider-key-0001');
  });

  it('the provider first enabled key is used when there is no Bearer and no virtual key', async () => {
    await request(f.app).put('/v1/admin/providers/fake').set('x-api-key', TEST_KEYS.admin)
      .send({ api_keys: [{ api_key_secret_name: 'a-off', api_key: 'sk-disabled-000001', enabled: false }, { api_key_secret_name: 'b-on', api_key: 'sk-enabled-0000001' }] })
      .expect(200);
    await chat({}).expect(200);
    assert.equal(f.fake.requests[0]?.headers.authorization, 'Bearer sk-enabled-0000001');
  });

  it('serves completions and embeddings through routes of those types', async () => {
    await f.create('/v1/admin/routes', { name: 'emb', type: 'embeddings', models: [{ name: 'text-embedding-3-small', provider: 'fake' }] });
    const emb = await request(f.app).post('/v1/embeddings').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'emb' }).send({ input: 'hi' }).expect(200);
    assert.equal(emb.body.object, 'list');
    await f.create('/v1/admin/routes', { name: 'cmp', type: 'completions', models: [{ name: 'gpt-3.5-turbo-instruct', provider: 'fake' }] });
    const cmp = await request(f.app).post('/v1/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cmp' }).send({ prompt: 'hi' }).expect(200);
    assert.equal(cmp.body.object, 'text_completion');
    assert.deepEqual(f.fake.requests.map((r) => r.path), ['/v1/embeddings', '/v1/completions']);
  });
});

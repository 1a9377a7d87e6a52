// GET /v1/models and /v1/models/:id through the official openai client: provider models and routes a developer key may name.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

describe('15.1: GET /v1/models', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let client: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'second', type: 'openai', config: { api_base: `${f.fake.url}/v1`, models: ['gpt-4o-mini', 'o-other'] }, api_keys: [{ api_key: 'sk-second-provider-key-01' }] });
    await f.create('/v1/admin/providers', { name: 'off', type: 'openai', enabled: false, config: { api_base: `${f.fake.url}/v1`, models: ['hidden-model'] } });
    await f.create('/v1/admin/routes', { name: 'support', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await f.create('/v1/admin/routes', { name: 'closed', type: 'chat', enabled: false, models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    server.close();
    await f.close();
  });

  it('15.1: models.list() lists enabled providers\' models and enabled routes, nothing disabled', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.object, 'model');
      assert.equal(typeof model.created, 'number');
      ids.push(model.id);
    }
    assert.deepEqual(ids, ['fake/gpt-4o-mini', 'gpt-4o-mini', 'o-other', 'second/gpt-4o-mini', 'text-embedding-3-small', 'route:support']);
  });

  it('15.1: models.retrieve() answers one model, a provider-qualified id and a route; an unknown one is 404 not_found', async () => {
    const model = await client.models.retrieve('o-other');
    assert.equal(model.owned_by, 'second');
    assert.equal((await client.models.retrieve('second/gpt-4o-mini')).owned_by, 'second');
    const route = await client.models.retrieve('route:support');
    assert.deepEqual((route as unknown as { gateway: unknown }).gateway, { kind: 'route', route: 'support', type: 'chat', providers: ['fake'] });
    await assert.rejects(client.models.retrieve('hidden-model'), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.equal((error.error as { code?: string }).code, 'not_found');
      return true;
    });
    await assert.rejects(client.models.retrieve('route:closed'), OpenAI.NotFoundError);
  });

  it('15.1: a listed route id works as `model` on chat completions', async () => {
    f.fake.reset();
    const completion = await client.chat.completions.create({ model: 'route:support', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'Hello from the fake provider.');
    assert.equal((f.fake.requests.at(-1)?.body as { model: string }).model, 'gpt-4o-mini');
  });

  it('15.1: the list follows admin changes', async () => {
    await f.create('/v1/admin/providers', { name: 'later', type: 'openai', config: { api_base: `${f.fake.url}/v1`, models: ['new-model'] } });
    assert.equal((await client.models.retrieve('new-model')).owned_by, 'later');
    await request(f.app).delete('/v1/admin/providers/later').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    await assert.rejects(client.models.retrieve('new-model'), OpenAI.NotFoundError);
  });

  it('15.1: needs a developer key: none is 401, an admin key is 401, a disabled application is 403', async () => {
    const none = await request(f.app).get('/v1/models').expect(401);
    assert.equal(none.body.error.code, 'missing_api_key');
    await request(f.app).get('/v1/models').set('authorization', `Bearer ${TEST_KEYS.superAdmin}`).expect(401);
    await request(f.app).get('/v1/models/gpt-4o-mini').set('x-gateway-apikey', 'gwk_not-a-key').expect(401);
    await f.create('/v1/admin/applications', { name: 'offapp', enabled: false });
    const key = await request(f.app).post('/v1/admin/applications/offapp/keys').set('x-api-key', TEST_KEYS.superAdmin).send({});
    const off = await request(f.app).get('/v1/models').set('x-gateway-apikey', key.body.key).expect(403);
    assert.equal(off.body.error.code, 'application_disabled');
  });
});

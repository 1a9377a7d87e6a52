// Bad input to every create endpoint gets a clear 4xx naming the field, and nothing is stored.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { sampleApplication, sampleGateway, sampleKey, sampleProvider, sampleRoute, sampleTemplate } from './admin-fixtures.js';
import { seedAll } from './admin-seed.js';

interface CreateCase {
  resource: string;
  create: string;
  /** Where the duplicate is posted, when not `create`. */
  duplicateAt?: string;
  list: string;
  namespace?: boolean;
  valid: Record<string, unknown>;
  duplicate: Record<string, unknown>;
  missing?: { body: Record<string, unknown>; param: string };
  wrongType: { body: Record<string, unknown>; param: string };
}

const CASES: CreateCase[] = [
  {
    resource: 'template',
    create: '/v1/admin/templates/t2',
    duplicateAt: '/v1/admin/templates/inspect-pii',
    list: '/v1/admin/templates',
    valid: sampleTemplate('t2'),
    duplicate: sampleTemplate('inspect-pii'),
    wrongType: { body: { ...sampleTemplate('t2'), enabled: 'yes' }, param: 'enabled' },
  },
  {
    resource: 'gateway',
    create: '/v1/admin/gateways',
    list: '/v1/admin/gateways',
    valid: sampleGateway('g2'),
    duplicate: sampleGateway('edge'),
    missing: { body: { type: 'standard' }, param: 'name' },
    wrongType: { body: { name: 'g2', config: 'nope' }, param: 'config' },
  },
  {
    resource: 'provider',
    create: '/v1/admin/providers',
    list: '/v1/admin/providers',
    valid: sampleProvider('p2'),
    duplicate: sampleProvider('openai-main'),
    missing: { body: { name: 'p2' }, param: 'type' },
    wrongType: { body: { ...sampleProvider('p2'), api_keys: [{ api_key: 42 }] }, param: 'api_keys[0].api_key' },
  },
  {
    resource: 'API key',
    create: '/v1/admin/providers/openai-main/keys/k2',
    duplicateAt: '/v1/admin/providers/openai-main/keys/team-key',
    list: '/v1/admin/providers/openai-main/keys',
    namespace: true,
    valid: sampleKey(),
    duplicate: sampleKey(),
    missing: { body: { header_key: 'api-key' }, param: 'api_key' },
    wrongType: { body: { api_key: 'sk-abc', enabled: 'no' }, param: 'enabled' },
  },
  {
    resource: 'route',
    create: '/v1/admin/routes',
    list: '/v1/admin/routes',
    valid: sampleRoute('r2'),
    duplicate: sampleRoute('chat-route'),
    missing: { body: { name: 'r2', type: 'chat', models: [{ name: 'gpt-4o' }] }, param: 'models[0].provider' },
    wrongType: { body: { ...sampleRoute('r2'), config: { settings: { rate_limit: 'fast' } } }, param: 'config.settings.rate_limit' },
  },
  {
    resource: 'application',
    create: '/v1/admin/applications',
    list: '/v1/admin/applications',
    valid: sampleApplication('a2'),
    duplicate: sampleApplication('shop'),
    missing: { body: { description: 'no name' }, param: 'name' },
    wrongType: { body: { name: 'a2', description: 7 }, param: 'description' },
  },
];

describe('admin API input validation', () => {
  let t: TestGateway;
  before(async () => {
    t = await createTestGateway();
    await seedAll(t.app);
  });
  after(() => t.close());

  const post = (c: CreateCase, path = c.create): request.Test => {
    const req = request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin);
    return c.namespace ? req.set('x-gateway-namespace', 'team-a') : req;
  };
  const list = async (c: CreateCase): Promise<unknown> => {
    const req = request(t.app).get(c.list).set('x-api-key', TEST_KEYS.viewer);
    return (await (c.namespace ? req.set('x-gateway-namespace', 'team-a') : req).expect(200)).body;
  };

  for (const c of CASES) {
    describe(`create ${c.resource}`, () => {
      let before: unknown;
      beforeEach(async () => {
        before = await list(c);
      });
      afterEach(async () => {
        assert.deepEqual(await list(c), before, 'a failed request must store nothing');
      });

      it('bad JSON is 400 invalid_json', async () => {
        const res = await post(c).set('content-type', 'application/json').send('{"name": ').expect(400);
        assert.equal(res.body.error.code, 'invalid_json');
      });
      it('bad JSON around a key is 400 invalid_json that quotes none of it', async () => {
        const res = await post(c).set('content-type', 'application/json').send('{"api_keys":[{"api_key": sk-typo-0123456789SECRET}]}').expect(400);
        assert.equal(res.body.error.code, 'invalid_json');
        assert.doesNotMatch(res.text, /sk-t|SECRET|\d{4}/);
      });
      it('a JSON array or string body is 400 invalid_body', async () => {
        assert.equal((await post(c).send([1, 2]).expect(400)).body.error.code, 'invalid_body');
        assert.equal((await post(c).set('content-type', 'application/json').send('"text"').expect(400)).body.error.code, 'invalid_body');
      });
      it('no body at all is 400 invalid_body', async () => {
        assert.equal((await post(c).expect(400)).body.error.code, 'invalid_body');
      });
      it('a wrong content type is 415', async () => {
        const res = await post(c).set('content-type', 'text/plain').send(JSON.stringify(c.valid)).expect(415);
        assert.equal(res.body.error.code, 'unsupported_media_type');
      });
      it('a body over 1 MB is 413', async () => {
        const res = await post(c).send({ ...c.valid, description: 'x'.repeat(1024 * 1024 + 10) }).expect(413);
        assert.equal(res.body.error.code, 'body_too_large');
      });
      if (c.missing) {
        const missing = c.missing;
        it(`a missing required field is 400 naming ${missing.param}`, async () => {
          const res = await post(c).send(missing.body).expect(400);
          assert.equal(res.body.error.code, 'invalid_value');
          assert.equal(res.body.error.param, missing.param);
          assert.match(res.body.error.message, /required/);
        });
      }
      it(`a wrong type is 400 naming ${c.wrongType.param}`, async () => {
        const res = await post(c).send(c.wrongType.body).expect(400);
        assert.equal(res.body.error.code, 'invalid_value');
        assert.equal(res.body.error.param, c.wrongType.param);
      });
      it('an unknown field is 400 naming it', async () => {
        const res = await post(c).send({ ...c.valid, surprise: true }).expect(400);
        assert.equal(res.body.error.param, 'surprise');
      });
      it('a duplicate name is 409', async () => {
        const res = await post(c, c.duplicateAt).send(c.duplicate).expect(409);
        assert.equal(res.body.error.code, 'already_exists');
        assert.equal(res.body.error.type, 'conflict_error');
        const article = /^[aeiouAEIOU]/.test(c.resource) ? 'An' : 'A';
        assert.match(res.body.error.message, new RegExp(`^${article} ${c.resource} named \\S+ already exists\\.$`));
      });
    });
  }

  it('a custom route needs type with models, and each model a name and provider', async () => {
    const send = (body: Record<string, unknown>) => request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.admin).send(body);
    assert.equal((await send({ name: 'r3', models: [{ name: 'm', provider: 'openai-main' }] }).expect(400)).body.error.param, 'type');
    assert.equal((await send({ name: 'r3', type: 'chat' }).expect(400)).body.error.param, 'models');
    assert.equal((await send({ name: 'r3', type: 'chat', models: [{ provider: 'openai-main' }] }).expect(400)).body.error.param, 'models[0].name');
    const unknown = await send({ name: 'r3', type: 'chat', models: [{ name: 'm', provider: 'nobody' }] }).expect(400);
    assert.equal(unknown.body.error.param, 'models[0].provider');
    await request(t.app).get('/v1/admin/routes/r3').set('x-api-key', TEST_KEYS.admin).expect(404);
  });

  it('a provider type without an adapter is 400 listing the known ones', async () => {
    const res = await request(t.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.admin).send({ name: 'x', type: 'nope' }).expect(400);
    assert.equal(res.body.error.param, 'type');
    assert.match(res.body.error.message, /openai/);
  });

  it('a bad resource name is 400', async () => {
    const res = await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: '../etc' }).expect(400);
    assert.equal(res.body.error.param, 'name');
  });

  it('provider key endpoints need x-gateway-namespace (400 without it)', async () => {
    for (const req of [
      request(t.app).get('/v1/admin/providers/openai-main/keys'),
      request(t.app).post('/v1/admin/providers/openai-main/keys/k9').send(sampleKey()),
      request(t.app).get('/v1/admin/providers/openai-main/keys/team-key'),
      request(t.app).put('/v1/admin/providers/openai-main/keys/team-key').send({ enabled: false }),
      request(t.app).delete('/v1/admin/providers/openai-main/keys/team-key'),
    ]) {
      const res = await req.set('x-api-key', TEST_KEYS.admin).expect(400);
      assert.equal(res.body.error.code, 'missing_header');
      assert.equal(res.body.error.param, 'x-gateway-namespace');
    }
  });

  it('an update that names another resource, or breaks a field, is 400 and changes nothing', async () => {
    const before = (await request(t.app).get('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin)).body;
    await request(t.app).put('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin).send({ name: 'other' }).expect(400);
    await request(t.app).put('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin).send({ models: [] }).expect(400);
    const after = (await request(t.app).get('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin)).body;
    assert.deepEqual(after, before);
  });

  it('unknown names are 404 on get, update and delete', async () => {
    for (const path of ['/v1/admin/templates/zz', '/v1/admin/gateways/zz', '/v1/admin/providers/zz', '/v1/admin/routes/zz', '/v1/admin/applications/zz']) {
      assert.equal((await request(t.app).get(path).set('x-api-key', TEST_KEYS.admin).expect(404)).body.error.code, 'not_found');
      await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).send({ enabled: false }).expect(404);
      await request(t.app).delete(path).set('x-api-key', TEST_KEYS.admin).expect(404);
    }
  });

  it('a policy naming an unknown processor or a bad mode is 400 and not stored', async () => {
    const path = '/v1/admin/applications/shop/policy';
    const unknown = await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).send({ processors: { nope: { enabled: true } } }).expect(400);
    assert.equal(unknown.body.error.param, 'processors.nope');
    const mode = await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).send({ mode: 'block' }).expect(400);
    assert.equal(mode.body.error.param, 'mode');
    const stored = await request(t.app).get(path).set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.equal(stored.body.mode, 'inspect');
  });
});

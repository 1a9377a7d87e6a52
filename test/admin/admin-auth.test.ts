// Every admin endpoint refuses a missing key, a wrong key and a role too low, in the one error shape.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { ENDPOINTS, sampleRoute, type EndpointCase } from './admin-fixtures.js';
import { seedAll } from './admin-seed.js';

function call(t: TestGateway, endpoint: EndpointCase, key?: string): request.Test {
  let req = request(t.app)[endpoint.method](endpoint.path);
  if (key !== undefined) req = req.set('x-api-key', key);
  if (endpoint.namespace) req = req.set('x-gateway-namespace', 'team-a');
  return endpoint.body ? req.send(endpoint.body) : req;
}

function assertErrorShape(body: unknown, code: string): void {
  const error = (body as { error: Record<string, unknown> }).error;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
}

describe('admin API authentication and roles', () => {
  let t: TestGateway;
  beforeEach(async () => {
    t = await createTestGateway();
    await seedAll(t.app);
  });
  afterEach(() => t.close());

  for (const endpoint of ENDPOINTS) {
    const label = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    it(`${label}: no key is 401, a wrong key is 401`, async () => {
      const missing = await call(t, endpoint).expect(401);
      assertErrorShape(missing.body, 'missing_api_key');
      assert.equal(missing.body.error.type, 'authentication_error');
      const wrong = await call(t, endpoint, 'not-a-real-key-at-all-000000').expect(401);
      assertErrorShape(wrong.body, 'invalid_api_key');
    });
    if (endpoint.method === 'get') {
      it(`${label}: a viewer key may read`, async () => {
        await call(t, endpoint, TEST_KEYS.viewer).expect(200);
      });
    } else {
      it(`${label}: a viewer key is 403 and changes nothing, an admin key succeeds`, async () => {
        const before = await request(t.app).get('/v1/admin/routes').set('x-api-key', TEST_KEYS.viewer);
        const denied = await call(t, endpoint, TEST_KEYS.viewer).expect(403);
        assertErrorShape(denied.body, 'insufficient_role');
        assert.equal(denied.body.error.type, 'permission_error');
        const after = await request(t.app).get('/v1/admin/routes').set('x-api-key', TEST_KEYS.viewer);
        assert.deepEqual(after.body, before.body);
        const allowed = await call(t, endpoint, TEST_KEYS.admin);
        assert.ok(allowed.status === 200 || allowed.status === 201, `admin got ${allowed.status}: ${JSON.stringify(allowed.body)}`);
      });
    }
  }

  it('a developer key revocation needs a write role', async () => {
    const { developerKeyId } = await seedAll(await recreate());
    const path = `/v1/admin/applications/shop/keys/${developerKeyId}`;
    await request(t.app).delete(path).expect(401);
    await request(t.app).delete(path).set('x-api-key', TEST_KEYS.viewer).expect(403);
    await request(t.app).delete(path).set('x-api-key', TEST_KEYS.admin).expect(200);
    await request(t.app).delete(path).set('x-api-key', TEST_KEYS.admin).expect(404);
  });

  async function recreate() {
    await t.close();
    t = await createTestGateway();
    return t.app;
  }

  describe('route policy override (Super Admin only)', () => {
    const policy = { enabled: true, mode: 'reject', processors: {} };

    it('an admin may not create a route with a policy; a super_admin may', async () => {
      const body = { ...sampleRoute('guarded'), config: { policy } };
      const denied = await request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.admin).send(body).expect(403);
      assert.equal(denied.body.error.code, 'insufficient_role');
      await request(t.app).get('/v1/admin/routes/guarded').set('x-api-key', TEST_KEYS.admin).expect(404);
      await request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(201);
    });

    it('an admin may change other route fields but not enable or change the policy', async () => {
      await request(t.app)
        .put('/v1/admin/routes/chat-route')
        .set('x-api-key', TEST_KEYS.admin)
        .send({ config: { policy } })
        .expect(403);
      const unchanged = await request(t.app).get('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin).expect(200);
      assert.equal(unchanged.body.config.policy, undefined);
      await request(t.app).put('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { policy } }).expect(200);
      // Keeping the same policy while changing something else is allowed for an admin.
      const current = (await request(t.app).get('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin)).body;
      await request(t.app)
        .put('/v1/admin/routes/chat-route')
        .set('x-api-key', TEST_KEYS.admin)
        .send({ config: current.config, enabled: false })
        .expect(200);
      const changed = await request(t.app).get('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin).expect(200);
      assert.equal(changed.body.enabled, false);
      assert.equal(changed.body.config.policy.enabled, true);
    });

    it('11.4: an admin may not delete a route that carries a policy (403, kept); a super_admin may', async () => {
      await request(t.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.superAdmin).send({ ...sampleRoute('guarded'), config: { policy } }).expect(201);
      const denied = await request(t.app).delete('/v1/admin/routes/guarded').set('x-api-key', TEST_KEYS.admin).expect(403);
      assert.equal(denied.body.error.code, 'insufficient_role');
      const kept = await request(t.app).get('/v1/admin/routes/guarded').set('x-api-key', TEST_KEYS.admin).expect(200);
      assert.equal(kept.body.config.policy.enabled, true);
      // A route without a policy stays deletable by an admin.
      await request(t.app).delete('/v1/admin/routes/chat-route').set('x-api-key', TEST_KEYS.admin).expect(200);
      await request(t.app).delete('/v1/admin/routes/guarded').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
      await request(t.app).get('/v1/admin/routes/guarded').set('x-api-key', TEST_KEYS.admin).expect(404);
    });
  });

  it('an unknown admin path is 404 in the error shape', async () => {
    const res = await request(t.app).get('/v1/admin/nothing-here').set('x-api-key', TEST_KEYS.admin).expect(404);
    assertErrorShape(res.body, 'not_found');
  });
});

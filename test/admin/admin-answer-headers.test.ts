// Every /v1/admin answer (successes, 401s, 400s, 404s, every admin sub-router) is never cached and never sniffed or framed.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { ENDPOINTS } from './admin-fixtures.js';
import { seedAll } from './admin-seed.js';

function assertAdminHeaders(res: request.Response, what: string): void {
  assert.equal(res.headers['cache-control'], 'no-store', `${what}: Cache-Control`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${what}: X-Content-Type-Options`);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'.*frame-ancestors 'none'/, `${what}: Content-Security-Policy`);
}

describe('admin answer headers', () => {
  let t: TestGateway;
  before(async () => {
    t = await createTestGateway();
    await seedAll(t.app);
  });
  after(() => t.close());

  it('every admin GET, and the answer carrying a new developer key, is no-store, nosniff and unframeable', async () => {
    for (const endpoint of ENDPOINTS.filter((e) => e.method === 'get')) {
      let req = request(t.app).get(endpoint.path).set('x-api-key', TEST_KEYS.viewer);
      if (endpoint.namespace) req = req.set('x-gateway-namespace', 'team-a');
      assertAdminHeaders(await req.expect(200), endpoint.path);
    }
    for (const path of ['/v1/admin/whoami', '/v1/admin/applications/shop/chronicles', '/v1/admin/mcp/registries', '/v1/admin/usage', '/v1/admin/budgets']) {
      assertAdminHeaders(await request(t.app).get(path).set('x-api-key', TEST_KEYS.viewer).expect(200), path);
    }
    const created = await request(t.app).post('/v1/admin/applications/shop/keys').set('x-api-key', TEST_KEYS.admin).send({}).expect(201);
    assert.match(created.body.key, /^gwk_/);
    assertAdminHeaders(created, 'the developer key create answer');
  });

  it('error answers carry the same headers: 401 before authentication, 400, 403 and 404', async () => {
    assertAdminHeaders(await request(t.app).get('/v1/admin/providers').expect(401), '401 without a key');
    assertAdminHeaders(await request(t.app).get('/v1/admin/providers').set('x-api-key', 'wrong-key-0123456789abcdef').expect(401), '401 wrong key');
    assertAdminHeaders(await request(t.app).get('/v1/admin/applications/shop/chronicles?limit=0').set('x-api-key', TEST_KEYS.viewer).expect(400), '400');
    assertAdminHeaders(await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.viewer).send({ name: 'x' }).expect(403), '403');
    assertAdminHeaders(await request(t.app).get('/v1/admin/nope').set('x-api-key', TEST_KEYS.viewer).expect(404), '404');
  });
});

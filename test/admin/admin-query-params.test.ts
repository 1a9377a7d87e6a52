// Admin list query parameters: a bad, repeated or contradictory one is a clear 400 naming it, whatever the data.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('admin list query parameters', () => {
  let t: TestGateway;
  before(async () => {
    t = await createTestGateway();
    await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: 'shop' }).expect(201);
  });
  after(() => t.close());

  const refused = async (path: string, param: string): Promise<void> => {
    const res = await request(t.app).get(path).set('x-api-key', TEST_KEYS.viewer);
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'invalid_value', path);
    assert.equal(res.body.error.param, param, path);
  };

  it('route filters are checked before any route is read: a bad enabled is 400 with no routes stored', async () => {
    await refused('/v1/admin/routes?enabled=maybe', 'enabled');
  });

  it('a repeated parameter is 400, never silently dropped (a repeated Chronicles filter would list everything)', async () => {
    await refused('/v1/admin/routes?type=chat&type=embeddings', 'type');
    await refused('/v1/admin/applications/shop/chronicles?route=a&route=b', 'route');
    await refused('/v1/admin/applications/shop/chronicles?model=a&model=b', 'model');
    await refused('/v1/admin/applications/shop/chronicles?limit=5&limit=6', 'limit');
    await refused('/v1/admin/applications/shop/chronicles?cursor=a&cursor=b', 'cursor');
    await refused('/v1/admin/usage?group_by=day&group_by=model', 'group_by');
  });

  it('Chronicles: limit is decimal digits, status an HTTP status, and from is not after to', async () => {
    await refused('/v1/admin/applications/shop/chronicles?limit=0x10', 'limit');
    await refused('/v1/admin/applications/shop/chronicles?limit=1e2', 'limit');
    await refused('/v1/admin/applications/shop/chronicles?status=', 'status');
    await refused('/v1/admin/applications/shop/chronicles?status=42', 'status');
    await refused('/v1/admin/applications/shop/chronicles?status=2e2', 'status');
    await refused('/v1/admin/applications/shop/chronicles?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from');
    const ok = await request(t.app).get('/v1/admin/applications/shop/chronicles?limit=10&status=200&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(ok.body, { data: [], next_cursor: null });
  });
});

// Admin list query parameters: a bad, repeated, unknown, bracketed or contradictory one is a clear 400 naming it, whatever the data.
import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('admin list query parameters', () => {
  let t: TestGateway;
  before(async () => {
    t = await createTestGateway();
    await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: 'shop' }).expect(201);
  });
  after(() => t.close());

  const refused = async (path: string, param: string, app: express.Express = t.app): Promise<void> => {
    const res = await request(app).get(path).set('x-api-key', TEST_KEYS.viewer);
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal(res.body.error.type, 'invalid_request_error', path);
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

  it('an unknown parameter is 400 naming it on every admin list that takes parameters, never silently ignored', async () => {
    await refused('/v1/admin/usage?application=shop', 'application');
    await refused('/v1/admin/usage?groupby=model', 'groupby');
    await refused('/v1/admin/usage?group_by=model&since=2026-01-01', 'since');
    await refused('/v1/admin/usage?__proto__=x', '__proto__');
    await refused('/v1/admin/routes?enabeld=true', 'enabeld');
    await refused('/v1/admin/applications/shop/chronicles?limit=5&state=200', 'state');
    const res = await request(t.app).get('/v1/admin/usage?application=shop').set('x-api-key', TEST_KEYS.viewer).expect(400);
    assert.match(res.body.error.message, /'application' is not known.*'group_by', 'from', 'to'/);
  });

  it('an endpoint that takes no parameters refuses any, on reads and writes alike, with nothing changed', async () => {
    for (const path of ['/v1/admin/applications?name=shop', '/v1/admin/applications/shop?fields=name', '/v1/admin/providers?type=openai', '/v1/admin/mcp/registries?limit=1', '/v1/admin/applications/shop/graph?from=2026-01-01', '/v1/admin/whoami?x=1', '/v1/admin/ROUTES/x?y=1']) {
      await refused(path, path.slice(path.indexOf('?') + 1).split('=')[0]!);
    }
    const res = await request(t.app).get('/v1/admin/applications?name=shop').set('x-api-key', TEST_KEYS.viewer).expect(400);
    assert.match(res.body.error.message, /'name' is not known here; this endpoint takes no query parameters/);
    const deleted = await request(t.app).delete('/v1/admin/applications/shop?force=true').set('x-api-key', TEST_KEYS.admin);
    assert.equal(deleted.status, 400, deleted.text);
    assert.equal(deleted.body.error.param, 'force');
    await request(t.app).get('/v1/admin/applications/shop').set('x-api-key', TEST_KEYS.viewer).expect(200);
    // A lone '?' carries no parameter; the lists that take parameters still take them, in any letter case.
    await request(t.app).get('/v1/admin/applications?').set('x-api-key', TEST_KEYS.viewer).expect(200);
    await request(t.app).get('/v1/admin/Routes?type=chat').set('x-api-key', TEST_KEYS.viewer).expect(200);
  });

  it('a bracketed parameter (group_by[], from[a]) is 400 naming it, encoded or not', async () => {
    await refused('/v1/admin/usage?group_by[]=model', 'group_by[]');
    await refused('/v1/admin/usage?group_by%5B%5D=model', 'group_by[]');
    await refused('/v1/admin/usage?from[a]=1', 'from[a]');
    await refused('/v1/admin/usage?from[$gt]=2026-01-01', 'from[$gt]');
    await refused('/v1/admin/routes?type[]=chat', 'type[]');
    await refused('/v1/admin/applications/shop/chronicles?status[0]=200', 'status[0]');
  });

  it('the checks hold whatever query parser the host application sets (extended, or none at all)', async () => {
    for (const parser of ['extended', false] as const) {
      const app = express();
      app.set('query parser', parser);
      app.use(t.gateway.router);
      await refused('/v1/admin/usage?from[a]=1', 'from[a]', app);
      await refused('/v1/admin/usage?group_by=day&group_by=model', 'group_by', app);
      await refused('/v1/admin/applications/shop/chronicles?route=a&route=b', 'route', app);
      await refused('/v1/admin/routes?enabled=maybe', 'enabled', app);
      const ok = await request(app).get('/v1/admin/usage?group_by=day&from=2026-01-01&to=2026-01-31').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.equal(ok.body.group_by, 'day');
    }
  });

  it('known parameters, each once, still answer 200', async () => {
    const usage = await request(t.app).get('/v1/admin/usage?group_by=model&from=2026-01-01&to=2026-01-31').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual([usage.body.group_by, usage.body.from, usage.body.to], ['model', '2026-01-01', '2026-01-31']);
    await request(t.app).get('/v1/admin/usage').set('x-api-key', TEST_KEYS.viewer).expect(200);
    const routes = await request(t.app).get('/v1/admin/routes?type=chat&enabled=true&provider=p&name=x').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(routes.body, []);
  });
});

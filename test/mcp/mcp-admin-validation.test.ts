// Bad input to the MCP registry admin endpoints: clear 4xx errors, roles, and nothing stored.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('MCP registry admin validation', () => {
  let t: TestGateway;
  beforeEach(async () => {
    t = await createTestGateway();
    await request(t.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.admin).send({ name: 'tools', url: 'http://127.0.0.1:9/mcp', authorization_token: 'token-0123456789abcdef' }).expect(201);
  });
  afterEach(() => t.close());

  const as = (key: string) => ({
    post: (path: string, body: unknown) => request(t.app).post(path).set('x-api-key', key).send(body as object),
    put: (path: string, body: unknown) => request(t.app).put(path).set('x-api-key', key).send(body as object),
    get: (path: string) => request(t.app).get(path).set('x-api-key', key),
  });

  it('needs an admin key, and a write role to change anything', async () => {
    await request(t.app).get('/v1/admin/mcp/registries').expect(401);
    await as('wrong-key-0123456789abcdef').get('/v1/admin/mcp/registries').expect(401);
    await as(TEST_KEYS.viewer).get('/v1/admin/mcp/registries').expect(200);
    assert.equal((await as(TEST_KEYS.viewer).post('/v1/admin/mcp/registries', { name: 'x', url: 'http://a/mcp' }).expect(403)).body.error.code, 'insufficient_role');
    await as(TEST_KEYS.viewer).put('/v1/admin/mcp/registries/tools/policies', {}).expect(403);
  });

  it('refuses bad registries, names the field, and stores nothing', async () => {
    const names = async () => (await as(TEST_KEYS.viewer).get('/v1/admin/mcp/registries').expect(200)).body.map((r: { name: string; url: string }) => `${r.name} ${r.url}`);
    const before = await names();
    assert.equal((await as(TEST_KEYS.admin).post('/v1/admin/mcp/registries', { url: 'http://a/mcp' }).expect(400)).body.error.param, 'name');
    assert.equal((await as(TEST_KEYS.admin).post('/v1/admin/mcp/registries', { name: 'x' }).expect(400)).body.error.param, 'url');
    assert.equal((await as(TEST_KEYS.admin).post('/v1/admin/mcp/registries', { name: 'x', url: 'ftp://a/mcp' }).expect(400)).body.error.param, 'url');
    assert.equal((await as(TEST_KEYS.admin).post('/v1/admin/mcp/registries', { name: 'x', url: 'http://a/mcp', authorization_token: 7 }).expect(400)).body.error.param, 'authorization_token');
    await as(TEST_KEYS.admin).post('/v1/admin/mcp/registries', { name: 'tools', url: 'http://a/mcp' }).expect(409);
    assert.deepEqual(await names(), before);
  });

  it('refuses bad policies and tool toggles', async () => {
    const mode = await as(TEST_KEYS.admin).put('/v1/admin/mcp/registries/tools/policies', { security_filters: { mode: 'block' } }).expect(400);
    assert.equal(mode.body.error.param, 'security_filters.mode');
    const family = await as(TEST_KEYS.admin).put('/v1/admin/mcp/registries/tools/policies', { nope: {} }).expect(400);
    assert.equal(family.body.error.param, 'nope');
    const toggle = await as(TEST_KEYS.admin).put('/v1/admin/mcp/registries/tools/tools/add', { enabled: 'yes' }).expect(400);
    assert.equal(toggle.body.error.param, 'enabled');
    // Only `enabled`: an unknown field is named, as in every other admin write, before the tool server is asked.
    const surprise = await as(TEST_KEYS.admin).put('/v1/admin/mcp/registries/tools/tools/add', { enabled: false, surprise: 1 }).expect(400);
    assert.equal(surprise.body.error.code, 'invalid_value');
    assert.equal(surprise.body.error.param, 'surprise');
    assert.equal((await as(TEST_KEYS.admin).put('/v1/admin/mcp/registries/tools/tools/add', {}).expect(400)).body.error.param, 'enabled');
    await as(TEST_KEYS.admin).get('/v1/admin/mcp/registries/ghost/tools').expect(404);
    const policies = (await as(TEST_KEYS.viewer).get('/v1/admin/mcp/registries/tools/policies').expect(200)).body;
    assert.equal(policies.security_filters.mode, 'inspect', 'the failed update stored nothing');
  });

  it('answers 502 quickly when the Tools tab cannot reach the tool server', async () => {
    const res = await as(TEST_KEYS.viewer).get('/v1/admin/mcp/registries/tools/tools').expect(502);
    assert.equal(res.body.error.code, 'mcp_upstream_unreachable');
    assert.ok(!res.text.includes('token-0123456789abcdef'));
  });
});

// Generated URLs (MCP registry request_url) come from the configured base URL or a trusted proxy, never from a client's Host header.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createGateway, isGatewayError } from '../../src/index.js';

describe('public base URL of admin answers', () => {
  let f: McpFixture;
  beforeEach(async () => {
    f = await createMcpFixture();
  });
  afterEach(() => f.close());

  const getRegistry = (headers: Record<string, string>) =>
    request(f.app).get('/v1/admin/mcp/registries/tools').set('x-api-key', TEST_KEYS.viewer).set(headers).expect(200);

  it('11.9: without baseUrl, a client Host header does not set request_url (the local address is used)', async () => {
    const res = await getRegistry({ host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' });
    assert.match(res.body.request_url, /^http:\/\/127\.0\.0\.1:\d+\/v1\/mcp\/tools$/);
    const created = await request(f.app)
      .post('/v1/admin/mcp/registries')
      .set({ 'x-api-key': TEST_KEYS.admin, host: 'evil.example.com' })
      .send({ name: 'more', url: f.mcp.url })
      .expect(201);
    assert.ok(!String(created.body.request_url).includes('evil'), created.body.request_url);
  });

  it('11.9: with Express trust proxy set, the proxy forwarded host and protocol are used', async () => {
    f.app.set('trust proxy', 'loopback');
    const res = await getRegistry({ host: 'internal:8080', 'x-forwarded-host': 'gateway.example.com', 'x-forwarded-proto': 'https' });
    assert.equal(res.body.request_url, 'https://gateway.example.com/v1/mcp/tools');
  });
});

describe('public base URL, configured', () => {
  it('baseUrl wins over every header', async () => {
    const f = await createMcpFixture({ baseUrl: 'https://gw.example.org/' });
    try {
      f.app.set('trust proxy', true);
      const res = await request(f.app).get('/v1/admin/mcp/registries/tools').set({ 'x-api-key': TEST_KEYS.viewer, host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com' }).expect(200);
      assert.equal(res.body.request_url, 'https://gw.example.org/v1/mcp/tools');
    } finally {
      await f.close();
    }
  });

  it('a baseUrl that is not an absolute http(s) URL is refused by createGateway; one with a path (a prefix) is taken', async () => {
    for (const bad of ['gateway.example.com', '/ai', 'ftp://gw.example.org', 'https://gw.example.org/?x=1', 'https://gw.example.org/#top']) {
      assert.throws(
        () => createGateway({ baseUrl: bad }),
        (error: unknown) => isGatewayError(error) && error.code === 'config_invalid' && /baseUrl must be an absolute http or https URL/.test(error.message),
        bad,
      );
    }
    const f = await createMcpFixture({ baseUrl: 'https://gw.example.org/ai' });
    try {
      const res = await request(f.app).get('/v1/admin/mcp/registries/tools').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.equal(res.body.request_url, 'https://gw.example.org/ai/v1/mcp/tools');
    } finally {
      await f.close();
    }
  });
});

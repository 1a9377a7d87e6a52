// A tool server listing tools named `.`, `..`, '' or a lone surrogate (names no storage key may be as they are) cannot stop an admin from registering it or switching its tools off.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { RAW_TOOLS, startRawToolServer, type RawToolServer } from './raw-tool-server.js';

// Lone surrogates: encodeURIComponent throws on them, and the tool's storage key must still be made.
const HOSTILE_NAMES = ['..', '.', '', 'a/b', '%2E%2E', '\ud800', 'a\udfff'];

describe('MCP tools with hostile names', () => {
  let t: TestGateway;
  let raw: RawToolServer;
  before(async () => {
    raw = await startRawToolServer([...RAW_TOOLS, ...HOSTILE_NAMES.map((name) => ({ name, description: `named ${JSON.stringify(name)}`, inputSchema: { type: 'object', properties: {} } }))]);
    t = await createTestGateway();
  });
  after(async () => {
    await t.close();
    await raw.close();
  });

  it('the registry is created (201, not a 400 after storing it), its tools listed, and its other tools switched off', async () => {
    const created = await request(t.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.admin).send({ name: 'hostile', url: raw.url });
    assert.equal(created.status, 201, created.text);
    const tools = await request(t.app).get('/v1/admin/mcp/registries/hostile/tools').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(tools.body.map((tool: { name: string }) => tool.name).sort(), [...RAW_TOOLS.map((tool) => tool.name), ...HOSTILE_NAMES].sort());
    assert.ok(tools.body.every((tool: { pinned_at: string | null }) => tool.pinned_at !== null), 'every tool is pinned at registration');
    const off = await request(t.app).put('/v1/admin/mcp/registries/hostile/tools/danger').set('x-api-key', TEST_KEYS.admin).send({ enabled: false });
    assert.equal(off.status, 200, off.text);
    const hostile = await request(t.app).put(`/v1/admin/mcp/registries/hostile/tools/${encodeURIComponent('%2E%2E')}`).set('x-api-key', TEST_KEYS.admin).send({ enabled: false });
    assert.equal(hostile.status, 200, hostile.text);
    const after = await request(t.app).get('/v1/admin/mcp/registries/hostile/tools').set('x-api-key', TEST_KEYS.viewer).expect(200);
    const enabled = Object.fromEntries(after.body.map((tool: { name: string; enabled: boolean }) => [tool.name, tool.enabled]));
    assert.equal(enabled.danger, false);
    assert.equal(enabled['%2E%2E'], false);
    assert.equal(enabled['..'], true, 'a tool named %2E%2E is not the tool named ..');
    assert.equal(enabled.probe, true);
  });

  it('a tool named .. is switched off by a client that sends the path as it is (a browser resolves it away)', async () => {
    const server = t.app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const body = JSON.stringify({ enabled: false });
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'PUT', path: '/v1/admin/mcp/registries/hostile/tools/..', headers: { 'x-api-key': TEST_KEYS.admin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject);
        req.end(body);
      });
      assert.equal(status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    const tools = await request(t.app).get('/v1/admin/mcp/registries/hostile/tools').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.equal(tools.body.find((tool: { name: string }) => tool.name === '..').enabled, false);
  });
});

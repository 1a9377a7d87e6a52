// A registry's tool server is trusted at its URL, not where it redirects: the gateway never follows it to another origin.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

const TOKEN = 'redirect-registry-token-0123456789';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('MCP registry: redirects from the tool server', () => {
  let t: TestGateway;
  let canary: Server;
  let redirector: Server;
  /** Every request that reached the other origin (an internal service the tool server points at). */
  const hits: Array<{ method?: string; authorization?: string }> = [];

  beforeEach(async () => {
    hits.length = 0;
    canary = createServer((req, res) => {
      hits.push({ method: req.method, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}');
    });
    const internal = `${await listen(canary)}/internal-admin`;
    redirector = createServer((_req, res) => void res.writeHead(307, { location: internal }).end());
    const url = `${await listen(redirector)}/mcp`;
    t = await createTestGateway();
    const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    assert.equal((await admin('/v1/admin/mcp/registries', { name: 'moved', url, authorization_token: TOKEN })).status, 201);
    await admin('/v1/admin/applications', { name: 'app' });
  });
  afterEach(async () => {
    await t.close();
    canary.close();
    redirector.close();
  });

  it('registration, the Tools tab, the proxy and a call check never reach the origin a 307 names, nor send it the token', async () => {
    const key = (await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({})).body.key as string;
    await request(t.app).get('/v1/admin/mcp/registries/moved/tools').set('x-api-key', TEST_KEYS.viewer);
    const rpc = (body: object) => request(t.app).post('/v1/mcp/moved').set('authorization', `Bearer ${key}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', ...body });
    const listed = await rpc({ id: 1, method: 'tools/list' });
    assert.equal(listed.status, 307);
    assert.equal(listed.headers.location, undefined, 'the Location is not relayed');
    const called = await rpc({ id: 2, method: 'tools/call', params: { name: 'anything', arguments: {} } });
    assert.equal(called.body.error?.code, -32602, called.text);
    assert.deepEqual(hits, []);
  });
});

// A gateway mounted under a path prefix (app.use('/ai', gateway.router)): generated request URLs carry the prefix and work.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import request from 'supertest';
import { createGateway, errorMiddleware, type Gateway } from '../../src/index.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

describe('a gateway mounted under /ai', () => {
  let gateway: Gateway;
  let server: Server;
  let base: string;
  let mcp: FakeMcpServer;
  let fake: FakeProvider;
  let developerKey: string;
  before(async () => {
    mcp = await startFakeMcpServer({ token: 'registry-token-0123456789' });
    fake = await startFakeProvider();
    gateway = createGateway({ adminKeys: [{ key: TEST_KEYS.superAdmin, role: 'super_admin', name: 'root' }] });
    await gateway.ready;
    const app = express();
    app.use('/ai', gateway.router);
    app.use(errorMiddleware());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const admin = (path: string, body: object) => request(base).post(`/ai/v1/admin${path}`).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(201);
    await admin('/mcp/registries', { name: 'tools', url: mcp.url, authorization_token: 'registry-token-0123456789' });
    await admin('/providers', { name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['m'] }, api_keys: [{ api_key: 'sk-provider-key-000001' }] });
    await admin('/applications', { name: 'app' });
    developerKey = (await admin('/applications/app/keys', {})).body.key as string;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await gateway.close();
    await mcp.close();
    await fake.close();
  });

  it('15.8: a registry request_url includes the mount prefix, and an MCP client reaches the tools through it', async () => {
    const registry = await request(base).get('/ai/v1/admin/mcp/registries/tools').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    assert.equal(registry.body.request_url, `${base}/ai/v1/mcp/tools`);
    const client = new Client({ name: 'prefix-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(registry.body.request_url), { requestInit: { headers: { authorization: `Bearer ${developerKey}` } } }));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === 'add'));
    } finally {
      await client.close();
    }
  });

  it('15.8: /v1/responses under the prefix accepts that request_url as one of its own registries', async () => {
    fake.script({ text: 'No tool needed.' });
    const res = await request(base)
      .post('/ai/v1/responses')
      .set('x-gateway-apikey', developerKey)
      .send({ model: 'm', input: 'Hi', tools: [{ type: 'mcp', server_label: 'tools', server_url: `${base}/ai/v1/mcp/tools`, require_approval: 'never' }] })
      .expect(200);
    const list = res.body.output.find((item: { type: string }) => item.type === 'mcp_list_tools');
    assert.equal(list.error, undefined);
    assert.ok(list.tools.some((tool: { name: string }) => tool.name === 'add'));
  });
});

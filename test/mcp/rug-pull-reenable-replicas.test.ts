// A tool an admin enables again after a rug pull is served by every replica, not only by the one the admin wrote through.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { eventually } from '../helpers/eventually.js';
import { POISONED_DESCRIPTION, startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('MCP rug pull across replicas: an admin enabling the tool again through one replica', function () {
  this.timeout(20_000);
  requirePostgres();
  let schema: string;
  let mcp: FakeMcpServer;
  const closers: Array<() => Promise<void>> = [];

  /** A replica on the shared schema, listening on loopback. */
  async function replica(): Promise<{ t: TestGateway; url: URL }> {
    const t = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3 }) });
    const server: Server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(async () => {
      server.closeAllConnections();
      server.close();
      await t.close();
    });
    return { t, url: new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1/mcp/tools`) };
  }

  async function connect(url: URL, developerKey: string): Promise<Client> {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${developerKey}` } } }));
    closers.push(() => client.close().catch(() => undefined));
    return client;
  }

  beforeEach(async () => {
    schema = testSchemaName();
    mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await mcp.close();
    await dropSchema(schema);
  });

  it('replica B, which saw the change, serves the tool once the admin enabled it through replica A', async () => {
    const a = await replica();
    const admin = (method: 'post' | 'put' | 'get', path: string) => request(a.t.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin);
    await admin('post', '/v1/admin/mcp/registries').send({ name: 'tools', url: mcp.url, authorization_token: REGISTRY_TOKEN }).expect(201);
    await admin('post', '/v1/admin/applications').send({ name: 'app' }).expect(201);
    const developerKey = (await admin('post', '/v1/admin/applications/app/keys').send({}).expect(201)).body.key as string;
    const b = await replica();
    const client = await connect(b.url, developerKey);

    mcp.setDescription('add', `${POISONED_DESCRIPTION}\nAlso adds.`);
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), /changed since it was approved/);

    // The admin reviews the new description and enables the tool through replica A, which pins it.
    const enabled = (await admin('put', '/v1/admin/mcp/registries/tools/tools/add').send({ enabled: true }).expect(200)).body;
    assert.equal(enabled.tool.enabled, true);
    const result = await eventually(() => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), 5000);
    assert.equal((result.content as Array<{ text: string }>)[0]?.text, '3');
    // B's Tools tab agrees.
    const tools = (await request(b.t.app).get('/v1/admin/mcp/registries/tools/tools').set('x-api-key', TEST_KEYS.superAdmin).expect(200)).body;
    const add = (tools.data ?? tools).find((tool: { name: string }) => tool.name === 'add');
    assert.equal(add.enabled, true);
    assert.equal(add.changed, false);

    // The new pin holds on B too: a further change is refused there again.
    mcp.setDescription('add', 'Adds two numbers, and more.');
    await client.listTools();
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), /changed since it was approved/);
  });
});

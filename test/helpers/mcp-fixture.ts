// Sets up a registry in front of a real MCP server, and an SDK client that connects through the gateway.
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import type { GatewayOptions } from '../../src/index.js';
import { startFakeMcpServer, type FakeMcpServer } from './fake-mcp-server.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from './test-gateway.js';

/** A gateway listening on loopback, a registry `tools` in front of a fake MCP server, and a developer key. */
export interface McpFixture extends TestGateway {
  mcp: FakeMcpServer;
  base: string;
  developerKey: string;
  requestUrl: string;
  /** Connects an SDK client to the registry through the gateway. */
  connect(headers?: Record<string, string>): Promise<Client>;
}

export const REGISTRY_TOKEN = 'registry-token-0123456789-abcdef';

export async function createMcpFixture(options: GatewayOptions & { poisoned?: boolean } = {}): Promise<McpFixture> {
  const mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN, poisoned: options.poisoned });
  const t = await createTestGateway(options);
  const server: Server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const admin = (path: string, body: unknown) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body as object);
  const created = await admin('/v1/admin/mcp/registries', { name: 'tools', url: mcp.url, description: 'Test tools', authorization_token: REGISTRY_TOKEN });
  if (created.status !== 201) throw new Error(`registry: ${created.status} ${created.text}`);
  await admin('/v1/admin/applications', { name: 'app' });
  const key = await admin('/v1/admin/applications/app/keys', {});
  const clients: Client[] = [];
  return {
    ...t,
    mcp,
    base,
    developerKey: key.body.key,
    requestUrl: `${base}/v1/mcp/tools`,
    async connect(headers = { authorization: `Bearer ${key.body.key}` }) {
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/tools`), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) await client.close().catch(() => undefined);
      server.closeAllConnections();
      server.close();
      await t.close();
      await mcp.close();
    },
  };
}

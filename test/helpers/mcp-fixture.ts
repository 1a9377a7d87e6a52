// Sets up a registry in front of a real MCP server, and an SDK client that connects through the gateway.
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import type { GatewayOptions } from '../../src/index.js';
import { startFakeMcpServer, type FakeMcpServer } from './fake-mcp-server.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from './test-gateway.js';

/** A gateway listening on loopback with one registry in front of a tool server, and application `app` with a developer key. */
export interface RegistryFixture extends TestGateway {
  base: string;
  developerKey: string;
  /** The registry's URL through the gateway. */
  requestUrl: string;
  /**
   * Connects an SDK client to the registry through the gateway: a new one, or `client` when given (made with the
   * capabilities and handlers a test needs). Every client is closed with the fixture.
   */
  connect(headers?: Record<string, string>, client?: Client): Promise<Client>;
}

/** A gateway listening on loopback, a registry `tools` in front of a fake MCP server, and a developer key. */
export interface McpFixture extends RegistryFixture {
  mcp: FakeMcpServer;
}

export const REGISTRY_TOKEN = 'registry-token-0123456789-abcdef';

/**
 * Starts a gateway on loopback, registers `registry` (which fails the test unless it is created), and creates
 * application `app` with a developer key. Closing the fixture closes the clients, the gateway and `toolServer`.
 */
export async function createRegistryFixture(
  registry: { name: string; url: string; description?: string; authorization_token?: string },
  toolServer: { close(): Promise<void> },
  options: GatewayOptions = {},
): Promise<RegistryFixture> {
  const t = await createTestGateway(options);
  const server: Server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const admin = (path: string, body: unknown) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body as object);
  const created = await admin('/v1/admin/mcp/registries', registry);
  if (created.status !== 201) throw new Error(`registry: ${created.status} ${created.text}`);
  await admin('/v1/admin/applications', { name: 'app' });
  const key = await admin('/v1/admin/applications/app/keys', {});
  const developerKey = key.body.key as string;
  const requestUrl = `${base}/v1/mcp/${registry.name}`;
  const clients: Client[] = [];
  return {
    ...t,
    base,
    developerKey,
    requestUrl,
    async connect(headers = { authorization: `Bearer ${developerKey}` }, client = new Client({ name: 'test-client', version: '1.0.0' })) {
      await client.connect(new StreamableHTTPClientTransport(new URL(requestUrl), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) await client.close().catch(() => undefined);
      server.closeAllConnections();
      server.close();
      await t.close();
      await toolServer.close();
    },
  };
}

/** {@link createRegistryFixture} with registry `tools` in front of the fake MCP server (its token required). */
export async function createMcpFixture(options: GatewayOptions & { poisoned?: boolean } = {}): Promise<McpFixture> {
  const mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN, poisoned: options.poisoned });
  const fixture = await createRegistryFixture({ name: 'tools', url: mcp.url, description: 'Test tools', authorization_token: REGISTRY_TOKEN }, mcp, options);
  return { ...fixture, mcp };
}

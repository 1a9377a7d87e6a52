// An official MCP SDK client connected to one registry through a gateway app served on loopback, for proxy tests.
import type { Server } from 'node:http';
import type { Express } from 'express';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A connected client and what closes it with the server it goes through. */
export interface McpProxyClient {
  client: Client;
  close(): Promise<void>;
}

/**
 * Serves `app` on a free loopback port and connects an MCP client to `/v1/mcp/<registry>` with `developerKey` as
 * its Bearer. `close` ends the client and the server (not the gateway).
 * @example
 * const { client, close } = await connectMcpProxyClient(t.app, 'tools', developerKey);
 */
export async function connectMcpProxyClient(app: Express, registry: string, developerKey: string): Promise<McpProxyClient> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1/mcp/${registry}`);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${developerKey}` } } }));
  return {
    client,
    async close() {
      await client.close().catch(() => undefined);
      server.closeAllConnections();
      server.close();
    },
  };
}

// Serves official-SDK MCP servers over Streamable HTTP on loopback, one server per session, for tool servers written by tests.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Response } from 'express';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A running session server. */
export interface SdkSessionServer {
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** Options of {@link serveSdkSessions}. */
export interface SdkSessionOptions {
  /** An event store per session, so a client may resume a stream with `Last-Event-ID`. */
  eventStore?: () => EventStore;
  /** Runs on each GET stream's answer before the transport takes it. */
  onGetStream?: (res: Response) => void;
}

/**
 * Serves `POST /mcp` (a new session, with a new server from `build`, when the request names none) and `GET /mcp`
 * (the session's server stream; 404 for an unknown session).
 * @example
 * const { url, close } = await serveSdkSessions(() => new McpServer({ name: 'tools', version: '1.0.0' }));
 */
export async function serveSdkSessions(build: () => McpServer, options: SdkSessionOptions = {}): Promise<SdkSessionServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), eventStore: options.eventStore?.(), onsessioninitialized: (id) => void transports.set(id, transport!) });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', async (req, res) => {
    const transport = transports.get(String(req.headers['mcp-session-id']));
    if (!transport) return void res.status(404).json({ error: 'unknown session' });
    options.onGetStream?.(res);
    await transport.handleRequest(req, res);
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
    async close() {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

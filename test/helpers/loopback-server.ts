// Serves an Express app on a free loopback port, for tests that use an official client over real HTTP.
import type { Server } from 'node:http';
import type { Express } from 'express';
import { createExpressServer } from '../../src/http/express-server.js';

/** A listening server and its base URL (`http://127.0.0.1:<port>`). */
export interface LoopbackServer {
  server: Server;
  port: number;
  base: string;
  close(): void;
}

/**
 * Listens on port 0 of 127.0.0.1, with the server the example server uses ({@link createExpressServer}).
 * @example
 * const { base, close } = await listenOnLoopback(app);
 * const client = new OpenAI({ apiKey, baseURL: `${base}/v1` });
 */
export async function listenOnLoopback(app: Express): Promise<LoopbackServer> {
  const server = createExpressServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, port, base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

// Serves an Express app on a free loopback port, for tests that use an official client over real HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** A plain `node:http` server on a loopback port: its origin, and a close that drops open connections first. */
export interface RawLoopbackServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Listens with a plain `node:http` server (a fake upstream or tool server that writes raw bytes) on port 0 of
 * 127.0.0.1. `close` ends kept-alive connections too, so a test's `after` never waits on them.
 * @example
 * const upstream = await listenRawOnLoopback(createServer((req, res) => res.end('{}')));
 * // ... api_base: `${upstream.url}/v1` ...
 * await upstream.close();
 */
export async function listenRawOnLoopback(server: Server): Promise<RawLoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How a scripted upstream answers one request: its response, its JSON body and the request itself. */
export type JsonUpstreamAnswer = (res: ServerResponse, body: Record<string, unknown>, req: IncomingMessage) => void;

/**
 * A fake upstream on a loopback port that reads each request's body as JSON and hands it to `answer` with the
 * request and response: for tests that check what a provider received and script what it sends back.
 * @example
 * const upstream = await listenJsonUpstream((res, body) => { sent = body; res.end('{}'); });
 */
export function listenJsonUpstream(answer: JsonUpstreamAnswer): Promise<RawLoopbackServer> {
  return listenRawOnLoopback(createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    answer(res, JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>, req);
  }));
}

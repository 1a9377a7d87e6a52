// GET (the server's event stream) and DELETE (end of session) at /v1/mcp/:name, relayed with an allow-list of headers (session ids rewritten), checked and scrubbed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Options } from 'http-proxy-middleware';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import { hasBody } from '../http/json-body.js';
import { networkFailureOf } from '../http/network-failure.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { FORWARDED_HEADERS, returnedHeaders } from './mcp-headers.js';
import { forEachSseEvent, formatSseEvent, readBoundedBody, UpstreamBodyError } from './upstream-body.js';

/** What the pass-through needs to know of one request. */
export interface PassthroughTarget {
  registry: string;
  url: string;
  token: string | undefined;
  /** Credentials scrubbed from everything relayed: the registry token and the caller's key. */
  secrets: string[];
  /** The tool server's session id behind the client's verified `Mcp-Session-Id`, sent upstream in its place. */
  session?: string;
  /** The id the client sees for a tool-server session id (throws a gateway error when it cannot be bound). */
  bindSession(upstream: string): string;
  /** Checks the data of one event of the server stream (replayed answers are checked like any): undefined withholds the event; throws to end the stream. */
  checkEvent(data: string): Promise<string | undefined>;
}

/** Request headers the proxy's HTTP client itself manages; every other header not in the allow-list is dropped. */
const TRANSPORT_HEADERS = new Set(['host', 'connection']);

async function write(res: ServerResponse, text: string): Promise<void> {
  if (!res.write(text) && !res.destroyed) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
}

function answerError(res: ServerResponse, failure: GatewayError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(failure.statusCode, { 'content-type': 'application/json' });
  res.end(JSON.stringify(failure.toJSON()));
}

/**
 * Relays the tool server's answer: a stream event by event with its headers sent at once, anything else whole and
 * bounded. A GET's 2xx answer is a stream whatever its content-type: MCP clients (the official SDK's included) read it
 * as one without looking at the type, so a body labelled `application/json` or `text/plain` must meet the same checks.
 */
async function relay(proxyRes: IncomingMessage, res: ServerResponse, target: PassthroughTarget, limits: { maxBytes: number; timeoutMs: number }, method: string): Promise<void> {
  let headers: Record<string, string>;
  try {
    headers = returnedHeaders(proxyRes.headers, target.bindSession, target.secrets);
  } catch (error) {
    proxyRes.destroy();
    answerError(res, error as GatewayError);
    return;
  }
  const status = proxyRes.statusCode ?? 502;
  // A client that leaves ends the tool server's answer too (the server stream would otherwise stay open upstream).
  res.once('close', () => proxyRes.destroy());
  const scrub = (text: string): string => scrubSecrets(text, target.secrets);
  if (status < 300 && (method === 'GET' || String(proxyRes.headers['content-type'] ?? '').includes('text/event-stream'))) {
    res.writeHead(status, headers);
    res.flushHeaders(); // a client opening the server stream must not wait for the first event
    try {
      // The server stream may stay silent for long: no idle timeout, but every event is bounded.
      await forEachSseEvent(proxyRes, { maxEventBytes: limits.maxBytes }, async (event) => {
        const data = await target.checkEvent(event.data);
        if (data !== undefined) await write(res, formatSseEvent(event, scrub(data)));
      });
    } catch {
      // the tool server or the client went away: end the stream
    }
    res.end();
    return;
  }
  let body: Buffer;
  try {
    body = await readBoundedBody(proxyRes, proxyRes.headers, limits);
  } catch (error) {
    if (error instanceof UpstreamBodyError) {
      answerError(res, error.kind === 'timeout' ? Errors.mcpUpstreamTimeout([target.registry, error.message]) : Errors.mcpResponseTooLarge([target.registry, limits.maxBytes]));
    } else answerError(res, Errors.mcpUpstreamUnreachable([target.registry, 'the answer broke off']));
    return;
  }
  res.writeHead(status, headers);
  res.end(scrub(body.toString('utf8')));
}

/**
 * Creates the GET/DELETE pass-through. Only the allow-listed client headers reach the tool server (with the
 * registry's token as Authorization), only the allow-listed tool-server headers come back, every event of a stream
 * goes through `checkEvent`, and bodies are scrubbed.
 * @example
 * router.get('/v1/mcp/:name', resolveTarget, mcpPassthrough(targetOf, { maxBytes: 10 << 20, timeoutMs: 30_000 }));
 */
export function mcpPassthrough(targetOf: (req: Request) => PassthroughTarget, limits: { maxBytes: number; timeoutMs: number }): RequestHandler {
  // http-proxy-middleware (about 11 MB of RSS) is loaded with the first pass-through, not at start.
  let proxy: Promise<RequestHandler> | undefined;
  return function mcpPassthroughHandler(req, res, next) {
    // GET and DELETE carry no body in MCP. One sent anyway would be piped upstream with its length header dropped,
    // unframed, where a tool server could read its bytes as a request of their own.
    if (hasBody(req.headers)) {
      next(Errors.validation([`A ${req.method} to the MCP proxy may not carry a body.`]));
      return;
    }
    proxy ??= import('http-proxy-middleware').then(({ createProxyMiddleware }) => createProxyMiddleware<Request, Response>(proxyOptions(targetOf, limits)) as RequestHandler);
    proxy.then((handler) => handler(req, res, next), next);
  };
}

function proxyOptions(targetOf: (req: Request) => PassthroughTarget, limits: { maxBytes: number; timeoutMs: number }): Options<Request, Response> {
  const allowed = new Set<string>([...FORWARDED_HEADERS, ...TRANSPORT_HEADERS]);
  return {
    target: 'http://127.0.0.1',
    changeOrigin: true,
    selfHandleResponse: true,
    router: (req) => new URL(targetOf(req).url).origin,
    pathRewrite: (_path, req) => {
      const url = new URL(targetOf(req).url);
      return `${url.pathname}${url.search}`;
    },
    on: {
      proxyReq: (proxyReq, req, res) => {
        // A client that leaves ends the request to the tool server, also before its answer comes (a server stream
        // would otherwise be opened for nobody and stay open), and also when it left before this point: its 'close'
        // has come already then.
        const abandon = (): void => {
          if (!res.writableFinished) proxyReq.destroy();
        };
        if (res.closed) abandon();
        else res.once('close', abandon);
        for (const name of proxyReq.getHeaderNames()) if (!allowed.has(name)) proxyReq.removeHeader(name);
        const { token, session } = targetOf(req);
        if (token) proxyReq.setHeader('authorization', `Bearer ${token}`);
        proxyReq.removeHeader('mcp-session-id');
        if (session !== undefined) proxyReq.setHeader('mcp-session-id', session);
      },
      proxyRes: (proxyRes, req, res) => {
        relay(proxyRes, res, targetOf(req), limits, req.method ?? '').catch(() => res.destroy());
      },
      error: (error, req, res) => {
        const target = targetOf(req as Request);
        // The kind of failure, not its message: that names the tool server's host and port.
        const failure = Errors.mcpUpstreamUnreachable([target?.registry ?? '', networkFailureOf(error)]);
        if ('writeHead' in res) answerError(res, failure);
        else res.destroy();
      },
    },
  };
}

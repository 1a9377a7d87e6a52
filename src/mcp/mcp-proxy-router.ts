// The MCP registry proxy at /v1/mcp/:name: Streamable HTTP to the tool server, with the registry's token, tool states and policies.
import { once } from 'node:events';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { identifyCaller, presentedKey } from '../auth/caller-identity.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { jsonBody } from '../http/json-body.js';
import { createSseParser } from '../http/sse-parser.js';
import { AttemptTimer } from '../traffic/attempt-timer.js';
import type { UpstreamClient } from '../traffic/upstream-client.js';
import { JsonRpcInterceptor, type JsonRpcMessage } from './jsonrpc-interceptor.js';
import type { RegistryRecord } from './registry-records.js';
import type { RegistryService } from './registry-service.js';

/** What the proxy needs. */
export interface McpProxyDeps {
  service: RegistryService;
  developerKeys: DeveloperKeyStore;
  engine: GuardrailEngine;
  recorder: ChroniclesRecorder;
  client: UpstreamClient;
  /** How long the tool server may take to answer headers, in ms. Default 30000. */
  headersTimeoutMs?: number;
  logger?: GatewayLogger;
}

/** Client headers passed to the tool server; everything else (Authorization above all) stays here. */
const FORWARDED = ['accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;
/** Tool server headers passed back to the client. */
const RETURNED = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'] as const;

interface Target {
  registry: Readonly<RegistryRecord>;
  token: string | undefined;
  application: string;
}
const TARGET = Symbol('gateway.mcp-target');
const targetOf = (req: Request): Target => (req as Request & { [TARGET]: Target })[TARGET];

function upstreamHeaders(req: Request, token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers.accept ??= 'application/json, text/event-stream';
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

async function write(res: Response, text: string): Promise<void> {
  if (!res.write(text) && !res.destroyed) await once(res, 'drain');
}

/** Creates the registry proxy router. */
export function mcpProxyRouter(deps: McpProxyDeps): Router {
  const router = Router();

  const resolveTarget: RequestHandler = async function resolveRegistryTarget(req, _res, next) {
    const caller = await identifyCaller(req, deps.developerKeys, { bearer: true });
    if (caller.kind !== 'application') throw Errors.invalidApiKey(['Authorization']);
    const registry = await deps.service.registry(String(req.params.name));
    (req as Request & { [TARGET]: Target })[TARGET] = { registry, token: deps.service.token(registry), application: caller.application };
    next();
  };

  const post: RequestHandler = async function proxyMcpPost(req, res) {
    const { registry, token, application } = targetOf(req);
    if (req.body === undefined) throw Errors.bodyNotObject();
    const batch = Array.isArray(req.body);
    const messages = (batch ? req.body : [req.body]) as JsonRpcMessage[];
    const secrets = [presentedKey(req, true), token].filter((value): value is string => typeof value === 'string');
    const interceptor = new JsonRpcInterceptor(deps, registry.name, application, req.originalUrl.split('?')[0] ?? req.path, secrets);
    const refusals = await interceptor.screen(messages);
    if (refusals.length > 0) {
      res.status(200).json(batch ? refusals : refusals[0]);
      return;
    }
    const timer = new AttemptTimer(deps.headersTimeoutMs ?? 30_000, new AbortController().signal);
    res.on('close', () => {
      if (!res.writableFinished) timer.controller.abort();
    });
    let upstream;
    try {
      upstream = await deps.client.send({ url: registry.url, method: 'POST', headers: upstreamHeaders(req, token), body: JSON.stringify(req.body) }, timer.signal);
    } catch (error) {
      const reason = timer.timedOut ? 'it did not answer in time' : (error as Error).message;
      interceptor.abandon(reason, 502);
      throw Errors.mcpUpstreamUnreachable([registry.name, reason]);
    } finally {
      timer.clear();
    }
    for (const name of RETURNED) {
      const value = upstream.headers[name];
      if (typeof value === 'string') res.setHeader(name, value);
    }
    const type = String(upstream.headers['content-type'] ?? '');
    if (upstream.status >= 400 || upstream.status === 202 || (!type.includes('json') && !type.includes('event-stream'))) {
      if (upstream.status >= 400) interceptor.abandon(`the tool server answered ${upstream.status}`, upstream.status);
      res.status(upstream.status).end(Buffer.from(await upstream.body.arrayBuffer()));
      return;
    }
    if (type.includes('json')) {
      const answer = JSON.parse(Buffer.from(await upstream.body.arrayBuffer()).toString('utf8')) as JsonRpcMessage | JsonRpcMessage[];
      const transformed = Array.isArray(answer) ? await Promise.all(answer.map((m) => interceptor.transform(m))) : await interceptor.transform(answer);
      res.status(upstream.status).json(transformed);
      return;
    }
    res.status(upstream.status);
    res.flushHeaders();
    const events: Array<{ id?: string; event?: string; data: string }> = [];
    const parser = createSseParser((event) => events.push(event));
    try {
      for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
        parser.push(chunk);
        for (const event of events.splice(0)) {
          let data = event.data;
          try {
            data = JSON.stringify(await interceptor.transform(JSON.parse(event.data) as JsonRpcMessage));
          } catch {
            // not JSON-RPC: passed through as it came
          }
          await write(res, `${event.event ? `event: ${event.event}\n` : ''}${event.id ? `id: ${event.id}\n` : ''}data: ${data}\n\n`);
        }
      }
      parser.end();
    } catch {
      interceptor.abandon('the tool server stream broke off', 502);
    }
    res.end();
  };

  const passthrough = createProxyMiddleware<Request, Response>({
    target: 'http://127.0.0.1',
    changeOrigin: true,
    router: (req) => new URL(targetOf(req).registry.url).origin,
    pathRewrite: (_path, req) => {
      const url = new URL(targetOf(req).registry.url);
      return `${url.pathname}${url.search}`;
    },
    on: {
      proxyReq: (proxyReq, req) => {
        proxyReq.removeHeader('x-gateway-apikey');
        proxyReq.removeHeader('cookie');
        const { token } = targetOf(req);
        if (token) proxyReq.setHeader('authorization', `Bearer ${token}`);
        else proxyReq.removeHeader('authorization');
      },
      error: (error, req, res) => {
        const failure = Errors.mcpUpstreamUnreachable([targetOf(req as Request)?.registry.name ?? '', error.message]);
        if ('writeHead' in res && !res.headersSent) {
          res.writeHead(failure.statusCode, { 'content-type': 'application/json' });
          res.end(JSON.stringify(failure.toJSON()));
        } else res.destroy();
      },
    },
  });

  router.post('/v1/mcp/:name', resolveTarget, jsonBody({ limitBytes: 4 * 1024 * 1024 }), post);
  router.get('/v1/mcp/:name', resolveTarget, passthrough);
  router.delete('/v1/mcp/:name', resolveTarget, passthrough);
  router.use('/v1/mcp', errorMiddleware(deps.logger));
  return router;
}

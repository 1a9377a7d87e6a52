// The MCP registry proxy at /v1/mcp/:name: Streamable HTTP to the tool server, with the registry's token, bound sessions, tool states and policies.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { requireEnabledApplication } from '../auth/application-gate.js';
import { identifyCaller, presentedKey } from '../auth/caller-identity.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors, isGatewayError } from '../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { jsonBody } from '../http/json-body.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../http/json-depth.js';
import { formatSse } from '../http/sse-parser.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { urlCredentials } from '../secrets/url-credentials.js';
import { AbortFlag, AttemptTimer } from '../traffic/attempt-timer.js';
import type { UpstreamClient, UpstreamResponse } from '../traffic/upstream-client.js';
import { checkedErrorBody } from './error-body-check.js';
import { JsonRpcInterceptor } from './jsonrpc-interceptor.js';
import type { JsonRpcMessage, UpstreamReply } from './jsonrpc-messages.js';
import { FORWARDED_HEADERS, returnedHeaders } from './mcp-headers.js';
import { mcpPassthrough } from './mcp-passthrough.js';
import type { RegistryRecord } from './registry-records.js';
import type { RegistryService } from './registry-service.js';
import type { McpSessionIds } from './session-ids.js';
import type { ToolObserver } from '../observability/observer-types.js';
import type { Storage } from '../storage/storage-facade.js';
import { requestTraceOf } from '../observability/gateway-tracing.js';
import { keepWithRequest, keptWithRequest } from '../observability/request-record.js';
import { forEachSseEvent, resolveLimits, formatSseEvent, readBoundedBody, UpstreamBodyError, type McpProxyLimits } from './upstream-body.js';
import { networkFailureOf } from '../http/network-failure.js';
import type { RequestsInFlight } from '../chronicles/requests-in-flight.js';

/** What the proxy needs. */
export interface McpProxyDeps {
  service: RegistryService;
  developerKeys: DeveloperKeyStore;
  /** Where the caller's application is looked up (a disabled one is refused, 403). */
  storage: Storage;
  engine: GuardrailEngine;
  recorder: ChroniclesRecorder;
  client: UpstreamClient;
  /** Limits on tool-server answers: body timeout and size cap. */
  limits?: McpProxyLimits;
  /** How long the tool server may take to answer headers, in ms. Default 30000. */
  headersTimeoutMs?: number;
  /** Deepest nesting of a POST's JSON body (`createGateway`'s `maxJsonDepth`); deeper is 400 `json_too_deep`. Default 64. */
  maxJsonDepth?: number;
  logger?: GatewayLogger;
  /** Metrics and spans of tool calls, and the trace context sent to tool servers; absent when both are off. */
  observer?: ToolObserver;
  /** Binds tool-server session ids to the application and registry they were opened for. */
  sessionIds: McpSessionIds;
  /** Counts each POST until its calls are recorded, so `gateway.close()` waits for them before its last flush. */
  inFlight?: RequestsInFlight;
}

interface Target {
  registry: Readonly<RegistryRecord>;
  token: string | undefined;
  application: string;
  /** The registry token and the caller's key: scrubbed from everything relayed, recorded or logged. */
  secrets: string[];
  /** The tool server's session id behind the client's verified `Mcp-Session-Id`, sent upstream in its place. */
  session?: string;
  /** The id the client sees for a tool-server session id. */
  bindSession(upstream: string): string;
  /** The interceptor of a GET or DELETE, made with its first event. */
  stream?: JsonRpcInterceptor;
}
const TARGET = Symbol('gateway.mcp-target');
const targetOf = (req: Request): Target => keptWithRequest<Target>(req, 'mcp', TARGET) as Target;

function upstreamHeaders(req: Request, target: Target, observer: ToolObserver | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  delete headers['mcp-session-id'];
  if (target.session !== undefined) headers['mcp-session-id'] = target.session;
  headers.accept ??= 'application/json, text/event-stream';
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  observer?.injectTraceContext(headers, requestTraceOf(req)?.context);
  return headers;
}

async function write(res: Response, text: string): Promise<void> {
  if (!res.write(text) && !res.destroyed) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
}

/** Creates the registry proxy router. */
export function mcpProxyRouter(deps: McpProxyDeps): Router {
  const router = Router();
  const limits = resolveLimits(deps.limits);

  const resolveTarget: RequestHandler = async function resolveRegistryTarget(req, _res, next) {
    const caller = await identifyCaller(req, deps.developerKeys, { bearer: true });
    if (caller.kind !== 'application') throw Errors.invalidApiKey(['Authorization']);
    await requireEnabledApplication(deps.storage, caller.application);
    const registry = await deps.service.registry(String(req.params.name));
    const token = deps.service.token(registry);
    // The credentials inside the registry's URL are secrets too (its answers and errors may quote the URL).
    const secrets = [presentedKey(req, true), token, ...urlCredentials(registry.url)].filter((value): value is string => typeof value === 'string');
    // A session id is the tool server's own with an HMAC of the caller's application and this registry: one of
    // another application or registry (a leaked id) is an unknown session (404) and never reaches the tool server.
    const presented = req.headers['mcp-session-id'];
    const session = typeof presented === 'string' ? deps.sessionIds.unbind(caller.application, registry.name, presented) : undefined;
    const bindSession = (upstream: string): string => (upstream === session ? (presented as string) : deps.sessionIds.bind(caller.application, registry.name, upstream));
    keepWithRequest(req, 'mcp', TARGET, { registry, token, application: caller.application, secrets, session, bindSession } satisfies Target);
    next();
  };

  /** Reads the tool server's whole answer within the limits; a failure is recorded and thrown as a gateway error. */
  async function readAnswer(upstream: UpstreamResponse, target: Target, interceptor: JsonRpcInterceptor): Promise<string> {
    try {
      return (await readBoundedBody(upstream.body, upstream.headers, limits)).toString('utf8');
    } catch (error) {
      const failure =
        error instanceof UpstreamBodyError
          ? error.kind === 'timeout'
            ? Errors.mcpUpstreamTimeout([target.registry.name, error.message])
            : Errors.mcpResponseTooLarge([target.registry.name, limits.maxBytes])
          : Errors.mcpUpstreamUnreachable([target.registry.name, 'the answer broke off']);
      interceptor.abandon(failure.message, failure.statusCode);
      throw failure;
    }
  }

  /** Parses a JSON-RPC text from the tool server: too deep or not JSON is an invalid answer. */
  function parseAnswer(text: string, registry: string): JsonRpcMessage | JsonRpcMessage[] {
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw Errors.mcpUpstreamInvalidResponse([registry, `it nests deeper than ${MAX_JSON_DEPTH} levels`]);
    try {
      return JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
    } catch {
      throw Errors.mcpUpstreamInvalidResponse([registry, 'it is not valid JSON']);
    }
  }

  /** A message (or batch) transformed by the interceptor, without what it withheld; undefined when nothing is left. */
  async function transformAll(message: JsonRpcMessage | JsonRpcMessage[], interceptor: JsonRpcInterceptor): Promise<JsonRpcMessage | JsonRpcMessage[] | undefined> {
    if (!Array.isArray(message)) return interceptor.transform(message);
    const kept = (await Promise.all(message.map((m) => interceptor.transform(m)))).filter((m): m is JsonRpcMessage => m !== undefined);
    return kept.length > 0 ? kept : undefined;
  }

  /** An event's data with each JSON-RPC message in it transformed by the interceptor; data that is not JSON as it is; undefined when withheld. */
  async function checkedEventData(data: string, registry: string, interceptor: JsonRpcInterceptor): Promise<string | undefined> {
    if (!/^\s*[[{]/.test(data)) return data;
    const transformed = await transformAll(parseAnswer(data, registry), interceptor);
    return transformed === undefined ? undefined : JSON.stringify(transformed);
  }

  /**
   * Posts a message to the tool server for the client (the error answering a request the policies withheld), in the
   * client's session and protocol version. A failure is dropped: the tool server's own request timeout then applies.
   */
  function replyUpstream(req: Request, target: Target): UpstreamReply {
    return async function replyToToolServer(message) {
      const headers = upstreamHeaders(req, target, deps.observer);
      headers.accept = 'application/json, text/event-stream';
      delete headers['last-event-id'];
      try {
        const answer = await deps.client.send({ url: target.registry.url, method: 'POST', headers, body: JSON.stringify(message) }, AbortSignal.timeout(deps.headersTimeoutMs ?? 30_000));
        await answer.body.dump();
      } catch {
        // the tool server is gone or slow: its request times out on its side
      }
    };
  }

  const post: RequestHandler = async function proxyMcpPost(req, res) {
    const target = targetOf(req);
    const { registry, application, secrets } = target;
    if (req.body === undefined) throw Errors.bodyNotObject();
    const batch = Array.isArray(req.body);
    const messages = (batch ? req.body : [req.body]) as JsonRpcMessage[];
    const scrub = (text: string): string => scrubSecrets(text, secrets);
    const interceptor = new JsonRpcInterceptor(deps, registry.name, application, req.originalUrl.split('?')[0] ?? req.path, secrets);
    interceptor.traceParent = requestTraceOf(req)?.context;
    interceptor.replyUpstream = replyUpstream(req, target);
    const refusals = await interceptor.screen(messages);
    if (refusals.length > 0) {
      res.status(200).json(batch ? refusals : refusals[0]);
      return;
    }
    const clientGone = new AbortFlag();
    const timer = new AttemptTimer(deps.headersTimeoutMs ?? 30_000, clientGone);
    // A client that left while its messages were screened has had its 'close' already: it never comes again.
    if (res.closed) clientGone.abort();
    else {
      res.on('close', () => {
        if (!res.writableFinished) clientGone.abort();
      });
    }
    let upstream: UpstreamResponse;
    try {
      upstream = await deps.client.send({ url: registry.url, method: 'POST', headers: upstreamHeaders(req, target, deps.observer), body: JSON.stringify(req.body) }, timer.signal);
    } catch (error) {
      // A client that left before the tool server answered: its own doing, no tool server failure (and no error line).
      if (clientGone.aborted && !timer.timedOut) {
        interceptor.abandon('the client left before the answer', 499);
        throw Errors.clientDisconnected();
      }
      // The exchange log (admins) keeps the message; the caller reads the kind of failure, not the server's address.
      const reason = timer.timedOut ? 'it did not answer in time' : scrub((error as Error).message);
      interceptor.abandon(reason, 502);
      throw Errors.mcpUpstreamUnreachable([registry.name, timer.timedOut ? reason : networkFailureOf(error)]);
    } finally {
      timer.clear();
    }
    let headers: Record<string, string>;
    try {
      headers = returnedHeaders(upstream.headers, target.bindSession, target.secrets);
    } catch (error) {
      upstream.body.destroy();
      interceptor.abandon((error as Error).message, 502);
      throw error;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const type = String(upstream.headers['content-type'] ?? '');
    if (upstream.status >= 400 || upstream.status === 202 || (!type.includes('json') && !type.includes('event-stream'))) {
      const text = await readAnswer(upstream, target, interceptor);
      if (upstream.status < 400) {
        res.status(upstream.status).end(scrub(text));
        return;
      }
      interceptor.abandon(`the tool server answered ${upstream.status}`, upstream.status);
      // MCP clients read an error body into the error the call fails with: the registry policies read it first.
      const checked = await checkedErrorBody(deps.service, deps.engine, registry.name, text);
      if (checked.blocked) res.type('application/json');
      res.status(upstream.status).end(scrub(checked.text));
      return;
    }
    if (type.includes('json')) {
      let answer: JsonRpcMessage | JsonRpcMessage[];
      try {
        answer = parseAnswer(await readAnswer(upstream, target, interceptor), registry.name);
      } catch (error) {
        interceptor.abandon((error as Error).message, 502);
        throw error;
      }
      const transformed = await transformAll(answer, interceptor);
      if (transformed === undefined) {
        // Only a withheld request came back: each request of the POST gets its JSON-RPC error.
        const answers = interceptor.abandon('the tool server answered with a request the registry policies withheld', 502);
        if (answers.length === 0) res.status(202).end();
        else res.status(200).json(batch ? answers : answers[0]);
        return;
      }
      res.status(upstream.status).type('application/json').send(scrub(JSON.stringify(transformed)));
      return;
    }
    res.status(upstream.status);
    res.flushHeaders();
    let resumable = false;
    try {
      await forEachSseEvent(upstream.body, { maxEventBytes: limits.maxBytes, idleTimeoutMs: limits.timeoutMs }, async (event) => {
        resumable ||= event.id !== undefined;
        const data = await checkedEventData(event.data, registry.name, interceptor);
        if (data !== undefined) await write(res, formatSseEvent(event, scrub(data)));
      });
      // A stream that ends before answering every request, with no event ids to resume from: each request gets its
      // JSON-RPC error, and is recorded. (With ids, the client may resume the stream with Last-Event-ID.)
      if (!resumable) for (const answer of interceptor.abandon('the tool server ended the stream without answering', 502)) await write(res, formatSse(scrub(JSON.stringify(answer)), 'message'));
    } catch (error) {
      if (res.destroyed) interceptor.abandon('the client left before the answer', 499);
      else {
        const reason =
          error instanceof UpstreamBodyError
            ? error.kind === 'timeout'
              ? Errors.mcpUpstreamTimeout([registry.name, error.message]).message
              : Errors.mcpResponseTooLarge([registry.name, limits.maxBytes]).message
            : isGatewayError(error)
              ? error.message
              : Errors.mcpUpstreamUnreachable([registry.name, 'the event stream broke off']).message;
        // Every request still waiting gets a JSON-RPC error on the stream, so the client is not left hanging.
        for (const answer of interceptor.abandon(reason, 502)) await write(res, formatSse(scrub(JSON.stringify(answer)), 'message'));
      }
    }
    res.end();
  };

  // A POST's calls are recorded by the time its handler settles: a closing gateway waits for it.
  const counted: RequestHandler = async function proxyMcpPostCounted(req, res, next) {
    deps.inFlight?.enter();
    try {
      await post(req, res, next);
    } finally {
      deps.inFlight?.leave();
    }
  };
  router.post('/v1/mcp/:name', resolveTarget, jsonBody({ limitBytes: 4 * 1024 * 1024, maxDepth: deps.maxJsonDepth ?? MAX_JSON_DEPTH }), counted);
  // The server stream carries the tool server's own requests and notifications, and, when a client resumes a POST's
  // stream with Last-Event-ID, that stream's answers again: they meet the tool states and policies as on the POST.
  const passthrough = mcpPassthrough((req) => {
    const target = targetOf(req);
    const { registry, token, secrets, application, session, bindSession } = target;
    const checkEvent = (data: string): Promise<string | undefined> => {
      if (!target.stream) {
        target.stream = new JsonRpcInterceptor(deps, registry.name, application, req.originalUrl.split('?')[0] ?? req.path, secrets);
        target.stream.replyUpstream = replyUpstream(req, target);
      }
      return checkedEventData(data, registry.name, target.stream);
    };
    return { registry: registry.name, url: registry.url, token, secrets, session, bindSession, checkEvent };
  }, limits);
  router.get('/v1/mcp/:name', resolveTarget, passthrough);
  router.delete('/v1/mcp/:name', resolveTarget, passthrough);
  router.use('/v1/mcp', errorMiddleware(deps.logger));
  return router;
}

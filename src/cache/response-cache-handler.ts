// The response cache step of the model endpoints: answers a repeated request from the cache, or stores the answer it gets.
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { setGatewayHeaders } from '../traffic/gateway-headers.js';
import { ENDPOINT_PATHS, RAW_ANSWER_ENDPOINTS } from '../traffic/model-endpoints.js';
import { modelContextOf, type ModelRequestContext, type RouteRecord } from '../traffic/model-request-context.js';
import { SSE_HEADERS, type AnswerFormat } from '../traffic/response-relay.js';
import { assembleStreamAnswer } from './stream-answer-assembly.js';
import { replayPayloads } from './stream-answer-replay.js';
import { responseCacheKey } from './cache-key.js';
import type { Leadership, MissCoalescer } from './miss-coalescer.js';
import type { ResponseCacheStore } from './response-cache-store.js';

/** A route's `config.cache`: caching is on while it is present and not `enabled: false`. */
export interface RouteCacheConfig {
  ttl_seconds: number;
  enabled?: boolean;
}

/** The answer header that says whether the cache answered: `hit`, `miss`, or `bypass` (the client sent `Cache-Control: no-store`). */
export const CACHE_HEADER = 'x-gateway-cache';

/** What the cache step needs. */
export interface ResponseCacheDeps {
  store: ResponseCacheStore;
  logger?: GatewayLogger;
  /** Coalesces concurrent misses of one key (share one between every cache step of a gateway); absent: none are. */
  coalescer?: MissCoalescer;
  /** The gateway's per-attempt upstream timeout, a follower's longest wait on routes that set none. Default 60000. */
  upstreamTimeoutMs?: number;
}

/** The per-attempt upstream timeout of a gateway that sets none, in ms. */
const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;

/** The route's cache settings, when its answers are cached. */
export function routeCacheConfig(route: Readonly<RouteRecord> | undefined): RouteCacheConfig | undefined {
  const cache = (route?.config as { cache?: RouteCacheConfig } | undefined)?.cache;
  return cache && cache.enabled !== false ? cache : undefined;
}

/** The client's `Cache-Control`: `no-store` skips the cache both ways, `no-cache` skips the read but stores the fresh answer. */
function clientDirective(req: Request): 'no-store' | 'no-cache' | undefined {
  const header = req.headers['cache-control'];
  if (!header) return undefined;
  const directives = header.toLowerCase().split(',').map((part) => part.split('=')[0]!.trim());
  if (directives.includes('no-store')) return 'no-store';
  return directives.includes('no-cache') ? 'no-cache' : undefined;
}

/**
 * Answers from a cached answer: the route's output checks run on it first (a rejection is answered instead, a DLP
 * transform applies), then it is sent as JSON or, for a streamed request, replayed as SSE chunks. False when the
 * stored bytes are not a JSON answer (then the request goes upstream).
 */
async function answerFromCache(res: Response, context: ModelRequestContext, cached: Buffer): Promise<boolean> {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(cached.toString('utf8')) as Record<string, unknown>;
  } catch {
    return false;
  }
  context.cache = 'hit';
  res.setHeader(CACHE_HEADER, 'hit');
  setGatewayHeaders(res, context);
  // A stream never carries text its policy's transform failed on (a JSON answer follows the policy's mode and on_error).
  const rejected = (await context.outputGuard?.checkAnswer(answer)) ?? (context.stream ? context.outputGuard?.transformFailure() : undefined);
  if (rejected) {
    context.relay = { rejected };
    throw rejected;
  }
  if (context.answerFormat) {
    replayInFormat(res, context, answer, context.answerFormat);
    return true;
  }
  const bytes = context.outputGuard ? Buffer.from(JSON.stringify(answer)) : cached;
  if (context.stream) {
    const includeUsage = (context.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    const payloads = replayPayloads(context.endpoint, answer, includeUsage);
    context.relay = { payloads };
    res.status(200).set(SSE_HEADERS);
    res.end(payloads.map((payload) => `data: ${payload}\n\n`).join(''));
  } else {
    context.relay = { bytes, answer };
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  }
  return true;
}

/**
 * Answers a cached (OpenAI-format) answer in the endpoint's own format (POST /v1/messages): JSON through its `json`,
 * a stream as the replayed chunks, usage included, through its stream framing, as a live answer is written.
 */
function replayInFormat(res: Response, context: ModelRequestContext, answer: Record<string, unknown>, format: AnswerFormat): void {
  const model = context.candidates[0]?.model ?? (typeof context.body.model === 'string' ? context.body.model : '');
  if (!context.stream) {
    const bytes = Buffer.from(JSON.stringify(format.json(answer, model)));
    context.relay = { bytes, answer };
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
    return;
  }
  // One choice: an answer in another API's format has one message.
  const first = Array.isArray(answer.choices) ? answer.choices.slice(0, 1) : [];
  const payloads = replayPayloads(context.endpoint, { ...answer, choices: first }, true);
  const framing = format.stream(model, 'cache');
  const text = payloads.map((payload) => framing.chunk(payload)).join('') + framing.end();
  context.relay = { payloads };
  res.status(200).set(SSE_HEADERS);
  res.end(text);
}

/**
 * Whether an answer is whole and no failure: no `error` member (some servers report a failure in a 200 answer), and
 * for chat and completions at least one choice, each with its finish reason (a stream the upstream closed early, with
 * no error, has none).
 */
function isComplete(endpoint: ModelRequestContext['endpoint'], answer: Record<string, unknown>): boolean {
  if (answer.error !== undefined && answer.error !== null) return false;
  if (endpoint !== 'chat' && endpoint !== 'completions') return true;
  const choices = answer.choices;
  return Array.isArray(choices) && choices.length > 0 && choices.every((choice: { finish_reason?: unknown } | null) => typeof choice?.finish_reason === 'string');
}

/** The answer to store once the request has ended: a complete 200 answer that passed the output checks, as sent. */
function answerToStore(res: Response, context: ModelRequestContext): Buffer | undefined {
  const relay = context.relay;
  if (res.statusCode !== 200 || !relay || relay.rejected || relay.streamError) return undefined;
  if (!relay.payloads) {
    if (relay.answer && !isComplete(context.endpoint, relay.answer)) return undefined;
    // An endpoint answering in another format sent its own bytes: the OpenAI-format answer it was made from is stored.
    return context.answerFormat ? relay.answer && Buffer.from(JSON.stringify(relay.answer)) : relay.bytes;
  }
  const answer = assembleStreamAnswer(context.endpoint, relay.payloads);
  if (!answer || !isComplete(context.endpoint, answer)) return undefined;
  // The events' text joined: a provider key cut across two events is whole here, and is masked.
  const text = JSON.stringify(answer);
  return Buffer.from(relay.keyForms ? relay.keyForms.mask(text) : text);
}

/**
 * The cache step, run after the input guardrails and before the proxy. On routes with `config.cache`, a request
 * whose key is stored is answered from the cache (`x-gateway-cache: hit`, no provider call); otherwise it goes on
 * (`miss`) and its answer is stored for the route's TTL once it has been sent. With `deps.coalescer`, a miss whose key
 * is in flight already waits for that answer and is answered from the cache as a hit once it is stored; when it is not
 * stored, or the wait passes its bound, it goes upstream itself. A store that fails (Redis down) is a miss, logged once
 * until it works again.
 */
export function responseCacheHandler(deps: ResponseCacheDeps): RequestHandler {
  let failing = false;
  const failed = (error: unknown): undefined => {
    if (!failing) deps.logger?.warn('the response cache is unavailable; requests go to the providers', { error: (error as Error).message });
    failing = true;
    return undefined;
  };
  const worked = <T>(value: T): T => {
    failing = false;
    return value;
  };
  const coalescer = deps.coalescer;
  /** A follower's longest wait: the coalescing's own, else the route's per-attempt timeout, else the gateway's. */
  const waitMsOf = (context: ModelRequestContext): number =>
    coalescer?.waitMs ?? context.route?.config.settings.timeout_ms ?? deps.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  /**
   * Sends the miss on to the proxy and stores its answer for the route's TTL once it has been sent; a leader settles
   * when the answer is stored, or as soon as it is known it will not be (not storable, the store failed, the answer
   * never finished).
   */
  const relayMiss = (res: Response, next: NextFunction, context: ModelRequestContext, config: RouteCacheConfig, key: string, leader: Leadership | undefined): void => {
    context.cache = 'miss';
    res.setHeader(CACHE_HEADER, 'miss');
    // An answer that never finished (its client left) is not stored: the followers need not wait for the store.
    if (leader) {
      res.once('close', () => {
        if (!res.writableFinished) leader.settle(false);
      });
    }
    res.once('finish', () => {
      // The proxy records its outcome on the context right after its last write: read it once that has run.
      setImmediate(() => {
        // Nothing here may throw out of the timer (that would end the process): an answer that cannot be stored is not.
        let answer: Buffer | undefined;
        try {
          answer = answerToStore(res, context);
        } catch (error) {
          deps.logger?.warn('an answer was not cached: it could not be assembled', { request_id: context.requestId, error: (error as Error).message });
        }
        if (!answer) {
          leader?.settle(false);
          return;
        }
        void deps.store.set(key, answer, config.ttl_seconds * 1000).then(
          () => {
            worked(undefined);
            leader?.settle(true);
          },
          (error: unknown) => {
            failed(error);
            leader?.settle(false);
          },
        );
      });
    });
    next();
  };
  const serve = async (req: Request, res: Response, next: NextFunction, context: ModelRequestContext, config: RouteCacheConfig): Promise<void> => {
    const directive = clientDirective(req);
    if (directive === 'no-store') {
      res.setHeader(CACHE_HEADER, 'bypass');
      next();
      return;
    }
    const key = responseCacheKey(context);
    if (directive !== 'no-cache') {
      const cached = await deps.store.get(key).then(worked, failed);
      if (cached && (await answerFromCache(res, context, cached))) return;
      // A miss while the same key is in flight: wait for that answer rather than ask the provider again.
      const wait = coalescer?.follow(key, context.abort, waitMsOf(context));
      if (wait) {
        context.cache = 'miss';
        const outcome = await wait;
        // Its client is gone: nothing to answer and nothing to ask upstream.
        if (outcome === 'left') return;
        const stored = outcome === 'stored' ? await deps.store.get(key).then(worked, failed) : undefined;
        if (stored && (await answerFromCache(res, context, stored))) return;
      }
    }
    // Leads its key when none is in flight (a follower whose leader failed may lead the requests after it). A request
    // whose client has already left takes no lead: its answer's 'close', which would settle the lead, has come and gone,
    // so its followers, and every identical request after them, would wait their whole wait for it.
    relayMiss(res, next, context, config, key, context.abort.aborted ? undefined : coalescer?.lead(key));
  };
  return function serveFromResponseCache(req, res, next) {
    const context = modelContextOf(req);
    const config = context && routeCacheConfig(context.route);
    // Embeddings have no stream form to replay: a streamed embeddings request goes upstream as it is. Audio, images and
    // uploads (whose file the key cannot see) are never cached. Routes without a cache pass without a promise.
    if (!context || !config || (context.stream && context.endpoint === 'embeddings') || RAW_ANSWER_ENDPOINTS.has(context.endpoint)) {
      next();
      return;
    }
    serve(req, res, next, context, config).then(undefined, next);
  };
}

/** Creates the cache router, for apps that mount the model steps one by one: mount it after `guardrailPipeline`, before `proxy`. */
export function responseCacheRouter(deps: ResponseCacheDeps): Router {
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), responseCacheHandler(deps));
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(deps.logger));
  return router;
}

// The first step of every gateway request: its request id, its span, and at its end the request metrics, span attributes and log line.
import type { Attributes } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import { requestSecrets } from '../chronicles/chronicle-entry.js';
import type { GatewayError } from '../errors/error-registry.js';
import { chunkText } from '../guardrails/pipeline/message-text.js';
import { COUNT_TOKENS_PATH, MESSAGES_PATH } from '../messages/messages-router.js';
import { RESPONSES_PATH } from '../responses/responses-router.js';
import { scrubSecretShapes } from '../secrets/secret-shapes.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { clientLeft } from '../traffic/client-left.js';
import { ENDPOINT_PATHS, endpointPathKey } from '../traffic/model-endpoints.js';
import { modelContextOf, type ModelRequestContext } from '../traffic/model-request-context.js';
import type { CallLabels } from './call-labels.js';
import { usageAttributes, type GatewayObservability } from './gateway-observability.js';
import { cutToBytes, GatewayTracing } from './gateway-tracing.js';
import { candidateOf, NONE } from './metric-labels.js';
import { assignRequestId, REQUEST_ID_HEADER } from './request-id.js';
import { requestRecordOf, type RequestFinisher, type RequestRecord, type RequestTrace } from './request-record.js';
import { usageOf } from './usage-of.js';

/** The endpoint label of each model path. */
const MODEL_ENDPOINTS = new Map<string, string>([...Object.entries(ENDPOINT_PATHS).map(([name, path]) => [path, name] as [string, string]), [RESPONSES_PATH, 'responses'], [MESSAGES_PATH, 'messages'], [COUNT_TOKENS_PATH, 'messages_count_tokens']]);

/** A low-cardinality span name: the model endpoint's path, the MCP registry route, or the method alone. */
function spanName(method: string, path: string): string {
  const key = endpointPathKey(path);
  if (MODEL_ENDPOINTS.has(key)) return `${method} ${key}`;
  if (path.startsWith('/v1/mcp/')) return `${method} /v1/mcp/:name`;
  if (path.startsWith('/v1/admin/')) return `${method} /v1/admin`;
  return method;
}

function scopeOf(error: GatewayError, fallback: string): string {
  const scope = error.details?.scope;
  return typeof scope === 'string' ? scope : fallback;
}

/** The prompt and the answer, as recorded on a span when content recording is on. */
function contentOf(context: ModelRequestContext): { input: string; output: string } {
  const body = context.body;
  const input = JSON.stringify(body.messages ?? body.prompt ?? body.input ?? null);
  const relay = context.relay;
  const output = context.exchange
    ? (context.exchange.output ?? '')
    : relay?.payloads
      ? relay.payloads.map(chunkText).join('')
      : JSON.stringify((relay?.answer ?? relay?.json)?.choices ?? null);
  return { input, output };
}

/**
 * `upstream_stream_error` when the answer began (200) and the upstream broke it off, or it stalled past the timeout: the
 * client got an error event, so the request failed. A stream an output check cut is not counted (it was refused).
 */
function brokenStream(context: ModelRequestContext | undefined): string | undefined {
  const relay = context?.relay;
  return relay?.streamError !== undefined && !relay.rejected ? 'upstream_stream_error' : undefined;
}

function finishSpan(observability: GatewayObservability, traced: RequestTrace, req: Request, status: number, context: ModelRequestContext | undefined, labels: CallLabels | undefined, error: GatewayError | undefined): void {
  const { span } = traced;
  const errorType = status >= 500 || status === 499 ? (error?.code ?? String(status)) : brokenStream(context);
  if (span.isRecording()) {
    // The call's shared gen_ai attributes as they are (the SDK copies them), then this request's own in one object.
    if (labels) span.setAttributes(labels.attributes);
    const attributes: Attributes = { 'http.response.status_code': status };
    if (labels) usageAttributes(usageOf(context!, status === 499), attributes);
    else if (context) attributes['gateway.route'] = context.routeName;
    const tracing = observability.tracing!;
    if (context && tracing.recordContent) {
      // The content is scrubbed of key-shaped text, of the request's credentials and of every stored and configured secret (loaded once,
      // reloaded on change: the wait is for the first load, or the one after a key changed); the span keeps its end time.
      const endTime = performance.timeOrigin + performance.now();
      const own = requestSecrets(req);
      const { input, output } = contentOf(context);
      const finish = (known: readonly string[] | undefined): void => {
        // Secrets that cannot be loaded: the span records no content rather than unscrubbed content.
        if (known) {
          const secrets = [...own, ...known];
          attributes['gen_ai.input.messages'] = scrubSecretShapes(scrubSecrets(cutToBytes(input, tracing.maxContentBytes), secrets));
          attributes['gen_ai.output.messages'] = scrubSecretShapes(scrubSecrets(cutToBytes(output, tracing.maxContentBytes), secrets));
        }
        span.setAttributes(attributes);
        observability.checkSpans(traced.context, context.checks);
        GatewayTracing.end(span, errorType, endTime);
      };
      observability.knownSecrets().then(finish, () => finish(undefined));
      return;
    }
    span.setAttributes(attributes);
    if (context) observability.checkSpans(traced.context, context.checks);
  }
  GatewayTracing.end(span, errorType);
}

function finishRequest(observability: GatewayObservability, req: Request, res: Response, record: RequestRecord): void {
  const { endpoint, started, trace: traced } = record;
  const seconds = (performance.now() - started) / 1000;
  // A client that left before the answer ended is counted as 499, as the request log records it.
  const context = modelContextOf(req);
  const status = clientLeft(res, context) ? 499 : res.statusCode;
  const error = res.locals?.gatewayError as GatewayError | undefined;
  const last = context?.attempts.at(-1);
  const candidate = context && last ? candidateOf(context, last.provider, last.model) : undefined;
  const labels = candidate ? observability.labelsOf(context!, candidate) : undefined;
  const route = context?.routeName ?? NONE;
  const metrics = observability.metrics;
  if (metrics && endpoint !== undefined) {
    if (labels) metrics.callRequest(labels, endpoint, status, seconds);
    else metrics.request(endpoint, route, last?.provider ?? NONE, NONE, status, seconds);
    if (error?.code === 'rate_limit_exceeded') metrics.recordRejection('rate_limit', scopeOf(error, 'route'), route);
    else if (error?.code === 'budget_exceeded') metrics.recordRejection('budget', scopeOf(error, 'application'), route);
    if (context?.cache !== undefined) metrics.cacheLookup(route, context.cache);
    if (labels) {
      // Estimated usage counts too, as in Chronicles and budgets (499: the client left; see usageOf).
      const usage = usageOf(context!, status === 499);
      metrics.callUsage(labels, usage.input, usage.output);
      if (context!.stream && context!.firstChunkAt !== undefined) metrics.callTimeToFirstToken(labels, (context!.firstChunkAt - started) / 1000);
    }
  }
  if (traced) finishSpan(observability, traced, req, status, context, labels, error);
  if (observability.logRequests) {
    observability.logger?.info('request', {
      request_id: res.getHeader(REQUEST_ID_HEADER),
      method: req.method,
      path: cutToBytes(req.originalUrl.split('?')[0] ?? '', 256),
      status,
      duration_ms: Math.round(seconds * 1000 * 1000) / 1000,
      ...(context ? { application: context.application, route, provider: last?.provider ?? NONE, model: last?.model ?? null } : {}),
      ...(traced ? { trace_id: traced.span.spanContext().traceId } : {}),
    });
  }
}

/** The answer's `close` listener, one function for every request: the request's record says what ends it. */
function requestClosed(this: Response): void {
  const req = this.req;
  const record = requestRecordOf(req);
  const finisher = record?.finisher;
  if (!finisher) return;
  record.finisher = undefined;
  finisher.finish(req, this, record);
}

/**
 * Creates the gateway's first step: every request gets an id (a sane `x-request-id` from the client, or a new
 * UUID), returned as `x-request-id` on every answer; and, when enabled, a span, request metrics and a log line.
 */
export function requestObserver(observability: GatewayObservability): RequestHandler {
  const finisher: RequestFinisher = { finish: (req, res, record) => finishRequest(observability, req, res, record) };
  return function observeRequest(req, res, next) {
    // Routers mounted one by one each start with this step: the first one observes the request.
    if (requestRecordOf(req) !== undefined) {
      next();
      return;
    }
    // Everything kept per request goes in this one record: no other property is added to the request or the answer.
    const record = assignRequestId(req);
    res.setHeader(REQUEST_ID_HEADER, record.id);
    if (!observability.active) {
      next();
      return;
    }
    // Each read of a request property costs a hidden-class lookup (see RequestRecord): the path is read once.
    const path = observability.metrics ? req.path : undefined;
    const endpoint = path !== undefined ? MODEL_ENDPOINTS.get(endpointPathKey(path)) : undefined;
    const traced = observability.tracing?.startRequest(req, path, spanName);
    if (endpoint !== undefined || traced || observability.logRequests) {
      record.endpoint = endpoint;
      record.trace = traced;
      record.started = performance.now();
      record.finisher = finisher;
      // 'close' comes once per answer: one shared listener, no closure per request.
      res.on('close', requestClosed);
    }
    next();
  };
}

// The retry/fallback proxy: sends a resolved model request upstream with retries, timeouts and fallback, then relays the answer.
import type { Response } from 'express';
import type { ProviderKeyStore } from '../admin/provider-key-store.js';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import type { ProviderPlugin, ProviderRequestContext } from '../plugins/plugin-types.js';
import { setGatewayHeaders } from './gateway-headers.js';
import type { Candidate, ModelRequestContext } from './model-request-context.js';
import { AttemptTimer, type AbortFlag } from './attempt-timer.js';
import { selectProviderKey } from './provider-key-selection.js';
import { captureJson, relayJson, relayStream, type RelayOutcome } from './response-relay.js';
import { RAW_ANSWER_ENDPOINTS, RAW_STREAM_ENDPOINTS, STREAM_USAGE_ENDPOINTS } from './model-endpoints.js';
import { relayRaw } from './raw-relay.js';
import { isRetryable, parseRetryAfter, retryDelay, shouldFallBack, type AttemptFailure, type RetryTiming } from './retry-policy.js';
import { classifyUpstreamError, type UpstreamClient } from './upstream-client.js';
import { maskProviderKey, MAX_ERROR_BODY_BYTES, upstreamError, withoutProviderKey } from './upstream-error.js';
import type { AttemptEnd, ProxyObserver } from '../observability/observer-types.js';
import { withStreamUsage } from '../usage/stream-usage.js';
import { networkFailureOf } from '../http/network-failure.js';

/** The wait an adapter reads from an error body (see ProviderPlugin.retryAfterMs); undefined when it has none. */
function bodyRetryAfter(adapter: ProviderPlugin, status: number, text: string): number | undefined {
  if (!adapter.retryAfterMs) return undefined;
  try {
    return adapter.retryAfterMs(status, JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** What the proxy needs. */
export interface FallbackProxyDeps {
  client: UpstreamClient;
  keys: ProviderKeyStore;
  timing: RetryTiming;
  /** Per-attempt timeout when the route sets none, in ms. */
  defaultTimeoutMs: number;
  random?: () => number;
  /** Metrics and spans of attempts, retries and fallbacks; absent when both are off. */
  observer?: ProxyObserver;
}

/** The end of one model request. */
export type ProxyOutcome = { ok: true; relay: RelayOutcome } | { ok: false; error: GatewayError };

/** A failed attempt carries how it ended (`end`) for the retry and fallback counters, with the cause its attempt was counted under. */
type AttemptResult = { ok: true; relay: RelayOutcome } | { ok: false; failure: AttemptFailure; error: GatewayError; end: AttemptEnd };

/**
 * How an attempt that was answered ended, for its metrics and span: a stream cut because the client left is
 * `aborted`, one that stalled past the timeout `timeout`, and one the upstream broke a stream error. A stream an output
 * check cut was the gateway's choice, not the upstream's failure: the attempt is `ok` (the check is counted as a reject).
 */
function answeredEnd(relay: RelayOutcome, status: number, clientLeft: boolean, timedOut: boolean): AttemptEnd {
  if (relay.streamError === undefined || relay.rejected) return { kind: 'ok', status };
  if (clientLeft) return { kind: 'aborted', status };
  if (timedOut) return { kind: 'timeout', status };
  return { kind: 'ok', status, streamError: relay.streamError };
}

const sleep = (ms: number, abort: AbortFlag): Promise<void> =>
  new Promise((resolve) => {
    const stop = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      abort.removeListener('abort', stop);
      resolve();
    }, ms);
    abort.once('abort', stop);
  });

/** Reads at most MAX_ERROR_BODY_BYTES of an error body and drops the rest, so a huge error page is never buffered whole. */
async function readErrorText(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ERROR_BODY_BYTES) break;
    }
  } catch {
    // a broken error body still fails the attempt with the status it had
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
}

/**
 * One attempt against one candidate. Throws only for errors that must not be retried (bad request
 * translation, config). Without `res`, the answer is captured (parsed and translated) instead of sent.
 */
async function attempt(deps: FallbackProxyDeps, context: ModelRequestContext, candidate: Candidate, res: Response | undefined): Promise<AttemptResult> {
  const started = performance.now();
  // Chat and completions streams ask the upstream for usage; the usage chunk is hidden from a client that did not ask for it.
  const askUsage = context.stream && res !== undefined && STREAM_USAGE_ENDPOINTS.has(context.endpoint);
  const usage = withStreamUsage({ ...context.body, model: candidate.model }, askUsage, candidate.provider.config);
  const providerContext: ProviderRequestContext = {
    endpoint: context.endpoint,
    body: usage.body,
    model: candidate.model,
    stream: context.stream,
    provider: candidate.provider,
    apiKey: await selectProviderKey(candidate, deps.keys),
    suffix: candidate.routeModel?.suffix,
    ...(context.clientFormat === undefined ? {} : { clientFormat: context.clientFormat }),
    ...(context.clientBetas === undefined ? {} : { clientBetas: context.clientBetas }),
  };
  const upstreamRequest = candidate.adapter.buildRequest(providerContext);
  const watch = deps.observer?.attemptStarted(context, candidate, upstreamRequest.headers);
  const record = { provider: candidate.provider.name, model: candidate.model, status: null as number | null, latency_ms: 0 };
  context.attempts.push(record);
  const timeoutMs = context.route?.config.settings.timeout_ms ?? deps.defaultTimeoutMs;
  const finish = (end: AttemptEnd, status: number | null, error?: string): void => {
    record.status = status;
    record.latency_ms = Math.round(performance.now() - started);
    if (error) Object.assign(record, { error });
    watch?.end(end);
  };
  const timer = new AttemptTimer(timeoutMs, context.abort);
  const live: string[] = [];
  try {
    const upstream = await deps.client.send(upstreamRequest, timer.signal);
    if (upstream.status >= 400) {
      const text = await readErrorText(upstream.body);
      const retryAfterMs = parseRetryAfter(upstream.headers['retry-after']) ?? bodyRetryAfter(candidate.adapter, upstream.status, text);
      const error = upstreamError(upstream.status, text, candidate.adapter, candidate.provider.name, providerContext.apiKey?.value, retryAfterMs);
      const end: AttemptEnd = { kind: 'status', status: upstream.status };
      finish(end, upstream.status, error.message);
      return { ok: false, error, failure: { kind: 'status', status: upstream.status, retryAfterMs }, end };
    }
    if (upstream.status >= 300) {
      // A redirect is neither followed (its Location is the upstream's to choose) nor success: a 502, retried and falling back as one.
      await upstream.body.dump({ limit: MAX_ERROR_BODY_BYTES }).catch(() => undefined);
      const error = Errors.upstreamRedirect([candidate.provider.name, upstream.status]);
      // Counted as an answer the gateway cannot use (`invalid_response`), not as a client error.
      const end: AttemptEnd = { kind: 'invalid_response', status: upstream.status };
      finish(end, upstream.status, error.message);
      return { ok: false, error, failure: { kind: 'network' }, end };
    }
    if (res) setGatewayHeaders(res, context);
    // The stream's payloads so far, visible to the request log if the client leaves mid-stream (recorded as 499).
    const rawStream = RAW_STREAM_ENDPOINTS.has(context.endpoint);
    if (res && context.stream && !rawStream) context.relay = { payloads: live };
    const relay = !res
      ? await captureJson(upstream, candidate.adapter, providerContext)
      : context.stream && !rawStream
        ? await relayStream(res, upstream, candidate.adapter, providerContext, () => {
            timer.touch();
            context.firstChunkAt ??= performance.now();
          }, context.outputGuard, live, context.answerFormat?.stream(candidate.model, candidate.provider.name), usage.hide)
        : RAW_ANSWER_ENDPOINTS.has(context.endpoint)
          ? await relayRaw(res, upstream, () => {
              timer.touch();
              context.firstChunkAt ??= performance.now();
            }, providerContext.apiKey?.value)
          : await relayJson(res, upstream, candidate.adapter, providerContext, context.outputGuard, context.answerFormat);
    context.relay = relay;
    if (relay.streamError !== undefined && !relay.rejected && !context.abort.aborted) relay.brokeOff = true;
    finish(answeredEnd(relay, upstream.status, context.abort.aborted, timer.timedOut), upstream.status, relay.streamError);
    return { ok: true, relay };
  } catch (error) {
    if (context.relay?.payloads === live) context.relay = undefined; // the stream never started
    const kind = classifyUpstreamError(error, context.abort.aborted, timer.timedOut);
    if (kind === 'timeout') {
      const end: AttemptEnd = { kind: 'timeout' };
      finish(end, null, 'timeout');
      return { ok: false, error: Errors.upstreamTimeout([candidate.provider.name, timeoutMs]), failure: { kind }, end };
    }
    // Messages built from an upstream's answer (or an adapter's failure) may echo the key: it is masked.
    const key = providerContext.apiKey?.value;
    // An answer the gateway cannot read, or a stream whose first events report a failure: the upstream's own error, masked.
    if ((error as GatewayError).code === 'upstream_invalid_response' || (error as GatewayError).code === 'upstream_stream_error') {
      const invalid = withoutProviderKey(error as GatewayError, key);
      const end: AttemptEnd = { kind: 'invalid_response' };
      finish(end, 502, invalid.message);
      return { ok: false, error: invalid, failure: { kind: 'network' }, end };
    }
    const message = maskProviderKey((error as Error).message ?? String(error), key);
    const end: AttemptEnd = { kind };
    finish(end, null, kind === 'aborted' ? 'client disconnected' : message);
    // The attempt record (for admins) keeps the whole message; the caller is told the kind of failure, not the
    // provider's address ("connect ECONNREFUSED 10.0.3.7:8000" names a host inside the gateway's network).
    return { ok: false, error: Errors.upstreamUnreachable([candidate.provider.name, networkFailureOf(error)]), failure: { kind: 'network' }, end };
  } finally {
    timer.clear();
  }
}

/**
 * Runs a model request to its end: each candidate is tried with `settings.retries` retries; a model
 * with `fallback_enabled` whose final failure matches its `fallback_codes` moves on to the next one.
 * Answers the success, or the last failure. Never throws after the answer has started.
 */
export async function proxyModelRequest(deps: FallbackProxyDeps, context: ModelRequestContext, res?: Response): Promise<ProxyOutcome> {
  const retries = context.route?.config.settings.retries ?? 1;
  let last: GatewayError | undefined;
  for (const candidate of context.candidates) {
    let result: AttemptResult | undefined;
    for (let retry = 0; ; retry++) {
      result = await attempt(deps, context, candidate, res);
      if (result.ok || context.abort.aborted || res?.headersSent) break;
      if (retry >= retries || !isRetryable(result.failure)) break;
      const delay = retryDelay(retry, result.failure, deps.timing, deps.random);
      if (delay === undefined) break;
      deps.observer?.retried(candidate, result.end);
      await sleep(delay, context.abort);
    }
    if (result.ok) return result.relay.rejected && !res?.headersSent ? { ok: false, error: result.relay.rejected } : { ok: true, relay: result.relay };
    last = result.error;
    if (context.abort.aborted || res?.headersSent) break;
    const model = candidate.routeModel;
    if (!model || !shouldFallBack(result.failure, model.fallback_enabled, model.fallback_codes)) break;
    if (candidate !== context.candidates.at(-1)) deps.observer?.fellBack(context, candidate, result.end);
  }
  // The client left: its aborted attempt is no provider failure, so it ends without an error line naming the provider.
  if (context.abort.aborted) return { ok: false, error: Errors.clientDisconnected() };
  return { ok: false, error: last ?? Errors.noProviderAvailable([context.routeName]) };
}

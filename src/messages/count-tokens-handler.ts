// POST /v1/messages/count_tokens, its last step: the resolved prompt counted by the chosen model's provider, answered as Anthropic's count.
import type { RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';
import type { ProviderPlugin, TokenCounter } from '../plugins/plugin-types.js';
import { proxyModelRequest, type FallbackProxyDeps } from '../traffic/fallback-proxy.js';
import { setGatewayHeaders } from '../traffic/gateway-headers.js';
import { modelContextOf, type Candidate } from '../traffic/model-request-context.js';
import type { AnswerFormat } from '../traffic/response-relay.js';

/** The count as Anthropic answers it: `{"input_tokens": N}`. */
const COUNT_FORMAT: AnswerFormat = {
  json: (answer) => ({ input_tokens: answer.input_tokens }),
  stream() {
    throw new Error('a token count is never streamed');
  },
};

/** Counting adapters, one per provider adapter (adapters are a handful of long-lived plugins). */
const counting = new WeakMap<ProviderPlugin, ProviderPlugin>();

/** The adapter as the proxy runs it for a count: its counting request, its count as the answer, its own error reading. */
function countingAdapter(adapter: ProviderPlugin, counter: TokenCounter): ProviderPlugin {
  let view = counting.get(adapter);
  if (!view) {
    view = {
      kind: 'provider',
      name: adapter.name,
      openaiCompatible: false,
      buildRequest: (context) => counter.buildRequest({ ...context, stream: false }),
      translateResponse: (answer) => ({ input_tokens: counter.readCount(answer) }),
      errorMessage: adapter.errorMessage?.bind(adapter),
      retryAfterMs: adapter.retryAfterMs?.bind(adapter),
    };
    counting.set(adapter, view);
  }
  return view;
}

/**
 * The counting step, after the rate limiter, budgets and the guardrail input checks (a rejected prompt never reaches
 * a provider). The route's chosen model (its first candidate) decides: on a provider that counts tokens (Anthropic's
 * `/v1/messages/count_tokens`, Gemini's `countTokens`), the count is sent with the route's retries, timeout and fallback to later candidates
 * that count too, and answered as `{"input_tokens": N}`; on any other, 400 `unsupported_endpoint` naming it. The
 * request log records the attempts and the prompt; a count has no usage, so it costs nothing and uses no tokens of a
 * per-minute limit.
 */
export function countTokensHandler(deps: FallbackProxyDeps): RequestHandler {
  return async function countTokens(req, res) {
    const context = modelContextOf(req)!;
    const chosen = context.candidates[0];
    if (!chosen?.adapter.countTokens) {
      throw chosen ? Errors.tokenCountUnsupported([context.routeName, chosen.provider.name, chosen.provider.type]) : Errors.noProviderAvailable([context.routeName]);
    }
    // A count reads no model text: no output checks, and no answer to cache.
    context.outputGuard = undefined;
    context.answerFormat = COUNT_FORMAT;
    context.candidates = context.candidates.flatMap((candidate): Candidate[] => {
      const counter = candidate.adapter.countTokens;
      return counter ? [{ ...candidate, adapter: countingAdapter(candidate.adapter, counter) }] : [];
    });
    const outcome = await proxyModelRequest(deps, context, res);
    // The count is not an answer: the request log and usage read no output or usage from it.
    context.relay = undefined;
    if (!outcome.ok && !res.headersSent) {
      setGatewayHeaders(res, context);
      throw outcome.error;
    }
  };
}

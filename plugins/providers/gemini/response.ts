// Gemini's answer translated: a GenerateContentResponse as an OpenAI `chat.completion`.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { isRecord } from '../shared/openai-chat.js';
import { commonErrorMessage, countOf, expectObject, generateId, nowSeconds, usageOf, type FinishReason, type OpenAiUsage } from '../shared/openai-chunks.js';

/** Gemini's reasons for content its filters stopped (an unsupported `LANGUAGE` among them): `content_filter`. */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE']);

/** What each failure reason means, for the 502's message; a reason not listed here is named as it came. */
const FAILURES: Readonly<Record<string, string>> = {
  MALFORMED_FUNCTION_CALL: 'the model wrote a function call that could not be read',
  UNEXPECTED_TOOL_CALL: 'the model called a tool the request did not offer',
  TOO_MANY_TOOL_CALLS: 'the model called too many tools in a row',
  MISSING_THOUGHT_SIGNATURE: 'a function call sent back lacked the thought signature it came with',
  MALFORMED_RESPONSE: 'the model wrote an answer that could not be read',
  OTHER: 'the model stopped for an unspecified reason',
};

/**
 * OpenAI's finish reason for a Gemini `finishReason`: `STOP` → `stop` (`tool_calls` when the candidate called a
 * function), `MAX_TOKENS` → `length`, the filters' reasons (`SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`,
 * `SPII`, `LANGUAGE` and the image ones) → `content_filter`; none yet → null. Any other reason
 * (`MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`, `OTHER`, …) means the model failed to
 * answer: it throws `upstream_invalid_response` (502, retried and falling back as one) naming the reason, rather than
 * answering an empty or partial message as a finished one.
 */
export function geminiFinishReason(reason: unknown, calledFunction: boolean, provider: string): FinishReason | null {
  if (typeof reason !== 'string' || reason === '' || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (reason === 'STOP') return calledFunction ? 'tool_calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  const shown = JSON.stringify(reason.slice(0, 64));
  throw Errors.upstreamModelFailed([provider, `Gemini ended it with finishReason ${shown}${FAILURES[reason] ? ` (${FAILURES[reason]})` : ''}`]);
}

/**
 * OpenAI usage from `usageMetadata`: `promptTokenCount` → `prompt_tokens`, `candidatesTokenCount` plus
 * `thoughtsTokenCount` → `completion_tokens` (thoughts also as `reasoning_tokens`), and
 * `cachedContentTokenCount` → `prompt_tokens_details.cached_tokens` when present.
 */
export function geminiUsage(metadata: unknown): OpenAiUsage {
  const cached = isRecord(metadata) && typeof metadata.cachedContentTokenCount === 'number' ? metadata.cachedContentTokenCount : undefined;
  const thoughts = countOf(metadata, 'thoughtsTokenCount');
  const usage = usageOf(countOf(metadata, 'promptTokenCount'), countOf(metadata, 'candidatesTokenCount') + thoughts, cached);
  if (thoughts > 0) usage.completion_tokens_details = { reasoning_tokens: thoughts };
  return usage;
}

/**
 * The text (thought parts left out) and the function calls of one candidate, calls as OpenAI tool calls. A call's
 * `thoughtSignature` is its `extra_content.google.thought_signature`, as Gemini's own OpenAI-compatible API answers
 * it: a client that sends the call back with it lets the Gemini adapter return it, which Gemini 3 requires.
 */
export function candidateParts(candidate: unknown): { text: string; toolCalls: Array<Record<string, unknown>> } {
  const content = isRecord(candidate) && isRecord(candidate.content) ? candidate.content : {};
  const parts = Array.isArray(content.parts) ? content.parts : [];
  let text = '';
  const toolCalls: Array<Record<string, unknown>> = [];
  for (const part of parts) {
    if (!isRecord(part) || part.thought === true) continue;
    if (typeof part.text === 'string') text += part.text;
    if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : generateId('call');
      const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '' ? { extra_content: { google: { thought_signature: part.thoughtSignature } } } : {};
      toolCalls.push({ id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) }, ...signature });
    }
  }
  return { text, toolCalls };
}

/**
 * Translates a generateContent answer: one choice per candidate. An answer whose prompt was blocked
 * (`promptFeedback.blockReason`, no candidates) becomes one empty choice with `content_filter`.
 */
export function translateGeminiChat(upstream: unknown, context: ProviderRequestContext): Record<string, unknown> {
  const answer = expectObject(upstream, 'the Gemini answer');
  const candidates = Array.isArray(answer.candidates) ? answer.candidates : [];
  const blocked = isRecord(answer.promptFeedback) && typeof answer.promptFeedback.blockReason === 'string';
  if (candidates.length === 0 && !blocked) throw Errors.upstreamInvalidResponse(['the Gemini answer has no candidates']);
  const choices = candidates.map((candidate, position) => {
    const { text, toolCalls } = candidateParts(candidate);
    const message: Record<string, unknown> = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text, refusal: null };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    const index = isRecord(candidate) && typeof candidate.index === 'number' ? candidate.index : position;
    const reason = isRecord(candidate) ? candidate.finishReason : undefined;
    return { index, message, logprobs: null, finish_reason: geminiFinishReason(reason, toolCalls.length > 0, context.provider.name) ?? 'stop' };
  });
  if (choices.length === 0) {
    choices.push({ index: 0, message: { role: 'assistant', content: null, refusal: null }, logprobs: null, finish_reason: 'content_filter' });
  }
  return {
    id: typeof answer.responseId === 'string' ? answer.responseId : generateId(),
    object: 'chat.completion',
    created: nowSeconds(),
    model: typeof answer.modelVersion === 'string' ? answer.modelVersion : context.model,
    choices,
    usage: geminiUsage(answer.usageMetadata),
  };
}

/** The message of a Gemini error body (`{"error":{"code","message","status"}}`, or a list of them). */
export function geminiErrorMessage(_status: number, body: unknown): string | undefined {
  return commonErrorMessage(body);
}

/**
 * The wait Gemini asks for in an error body: the `retryDelay` of a `google.rpc.RetryInfo` detail (`"35s"`,
 * `"1.5s"`), in ms; undefined when there is none.
 * @example
 * geminiRetryAfterMs(429, { error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '35s' }] } }); // 35000
 */
export function geminiRetryAfterMs(_status: number, body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as Array<Record<string, unknown> | null>) {
    if (typeof detail?.['@type'] !== 'string' || !detail['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const delay = typeof detail.retryDelay === 'string' ? /^(\d{1,9}(?:\.\d{1,9})?)s$/.exec(detail.retryDelay) : null;
    if (delay) return Math.round(Number(delay[1]) * 1000);
  }
  return undefined;
}

// Gemini's stream translated: streamGenerateContent SSE chunks as OpenAI `chat.completion.chunk` payloads.
import { Errors, type ProviderRequestContext, type SseEvent, type StreamTranslator } from '../../../src/plugins/plugin-api.js';
import { isRecord } from '../shared/openai-chat.js';
import { ChunkBuilder, DONE, commonErrorMessage, generateId, nowSeconds, parseEventData, wantsStreamUsage } from '../shared/openai-chunks.js';
import { candidateParts, geminiFinishReason, geminiUsage } from './response.js';

/**
 * Creates the translator of one Gemini stream. Every upstream event is a whole GenerateContentResponse:
 * the first chunk of each candidate carries `{role: 'assistant', content: ''}`; text parts become
 * `content` deltas; each `functionCall` part becomes one complete `tool_calls` delta (Gemini does not
 * split arguments); a `finishReason` becomes the chunk with `finish_reason`. The last `usageMetadata`
 * becomes the usage chunk when the client asked `stream_options.include_usage`.
 * A chunk with `error` throws `upstream_stream_error` (502); so does `onEnd` when no candidate finished. A finish reason
 * that says the model failed (`MALFORMED_FUNCTION_CALL`, …) throws `upstream_invalid_response` (see geminiFinishReason).
 */
export function createGeminiStreamTranslator(context: ProviderRequestContext): StreamTranslator {
  const chunks = new ChunkBuilder({ id: generateId(), model: context.model, created: nowSeconds(), includeUsage: wantsStreamUsage(context) });
  const started = new Set<number>();
  const toolCounts = new Map<number, number>();
  const finished = new Set<number>();
  let usageMetadata: unknown;
  let identified = false;

  function fail(message: string): never {
    throw Errors.upstreamStreamError([context.provider.name, message]);
  }

  function candidateChunks(candidate: unknown, position: number): string[] {
    const index = isRecord(candidate) && typeof candidate.index === 'number' ? candidate.index : position;
    const out: string[] = [];
    if (!started.has(index)) {
      started.add(index);
      out.push(chunks.delta({ role: 'assistant', content: '' }, null, index));
    }
    const { text, toolCalls } = candidateParts(candidate);
    if (text !== '') out.push(chunks.delta({ content: text }, null, index));
    for (const call of toolCalls) {
      const count = toolCounts.get(index) ?? 0;
      toolCounts.set(index, count + 1);
      out.push(chunks.delta({ tool_calls: [{ index: count, ...call }] }, null, index));
    }
    const reason = geminiFinishReason(isRecord(candidate) ? candidate.finishReason : undefined, (toolCounts.get(index) ?? 0) > 0, context.provider.name);
    if (reason !== null && !finished.has(index)) {
      finished.add(index);
      out.push(chunks.delta({}, reason, index));
    }
    return out;
  }

  return {
    onEvent(event: SseEvent): string[] {
      const data = parseEventData(event.data);
      if (data.error !== undefined) fail(commonErrorMessage(data) ?? 'an error chunk without a message');
      if (!identified) {
        identified = true;
        if (typeof data.responseId === 'string') chunks.identity.id = data.responseId;
        if (typeof data.modelVersion === 'string') chunks.identity.model = data.modelVersion;
      }
      if (data.usageMetadata !== undefined) usageMetadata = data.usageMetadata;
      const candidates = Array.isArray(data.candidates) ? data.candidates : [];
      const blocked = isRecord(data.promptFeedback) && typeof data.promptFeedback.blockReason === 'string';
      if (candidates.length === 0 && blocked && !finished.has(0)) {
        finished.add(0);
        return [chunks.delta({ role: 'assistant', content: '' }), chunks.delta({}, 'content_filter')];
      }
      return candidates.flatMap(candidateChunks);
    },
    onEnd(): string[] {
      if (finished.size === 0) fail('the stream ended before a finishReason');
      return chunks.identity.includeUsage ? [chunks.usage(geminiUsage(usageMetadata)), DONE] : [DONE];
    },
  };
}

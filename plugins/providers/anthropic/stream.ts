// Anthropic's stream translated: Messages API events as OpenAI `chat.completion.chunk` payloads.
import { Errors, type ProviderRequestContext, type SseEvent, type StreamTranslator } from '../../../src/plugins/plugin-api.js';
import { isRecord } from '../shared/openai-chat.js';
import { ChunkBuilder, DONE, generateId, nowSeconds, parseEventData, usageOf, wantsStreamUsage, type CacheCreationTokens, type FinishReason } from '../shared/openai-chunks.js';
import { cacheCreationOf } from './mapping.js';
import { anthropicFinishReason, stopSequenceMember, withReasoning } from './response.js';

/**
 * Creates the translator of one Anthropic stream:
 * - `message_start` → the first chunk, `{role: 'assistant', content: ''}` (for POST /v1/messages with the input
 *   counts so far as its `usage`, which its own `message_start` reports);
 * - `content_block_start` of a `tool_use` → a `tool_calls` delta with index, id, name and empty arguments; of a
 *   `redacted_thinking` block → a `thinking_blocks` delta with the block as it came;
 * - `content_block_delta`: `text_delta` → a `content` delta, `input_json_delta` → an arguments delta, `thinking_delta`
 *   → a `reasoning_content` delta, `signature_delta` → a `thinking_blocks` delta `[{type: 'thinking', thinking: '',
 *   signature}]`, which ends that thinking block;
 * - `message_delta` → the chunk with `finish_reason` (and the sequence as `stop_reason` after a stop sequence); `message_stop` → the usage chunk when the client
 *   asked `stream_options.include_usage`; `ping` and `content_block_stop` → nothing;
 * - `error` → throws `upstream_stream_error` (502) with Anthropic's message.
 * `onEnd` answers `[DONE]`, or throws `upstream_stream_error` when `message_stop` never came.
 */
export function createAnthropicStreamTranslator(context: ProviderRequestContext): StreamTranslator {
  const chunks = new ChunkBuilder({ id: generateId(), model: context.model, created: nowSeconds(), includeUsage: wantsStreamUsage(context) });
  const toolIndexOfBlock = new Map<number, number>();
  let promptTokens = 0;
  let inputTokens = 0;
  let cachedTokens: number | undefined;
  let cacheCreationTokens: number | undefined;
  let cacheCreation: CacheCreationTokens | undefined;
  let completionTokens = 0;
  let reasoningTokens: number | undefined;
  let finishReason: FinishReason | null = null;
  let stopped = false;

  function fail(message: string): never {
    throw Errors.upstreamStreamError([context.provider.name, message]);
  }

  function onMessageStart(data: Record<string, unknown>): string[] {
    const message = isRecord(data.message) ? data.message : {};
    if (typeof message.id === 'string') chunks.identity.id = message.id;
    if (typeof message.model === 'string') chunks.identity.model = message.model;
    readUsage(message.usage);
    const first = { role: 'assistant', content: '' };
    if (context.clientFormat !== 'anthropic' || !isRecord(message.usage)) return [chunks.delta(first)];
    return [chunks.deltaWithUsage(first, usageOf(promptTokens, completionTokens, cachedTokens, cacheCreationTokens, cacheCreation))];
  }

  function onBlockStart(data: Record<string, unknown>): string[] {
    const block = isRecord(data.content_block) ? data.content_block : {};
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') return [chunks.delta({ content: block.text })];
    if (block.type === 'thinking') return typeof block.thinking === 'string' && block.thinking !== '' ? [chunks.delta({ reasoning_content: block.thinking })] : [];
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') return [chunks.delta({ thinking_blocks: [{ type: 'redacted_thinking', data: block.data }] })];
    if (block.type !== 'tool_use') return [];
    const index = toolIndexOfBlock.size;
    toolIndexOfBlock.set(Number(data.index), index);
    return [chunks.delta({ tool_calls: [{ index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] })];
  }

  function onBlockDelta(data: Record<string, unknown>): string[] {
    const delta = isRecord(data.delta) ? data.delta : {};
    if (delta.type === 'text_delta' && typeof delta.text === 'string') return [chunks.delta({ content: delta.text })];
    if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') return delta.thinking === '' ? [] : [chunks.delta({ reasoning_content: delta.thinking })];
    if (delta.type === 'signature_delta' && typeof delta.signature === 'string') return [chunks.delta({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: delta.signature }] })];
    if (delta.type !== 'input_json_delta' || typeof delta.partial_json !== 'string' || delta.partial_json === '') return [];
    const index = toolIndexOfBlock.get(Number(data.index));
    if (index === undefined) return fail(`input_json_delta for block ${String(data.index)}, which is not a tool_use block`);
    return [chunks.delta({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] })];
  }

  /** Takes the counts a `usage` reports (message_start's, and message_delta's, which are cumulative); the others stay. */
  function readUsage(usage: unknown): void {
    if (!isRecord(usage)) return;
    if (typeof usage.cache_read_input_tokens === 'number') cachedTokens = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') cacheCreationTokens = usage.cache_creation_input_tokens;
    cacheCreation = cacheCreationOf(usage.cache_creation) ?? cacheCreation;
    if (typeof usage.input_tokens === 'number') inputTokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') completionTokens = usage.output_tokens;
    const details = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
    if (typeof details.thinking_tokens === 'number') reasoningTokens = details.thinking_tokens;
    promptTokens = inputTokens + (cacheCreationTokens ?? 0) + (cachedTokens ?? 0);
  }

  function onMessageDelta(data: Record<string, unknown>): string[] {
    readUsage(data.usage);
    const delta = isRecord(data.delta) ? data.delta : {};
    finishReason = anthropicFinishReason(delta.stop_reason) ?? 'stop';
    return [chunks.delta({}, finishReason, 0, stopSequenceMember(delta.stop_reason, delta.stop_sequence))];
  }

  return {
    onEvent(event: SseEvent): string[] {
      const data = parseEventData(event.data);
      switch (data.type ?? event.event) {
        case 'message_start':
          return onMessageStart(data);
        case 'content_block_start':
          return onBlockStart(data);
        case 'content_block_delta':
          return onBlockDelta(data);
        case 'message_delta':
          return onMessageDelta(data);
        case 'message_stop':
          stopped = true;
          return chunks.identity.includeUsage ? [chunks.usage(withReasoning(usageOf(promptTokens, completionTokens, cachedTokens, cacheCreationTokens, cacheCreation), reasoningTokens))] : [];
        case 'error': {
          const error = isRecord(data.error) ? data.error : {};
          return fail(typeof error.message === 'string' ? error.message : 'an error event without a message');
        }
        default:
          return [];
      }
    },
    onEnd(): string[] {
      if (!stopped) fail('the stream ended before message_stop');
      return finishReason === null ? [chunks.delta({}, 'stop'), DONE] : [DONE];
    },
  };
}

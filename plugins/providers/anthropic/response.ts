// Anthropic's answer translated: a Messages API `message` as an OpenAI `chat.completion`.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { isRecord } from '../shared/openai-chat.js';
import { commonErrorMessage, expectObject, generateId, nowSeconds, usageOf, type OpenAiUsage } from '../shared/openai-chunks.js';
import { anthropicFinishReason, countsOfAnthropicUsage } from './mapping.js';

export { anthropicFinishReason } from './mapping.js';

/**
 * OpenAI usage from Anthropic usage. Anthropic's `input_tokens` leaves out cached input, so
 * `prompt_tokens` adds `cache_creation_input_tokens` and `cache_read_input_tokens` (when present,
 * the latter is also `prompt_tokens_details.cached_tokens`, the former kept as `cache_creation_input_tokens`, with its
 * breakdown by cache duration kept as `cache_creation`);
 * `completion_tokens` is `output_tokens`, of which `output_tokens_details.thinking_tokens` is
 * `completion_tokens_details.reasoning_tokens`.
 */
export function anthropicUsage(usage: unknown): OpenAiUsage {
  const counts = countsOfAnthropicUsage(usage);
  return withReasoning(usageOf(counts.input, counts.output, counts.cacheRead, counts.cacheCreation, counts.cacheCreationByDuration), counts.reasoning);
}

/** The usage with `completion_tokens_details.reasoning_tokens` when the thinking tokens are known. */
export function withReasoning(usage: OpenAiUsage, reasoning: number | undefined): OpenAiUsage {
  if (reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

/** The choice's `stop_reason` member: the sequence Anthropic stopped at (`stop_sequence`), as vLLM names it; none otherwise. */
export function stopSequenceMember(stopReason: unknown, stopSequence: unknown): { stop_reason: string } | Record<string, never> {
  return stopReason === 'stop_sequence' && typeof stopSequence === 'string' ? { stop_reason: stopSequence } : {};
}

/**
 * Translates a Messages API answer: text blocks joined as `content` (null when there is none),
 * `tool_use` blocks as `tool_calls` with JSON-string arguments. Thinking text is `reasoning_content` (blocks joined,
 * a blank line between), and every thinking block, with its signature, and every redacted one, with its data, is in
 * `thinking_blocks`, in order, as they came (for POST /v1/messages and for a client that sends them back). A stop at
 * one of the request's stop sequences is finish reason `stop` with that sequence as the choice's `stop_reason`.
 */
export function translateAnthropicResponse(upstream: unknown, context: ProviderRequestContext): Record<string, unknown> {
  const message = expectObject(upstream, 'the Anthropic answer');
  if (!Array.isArray(message.content)) throw Errors.upstreamInvalidResponse(['the Anthropic answer has no content array']);
  const texts: string[] = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  const thinking: Array<Record<string, unknown>> = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'thinking' && typeof block.thinking === 'string') {
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: typeof block.signature === 'string' ? block.signature : '' });
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') thinking.push({ type: 'redacted_thinking', data: block.data });
    if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const reply: Record<string, unknown> = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null, refusal: null };
  if (toolCalls.length > 0) reply.tool_calls = toolCalls;
  const reasoning = thinking.flatMap((block) => (block.type === 'thinking' ? [block.thinking as string] : []));
  if (reasoning.length > 0) reply.reasoning_content = reasoning.join('\n\n');
  if (thinking.length > 0) reply.thinking_blocks = thinking;
  return {
    id: typeof message.id === 'string' ? message.id : generateId(),
    object: 'chat.completion',
    created: nowSeconds(),
    model: typeof message.model === 'string' ? message.model : context.model,
    choices: [{ index: 0, message: reply, logprobs: null, finish_reason: anthropicFinishReason(message.stop_reason), ...stopSequenceMember(message.stop_reason, message.stop_sequence) }],
    usage: anthropicUsage(message.usage),
  };
}

/** The message of an Anthropic error body (`{"type":"error","error":{"type","message"}}`). */
export function anthropicErrorMessage(_status: number, body: unknown): string | undefined {
  return commonErrorMessage(body);
}

// The Anthropic Messages ⇄ OpenAI chat correspondences, both ways: stop reasons, tool choice, tools, images and usage.
// Imported by the Anthropic adapter (outbound) and by the gateway's own /v1/messages endpoint (inbound); it imports no gateway module.
import { parseDataUrl } from '../shared/data-url.js';
import type { CacheCreationTokens } from '../shared/openai-chunks.js';

/** OpenAI's finish reasons. */
export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Anthropic's `stop_reason` for each OpenAI finish reason. */
const STOP_REASON_OF: Record<OpenAiFinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/**
 * OpenAI's finish reason for an Anthropic `stop_reason`: `end_turn`, `stop_sequence` and `pause_turn`
 * → `stop`, `max_tokens` and `model_context_window_exceeded` → `length`, `tool_use` → `tool_calls`,
 * `refusal` → `content_filter`.
 */
export function anthropicFinishReason(reason: unknown): OpenAiFinishReason | null {
  if (reason === null || reason === undefined) return null;
  if (reason === 'model_context_window_exceeded') return 'length';
  const found = (Object.keys(STOP_REASON_OF) as OpenAiFinishReason[]).find((finish) => STOP_REASON_OF[finish] === reason);
  return found ?? 'stop';
}

/** Anthropic's `stop_reason` for an OpenAI finish reason (the inverse of {@link anthropicFinishReason}); unknown ones end the turn. */
export function anthropicStopReason(finish: unknown): string | null {
  if (finish === null || finish === undefined) return null;
  return STOP_REASON_OF[finish as OpenAiFinishReason] ?? 'end_turn';
}

/** OpenAI `tool_choice` modes and Anthropic `tool_choice.type`s that mean the same. */
const TOOL_CHOICE_TYPES = { auto: 'auto', required: 'any', none: 'none' } as const;

/** Anthropic's `tool_choice` for an OpenAI mode or a named function. */
export function anthropicToolChoice(choice: { mode: 'auto' | 'none' | 'required' } | { mode: 'function'; name: string }): Record<string, unknown> {
  return choice.mode === 'function' ? { type: 'tool', name: choice.name } : { type: TOOL_CHOICE_TYPES[choice.mode] };
}

/** OpenAI's `tool_choice` for an Anthropic one; undefined when it has no known `type`. */
export function openaiToolChoice(choice: { type?: unknown; name?: unknown }): unknown {
  if (choice.type === 'tool' && typeof choice.name === 'string') return { type: 'function', function: { name: choice.name } };
  const mode = (Object.keys(TOOL_CHOICE_TYPES) as Array<keyof typeof TOOL_CHOICE_TYPES>).find((key) => TOOL_CHOICE_TYPES[key] === choice.type);
  return mode;
}

/** A function tool in both shapes: OpenAI's `parameters` is Anthropic's `input_schema`. */
export interface ToolShape {
  name: string;
  description?: string;
  schema?: Record<string, unknown>;
  /** Whether the model's calls must hold to the schema exactly (OpenAI's function `strict`, Anthropic's tool `strict`). */
  strict?: boolean;
}

const strictOf = (tool: ToolShape): { strict?: boolean } => (tool.strict === undefined ? {} : { strict: tool.strict });

/** An Anthropic tool definition. */
export function anthropicTool(tool: ToolShape): Record<string, unknown> {
  return { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), input_schema: tool.schema ?? { type: 'object', properties: {} }, ...strictOf(tool) };
}

/** An OpenAI function tool. */
export function openaiTool(tool: ToolShape): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: tool.schema ?? { type: 'object', properties: {} }, ...strictOf(tool) } };
}

/** Anthropic's image block for an OpenAI image URL: inline base64 for a `data:` URL, else a URL source. */
export function anthropicImageBlock(url: string): Record<string, unknown> {
  const inline = parseDataUrl(url);
  return inline ? { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } } : { type: 'image', source: { type: 'url', url } };
}

/** The OpenAI image URL of an Anthropic image source (`base64` → `data:` URL, `url` as is); undefined for other sources. */
export function openaiImageUrl(source: { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown }): string | undefined {
  if (source.type === 'base64' && typeof source.media_type === 'string' && typeof source.data === 'string') return `data:${source.media_type};base64,${source.data}`;
  if (source.type === 'url' && typeof source.url === 'string') return source.url;
  return undefined;
}

/** Token counts in both shapes. Anthropic's `input_tokens` leaves out cached input; OpenAI's `prompt_tokens` includes it. */
export interface TokenCounts {
  /** Every input token, cached ones included. */
  input: number;
  output: number;
  /** Input tokens read from the cache, when reported. */
  cacheRead?: number;
  /** Input tokens written to the cache (Anthropic only). */
  cacheCreation?: number;
  /** `cacheCreation` by how long the cache keeps it (5 minutes or 1 hour), when Anthropic breaks it down (`cache_creation`). */
  cacheCreationByDuration?: CacheCreationTokens;
  /** Output tokens spent thinking (part of `output`), when reported: Anthropic's `thinking_tokens`, OpenAI's `reasoning_tokens`. */
  reasoning?: number;
}

const count = (record: Record<string, unknown> | undefined, key: string): number => (typeof record?.[key] === 'number' ? (record[key] as number) : 0);
const asRecord = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

const optionalCount = (record: Record<string, unknown> | undefined, key: string): number | undefined => (typeof record?.[key] === 'number' ? (record[key] as number) : undefined);

/**
 * Anthropic's `cache_creation` breakdown (`ephemeral_5m_input_tokens`, `ephemeral_1h_input_tokens`; a missing one is
 * 0), or undefined when `value` is not an object with at least one of them.
 */
export function cacheCreationOf(value: unknown): CacheCreationTokens | undefined {
  const record = asRecord(value);
  const short = optionalCount(record, 'ephemeral_5m_input_tokens');
  const long = optionalCount(record, 'ephemeral_1h_input_tokens');
  return short === undefined && long === undefined ? undefined : { ephemeral_5m_input_tokens: short ?? 0, ephemeral_1h_input_tokens: long ?? 0 };
}

/**
 * Token counts of an Anthropic `usage`: input is `input_tokens` plus both cache counts, cache writes by duration from
 * `cache_creation`; thinking from `output_tokens_details.thinking_tokens`.
 */
export function countsOfAnthropicUsage(usage: unknown): TokenCounts {
  const record = asRecord(usage);
  const cacheRead = optionalCount(record, 'cache_read_input_tokens');
  const cacheCreation = optionalCount(record, 'cache_creation_input_tokens');
  const reasoning = optionalCount(asRecord(record?.output_tokens_details), 'thinking_tokens');
  const counts: TokenCounts = { input: count(record, 'input_tokens') + (cacheCreation ?? 0) + (cacheRead ?? 0), output: count(record, 'output_tokens'), cacheRead, cacheCreation, reasoning };
  const byDuration = cacheCreationOf(record?.cache_creation);
  if (byDuration) counts.cacheCreationByDuration = byDuration;
  return counts;
}

/**
 * Token counts of an OpenAI `usage`; cache writes from `cache_creation_input_tokens` and by duration from
 * `cache_creation`, which the Anthropic adapter adds; thinking from `completion_tokens_details.reasoning_tokens`.
 */
export function countsOfOpenAiUsage(usage: unknown): TokenCounts {
  const record = asRecord(usage);
  const cacheRead = optionalCount(asRecord(record?.prompt_tokens_details), 'cached_tokens');
  const reasoning = optionalCount(asRecord(record?.completion_tokens_details), 'reasoning_tokens');
  const counts: TokenCounts = { input: count(record, 'prompt_tokens'), output: count(record, 'completion_tokens'), cacheRead, cacheCreation: optionalCount(record, 'cache_creation_input_tokens'), reasoning };
  const byDuration = cacheCreationOf(record?.cache_creation);
  if (byDuration) counts.cacheCreationByDuration = byDuration;
  return counts;
}

/**
 * Anthropic's `usage` for token counts: `input_tokens` without the cached ones, which go to `cache_read_input_tokens`,
 * nor the ones written to the cache, which go to `cache_creation_input_tokens` (each when known, the latter with its
 * `cache_creation` breakdown by duration when known), and the thinking tokens as `output_tokens_details.thinking_tokens`
 * when known.
 */
export function anthropicUsageOf(counts: TokenCounts): Record<string, number | Record<string, number>> {
  const cached = counts.cacheRead ?? 0;
  const created = counts.cacheCreation ?? 0;
  return {
    input_tokens: Math.max(0, counts.input - cached - created),
    output_tokens: counts.output,
    ...(counts.cacheCreation === undefined ? {} : { cache_creation_input_tokens: created }),
    ...(counts.cacheCreationByDuration === undefined ? {} : { cache_creation: { ...counts.cacheCreationByDuration } }),
    ...(counts.cacheRead === undefined ? {} : { cache_read_input_tokens: cached }),
    ...(counts.reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: counts.reasoning } }),
  };
}

/**
 * The stop sequence an OpenAI choice says it stopped at: a string `stop_reason` beside finish reason `stop` (as vLLM
 * answers, and the Anthropic adapter for Anthropic's `stop_sequence`); undefined otherwise.
 */
export function stopSequenceOf(choice: { finish_reason?: unknown; stop_reason?: unknown } | undefined): string | undefined {
  return choice?.finish_reason === 'stop' && typeof choice.stop_reason === 'string' ? choice.stop_reason : undefined;
}

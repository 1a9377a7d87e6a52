// Builders of OpenAI answer shapes (completion, chunk, usage) shared by the translating adapters.
import { randomBytes } from 'node:crypto';
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { isRecord } from './openai-chat.js';

/** OpenAI's finish reasons. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Anthropic's breakdown of the input written to its prompt cache by how long the cache keeps it (`usage.cache_creation`). */
export interface CacheCreationTokens {
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

/** OpenAI's `usage` object. */
export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
  /** Input tokens written to the provider's prompt cache (part of `prompt_tokens`), when the provider reports them (Anthropic). */
  cache_creation_input_tokens?: number;
  /** `cache_creation_input_tokens` by cache duration, when the provider breaks it down (Anthropic, as its own `usage.cache_creation`). */
  cache_creation?: CacheCreationTokens;
}

/** The last payload of every translated stream. */
export const DONE = '[DONE]';

/** A fresh id in OpenAI's style, e.g. `chatcmpl-3f…`. */
export function generateId(prefix = 'chatcmpl'): string {
  return `${prefix}-${randomBytes(12).toString('hex')}`;
}

/** The current time in whole seconds, as OpenAI's `created`. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** True when the client asked for a usage chunk (`stream_options.include_usage`). */
export function wantsStreamUsage(context: ProviderRequestContext): boolean {
  const options = context.body.stream_options;
  return isRecord(options) && options.include_usage === true;
}

/** Parses one upstream stream event's JSON data; throws `upstream_invalid_response` (502) when it is not an object. */
export function parseEventData(data: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw Errors.upstreamInvalidResponse([`a stream event is not JSON: ${data.slice(0, 200)}`]);
  }
  if (!isRecord(parsed)) throw Errors.upstreamInvalidResponse(['a stream event is not a JSON object']);
  return parsed;
}

/** The upstream answer as an object; throws `upstream_invalid_response` (502) otherwise. */
export function expectObject(upstream: unknown, what: string): Record<string, unknown> {
  if (!isRecord(upstream)) throw Errors.upstreamInvalidResponse([`${what} is not a JSON object`]);
  return upstream;
}

/** Fields shared by every chunk of one translated stream. */
export interface ChunkIdentity {
  id: string;
  model: string;
  created: number;
  /** When true every chunk carries `usage: null` and the usage chunk is sent, as OpenAI does. */
  includeUsage: boolean;
}

/**
 * Serialises `chat.completion.chunk` payloads of one stream.
 * @example
 * const chunks = new ChunkBuilder({ id, model, created: nowSeconds(), includeUsage: false });
 * chunks.delta({ role: 'assistant', content: '' });  // '{"id":…,"object":"chat.completion.chunk",…}'
 */
export class ChunkBuilder {
  constructor(public identity: ChunkIdentity) {}

  /** One chunk with a delta for choice 0 (or `index`), its finish reason, and `extra` members of the choice. */
  delta(delta: Record<string, unknown>, finishReason: FinishReason | null = null, index = 0, extra: Record<string, unknown> = {}): string {
    return this.serialise([{ index, delta, logprobs: null, finish_reason: finishReason, ...extra }]);
  }

  /** One chunk with a delta for choice 0 and a `usage` member however the client asked (the counts known so far). */
  deltaWithUsage(delta: Record<string, unknown>, usage: OpenAiUsage): string {
    return this.serialise([{ index: 0, delta, logprobs: null, finish_reason: null }], usage, true);
  }

  /** The usage chunk: no choices, the totals. */
  usage(usage: OpenAiUsage): string {
    return this.serialise([], usage);
  }

  private serialise(choices: unknown[], usage?: OpenAiUsage, always = false): string {
    const { id, model, created, includeUsage } = this.identity;
    const chunk: Record<string, unknown> = { id, object: 'chat.completion.chunk', created, model, choices };
    if (includeUsage || always) chunk.usage = usage ?? null;
    return JSON.stringify(chunk);
  }
}

/**
 * A `usage` object from prompt and completion counts (cache reads and writes are parts of `promptTokens`), with the
 * cache writes' breakdown by duration when known.
 */
export function usageOf(promptTokens: number, completionTokens: number, cachedTokens?: number, cacheCreationTokens?: number, cacheCreation?: CacheCreationTokens): OpenAiUsage {
  const usage: OpenAiUsage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  if (cachedTokens !== undefined) usage.prompt_tokens_details = { cached_tokens: cachedTokens };
  if (cacheCreationTokens !== undefined) usage.cache_creation_input_tokens = cacheCreationTokens;
  if (cacheCreation !== undefined) usage.cache_creation = { ...cacheCreation };
  return usage;
}

/** A number member of an object, or 0. */
export function countOf(record: unknown, key: string): number {
  return isRecord(record) && typeof record[key] === 'number' ? record[key] : 0;
}

/** The `message` of an `{error: {message}}` or `{error: "…"}` or `{message}` body, whichever is present. */
export function commonErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.length > 0 ? body : undefined;
  if (Array.isArray(body)) return commonErrorMessage(body[0]);
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  if (typeof body.error === 'string') return body.error;
  if (typeof body.message === 'string') return body.message;
  if (typeof body.detail === 'string') return body.detail;
  return undefined;
}

// One usage extractor: token counts of an answer (OpenAI, Responses, Anthropic or Gemini shape) as the same six numbers.

/**
 * Token counts of one answer, whatever the provider's shape. `cached_tokens` (read from the provider's prompt cache)
 * and `cache_write_tokens` (written to it, reported by Anthropic only) are parts of `prompt_tokens`, never overlapping;
 * `cache_write_1h_tokens` is the part of `cache_write_tokens` written to Anthropic's 1-hour cache (the rest went to the
 * 5-minute one).
 */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  total_tokens: number;
}

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A non-negative finite count, or 0: a provider's odd field never turns into NaN or a negative cost. */
const count = (record: unknown, key: string): number => {
  const value = isRecord(record) ? record[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
};

function usage(prompt: number, completion: number, cached: number, written = 0, writtenForAnHour = 0): TokenUsage {
  const read = Math.min(cached, prompt);
  const writes = Math.min(written, prompt - read);
  return { prompt_tokens: prompt, completion_tokens: completion, cached_tokens: read, cache_write_tokens: writes, cache_write_1h_tokens: Math.min(writtenForAnHour, writes), total_tokens: prompt + completion };
}

/** Anthropic's 1-hour cache writes: `cache_creation.ephemeral_1h_input_tokens` (part of `cache_creation_input_tokens`). */
const hourWrites = (raw: Fields): number => count(raw.cache_creation, 'ephemeral_1h_input_tokens');

/**
 * The token counts of a `usage` object in any of the shapes the gateway sees:
 * - OpenAI chat/completions/embeddings: `prompt_tokens`, `completion_tokens`, `prompt_tokens_details.cached_tokens`, and
 *   `cache_creation_input_tokens` (part of `prompt_tokens`) with its `cache_creation` breakdown when the Anthropic
 *   adapter translated the answer;
 * - OpenAI Responses: `input_tokens` (cached included), `output_tokens`, `input_tokens_details.cached_tokens`, and
 *   `cache_creation_input_tokens` (part of `input_tokens`) with its `cache_creation` breakdown when the gateway's
 *   Responses endpoint was answered through the Anthropic adapter;
 * - Anthropic Messages: `input_tokens` (cached left out), `cache_creation_input_tokens` (of which
 *   `cache_creation.ephemeral_1h_input_tokens` went to the 1-hour cache), `cache_read_input_tokens`, `output_tokens`;
 * - Gemini `usageMetadata`: `promptTokenCount`, `candidatesTokenCount` + `thoughtsTokenCount`, `cachedContentTokenCount`.
 * Answers null when the value carries no token count.
 */
export function normalizeUsage(raw: unknown): TokenUsage | null {
  if (!isRecord(raw)) return null;
  if ('prompt_tokens' in raw || 'completion_tokens' in raw) {
    return usage(count(raw, 'prompt_tokens'), count(raw, 'completion_tokens'), count(raw.prompt_tokens_details, 'cached_tokens'), count(raw, 'cache_creation_input_tokens'), hourWrites(raw));
  }
  if ('promptTokenCount' in raw || 'candidatesTokenCount' in raw) {
    return usage(count(raw, 'promptTokenCount'), count(raw, 'candidatesTokenCount') + count(raw, 'thoughtsTokenCount'), count(raw, 'cachedContentTokenCount'));
  }
  if (!('input_tokens' in raw) && !('output_tokens' in raw)) return null;
  // Anthropic's shape never has `input_tokens_details` (the Responses shape's), nor the Responses shape a cache read count.
  const responses = 'input_tokens_details' in raw && !('cache_read_input_tokens' in raw);
  if (!responses && ('cache_read_input_tokens' in raw || 'cache_creation_input_tokens' in raw || !('total_tokens' in raw))) {
    const cacheRead = count(raw, 'cache_read_input_tokens');
    const cacheWrite = count(raw, 'cache_creation_input_tokens');
    return usage(count(raw, 'input_tokens') + cacheWrite + cacheRead, count(raw, 'output_tokens'), cacheRead, cacheWrite, hourWrites(raw));
  }
  return usage(count(raw, 'input_tokens'), count(raw, 'output_tokens'), count(raw.input_tokens_details, 'cached_tokens'), count(raw, 'cache_creation_input_tokens'), hourWrites(raw));
}

/** The `usage` of the last stream payload that carries one (OpenAI's usage chunk comes last), or null. */
export function streamUsage(payloads: readonly string[]): Fields | null {
  for (let index = payloads.length - 1; index >= 0; index--) {
    const payload = payloads[index]!;
    if (!payload.includes('"usage"')) continue;
    try {
      const parsed = JSON.parse(payload) as { usage?: unknown; usageMetadata?: unknown };
      if (isRecord(parsed.usage)) return parsed.usage;
      if (isRecord(parsed.usageMetadata)) return parsed.usageMetadata;
    } catch {
      // a payload that is not JSON carries no usage
    }
  }
  return null;
}

/** The `usage` of a whole JSON answer (`usage`, or Gemini's `usageMetadata`), or null. */
export function answerUsage(answer: unknown): Fields | null {
  if (!isRecord(answer)) return null;
  if (isRecord(answer.usage)) return answer.usage;
  return isRecord(answer.usageMetadata) ? answer.usageMetadata : null;
}

// Token usage estimated from text, for a stream that ended before the provider reported its own (the client left, the stream broke or was cut).

/** Characters per token of the estimate: the usual rule of thumb for English text with OpenAI's and Anthropic's tokenizers. */
export const CHARS_PER_TOKEN = 4;

/**
 * A usage object in OpenAI's shape, marked `estimated: true`, for `inputChars` of prompt text and `outputChars` of
 * answer text: about one token per {@link CHARS_PER_TOKEN} characters, rounded up. Priced and counted against budgets
 * like a provider's own, so a client that leaves before a stream's usage chunk does not stream for free.
 */
export function estimatedUsage(inputChars: number, outputChars: number): Record<string, unknown> {
  const prompt = Math.ceil(inputChars / CHARS_PER_TOKEN);
  const completion = Math.ceil(outputChars / CHARS_PER_TOKEN);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, estimated: true };
}

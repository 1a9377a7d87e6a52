// Token usage estimated from text, for a request whose provider reported none (the client left, the stream broke or was cut): one rule for Chronicles, totals, budgets and metrics.
import { chunkText, requestSlots } from '../guardrails/pipeline/message-text.js';
import type { AttemptRecord } from '../records/request-records.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';

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

/**
 * Whether the client left while a provider was answering (the attempt under way, or just aborted by the client): the
 * provider was sent the prompt and bills it even though nothing of its answer was read (a JSON answer, or a stream
 * before its first event), so the request's usage is estimated from its prompt.
 */
function answering(attempt: AttemptRecord | undefined): boolean {
  return attempt !== undefined && attempt.status === null && (attempt.error === undefined || attempt.error === 'client disconnected');
}

/** The characters of a request's prompt text (token ids, which no slot reads, by their count). */
function promptChars(context: ModelRequestContext): number {
  try {
    return requestSlots(context.endpoint, context.body).reduce((sum, slot) => sum + slot.text.length, 0);
  } catch {
    const input = context.body.prompt ?? context.body.input;
    return Array.isArray(input) ? input.flat().length * CHARS_PER_TOKEN : 0;
  }
}

/**
 * The estimated usage of a finished request whose answer reported none, or null when none is estimated: a stream that
 * relayed payloads, from its prompt and the answer text they carry (`relayedChars` when the caller has joined it
 * already); a request whose client left (`left`) while a provider was answering, from its prompt alone. A call the
 * provider does not bill (`context.unbilled`: a token count) is never estimated. Callers ask only after finding no
 * reported usage (a tool loop's total included); Chronicles (and so the usage totals, budgets and token limits) and
 * the token metric and spans all count this same estimate.
 */
export function unreportedUsage(context: ModelRequestContext, left: boolean, relayedChars?: number): Record<string, unknown> | null {
  if (context.unbilled) return null;
  const payloads = context.relay?.payloads;
  if (payloads !== undefined && payloads.length > 0) {
    let chars = relayedChars;
    if (chars === undefined) {
      chars = 0;
      for (const payload of payloads) chars += chunkText(payload).length;
    }
    return estimatedUsage(promptChars(context), chars);
  }
  return left && answering(context.attempts.at(-1)) ? estimatedUsage(promptChars(context), 0) : null;
}

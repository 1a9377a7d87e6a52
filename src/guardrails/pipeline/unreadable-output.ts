// Refuses a request whose answer would carry model output its output policy cannot read or rewrite: audio, and token log probabilities under a transform.
import { Errors } from '../../errors/error-registry.js';
import type { OutputGuard } from './output-guard.js';

/** True when a body member asks for something (present, and not null, false or 0). */
const asks = (value: unknown): boolean => value !== undefined && value !== null && value !== false && value !== 0;

/**
 * Throws 400 `invalid_value` naming the member when the answer to `body` would carry output that `guard` (the
 * request's output checks) cannot hold to its policy, before any provider call:
 * - audio output (`modalities` with `"audio"`, or an `audio` member): no check reads speech, so what the model says
 *   aloud would pass every output check unread (its transcript is only a copy);
 * - under an output transform (DLP `mask`, `redact`, `replace`), token log probabilities (`logprobs`,
 *   `top_logprobs`): each token comes back as text beside the content, so the masked text could be read from them.
 * Text a policy cannot read is refused rather than passed unchecked, as input token ids are.
 */
export function refuseUnreadableOutput(body: Record<string, unknown>, guard: OutputGuard): void {
  const modalities = body.modalities;
  if (Array.isArray(modalities) && modalities.includes('audio')) throw unreadable('modalities', 'audio output, which no output check reads');
  if (asks(body.audio)) throw unreadable('audio', 'audio output, which no output check reads');
  if (!guard.transform) return;
  const tokens = 'token log probabilities, whose tokens would show the text the output policy rewrites';
  // Chat's `logprobs` is a boolean; a completion's is a number of alternatives, whose answer lists the chosen tokens even at 0.
  if (body.logprobs === true || typeof body.logprobs === 'number') throw unreadable('logprobs', tokens);
  if (asks(body.top_logprobs)) throw unreadable('top_logprobs', tokens);
}

function unreadable(param: string, what: string): Error {
  return Errors.validation([`The field '${param}' asks for ${what}; the output guardrail policy of this request cannot allow it.`], { param });
}

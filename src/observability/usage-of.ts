// Token usage and the answering model of a finished model request, read from what the proxy relayed.
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { unreportedUsage } from '../usage/usage-estimate.js';

/** Token counts and the model the provider said answered. */
export interface RequestUsage {
  input?: number;
  output?: number;
  responseModel?: string;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

function fromUsage(usage: Record<string, unknown> | null | undefined, model: unknown): RequestUsage {
  return {
    input: count(usage?.prompt_tokens ?? usage?.input_tokens),
    output: count(usage?.completion_tokens ?? usage?.output_tokens),
    responseModel: typeof model === 'string' ? model : undefined,
  };
}

/** The last stream payload that carries usage (the final chunk with `stream_options.include_usage`), parsed. */
function lastUsagePayload(payloads: readonly string[]): Record<string, unknown> | undefined {
  for (let index = payloads.length - 1; index >= 0; index--) {
    const payload = payloads[index]!;
    if (!payload.includes('"usage"')) continue;
    try {
      const parsed = JSON.parse(payload) as Record<string, unknown>;
      if (parsed.usage) return parsed;
    } catch {
      // not JSON: no usage here
    }
  }
  return undefined;
}

const answered = (attempt: { status: number | null }): boolean => attempt.status !== null && attempt.status >= 200 && attempt.status < 300;

/** Usage already read, by the answer it was read from: the attempt span, the request span and the metrics each ask once per request. */
const read = new WeakMap<object, RequestUsage>();

/**
 * The usage of a finished request: the tool loop's total, the JSON answer's, or a stream's final usage chunk; else the
 * usage Chronicles and budgets estimate for it (`left`: the client left before the answer ended; see unreportedUsage).
 */
export function usageOf(context: ModelRequestContext, left = false): RequestUsage {
  const source = context.exchange ?? context.relay;
  if (!source) return estimateOf(context, left);
  let usage = read.get(source);
  if (!usage) {
    usage = readUsage(context, left);
    read.set(source, usage);
  }
  return usage;
}

/** The estimated usage of a request whose provider reported none, as Chronicles and budgets count it; {} when none is. */
function estimateOf(context: ModelRequestContext, left: boolean): RequestUsage {
  const estimate = unreportedUsage(context, left);
  return estimate ? fromUsage(estimate, undefined) : {};
}

function readUsage(context: ModelRequestContext, left: boolean): RequestUsage {
  // The tool loop's total starts at zero: with no round answered (every attempt failed) there is no usage to report.
  if (context.exchange) return context.attempts.some(answered) ? fromUsage(context.exchange.usage, undefined) : {};
  const relay = context.relay!;
  // An answer an output check withheld was still generated and billed: its reported tokens count, as Chronicles and budgets count them.
  if (relay.rejected && relay.cutAfterChars === undefined) return relay.withheldUsage ? fromUsage(relay.withheldUsage, undefined) : estimateOf(context, left);
  const answer = relay.answer ?? relay.json;
  if (answer) return fromUsage(answer.usage as Record<string, unknown> | undefined, answer.model);
  if (relay.payloads) {
    const last = lastUsagePayload(relay.payloads);
    if (last) return fromUsage(last.usage as Record<string, unknown>, last.model);
  }
  return estimateOf(context, left);
}

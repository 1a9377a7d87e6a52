// Builds a Response object item by item, and emits the Responses streaming events as it goes.
import { randomBytes } from 'node:crypto';
import type { OutputItem, ResponseUsage } from './responses-types.js';

/** A new id with OpenAI's prefix style, e.g. `resp_…`, `mcpl_…`. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A chat answer's `usage`, with the detail members the adapters fill. */
export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** Input written to the prompt cache, a part of `prompt_tokens` (the Anthropic adapter's). */
  cache_creation_input_tokens?: number;
  /** `cache_creation_input_tokens` by cache duration (the Anthropic adapter's, when Anthropic breaks it down). */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
}

/** Where streaming events go; absent for JSON answers. */
export type EventSink = (event: Record<string, unknown> & { type: string }) => void;

/** The characters per `response.output_text.delta` event. */
const DELTA_CHARS = 48;

/** One response under construction. */
export class ResponseOutput {
  readonly output: OutputItem[] = [];
  readonly usage: ResponseUsage = {
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  private sequence = 0;

  constructor(
    private readonly base: Record<string, unknown> & { id: string },
    private readonly sink?: EventSink,
  ) {}

  private emit(type: string, payload: Record<string, unknown>): void {
    this.sink?.({ type, sequence_number: this.sequence++, ...payload });
  }

  /** The response object as it stands. */
  snapshot(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const text = this.output
      .filter((item) => item.type === 'message')
      .flatMap((item) => (item.content as Array<{ text?: unknown }>).flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])))
      .join('');
    return { ...this.base, status, output: structuredClone(this.output), output_text: text, usage: structuredClone(this.usage), ...extra };
  }

  /** Emits response.created and response.in_progress. */
  start(): void {
    this.emit('response.created', { response: this.snapshot('in_progress', { usage: null }) });
    this.emit('response.in_progress', { response: this.snapshot('in_progress', { usage: null }) });
  }

  /**
   * Adds token usage of one round, its details included: `prompt_tokens_details.cached_tokens` as
   * `input_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens` as
   * `output_tokens_details.reasoning_tokens` (each adapter reports its provider's counts in those chat members). Prompt-cache
   * writes (`cache_creation_input_tokens` and its `cache_creation` breakdown, which the Anthropic adapter adds) are
   * summed under the same names, so the request's usage prices them as the chat endpoint does.
   */
  addUsage(usage: ChatUsage | undefined): void {
    const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);
    this.usage.input_tokens += count(usage?.prompt_tokens);
    this.usage.output_tokens += count(usage?.completion_tokens);
    this.usage.total_tokens = this.usage.input_tokens + this.usage.output_tokens;
    this.usage.input_tokens_details.cached_tokens += count(usage?.prompt_tokens_details?.cached_tokens);
    this.usage.output_tokens_details.reasoning_tokens += count(usage?.completion_tokens_details?.reasoning_tokens);
    if (typeof usage?.cache_creation_input_tokens === 'number') {
      this.usage.cache_creation_input_tokens = (this.usage.cache_creation_input_tokens ?? 0) + count(usage.cache_creation_input_tokens);
    }
    const byDuration = usage?.cache_creation;
    if (typeof byDuration === 'object' && byDuration !== null) {
      const sum = (this.usage.cache_creation ??= { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 });
      sum.ephemeral_5m_input_tokens += count(byDuration.ephemeral_5m_input_tokens);
      sum.ephemeral_1h_input_tokens += count(byDuration.ephemeral_1h_input_tokens);
    }
  }

  private add(item: OutputItem): number {
    this.output.push(item);
    const index = this.output.length - 1;
    this.emit('response.output_item.added', { output_index: index, item: structuredClone(item) });
    return index;
  }

  private done(index: number): void {
    this.emit('response.output_item.done', { output_index: index, item: structuredClone(this.output[index]) });
  }

  /** An `mcp_list_tools` item, with the tools or the error. */
  listTools(item: OutputItem): void {
    const index = this.add({ ...item });
    this.emit('response.mcp_list_tools.in_progress', { output_index: index, item_id: item.id });
    this.emit(item.error ? 'response.mcp_list_tools.failed' : 'response.mcp_list_tools.completed', { output_index: index, item_id: item.id });
    this.done(index);
  }

  /** Starts an `mcp_call` item; answers its index for {@link finishCall}. */
  startCall(item: OutputItem): number {
    const index = this.add({ ...item, output: null, error: null });
    this.emit('response.mcp_call.in_progress', { output_index: index, item_id: item.id });
    this.emit('response.mcp_call_arguments.delta', { output_index: index, item_id: item.id, delta: item.arguments });
    this.emit('response.mcp_call_arguments.done', { output_index: index, item_id: item.id, arguments: item.arguments });
    return index;
  }

  /** Ends an `mcp_call` item with its output or error. */
  finishCall(index: number, outcome: { output?: string; error?: string }): void {
    const item = this.output[index]!;
    item.output = outcome.output ?? null;
    item.error = outcome.error ?? null;
    this.emit(outcome.error === undefined ? 'response.mcp_call.completed' : 'response.mcp_call.failed', { output_index: index, item_id: item.id });
    this.done(index);
  }

  /** An item that needs no progress events (`mcp_approval_request`, `function_call`). */
  whole(item: OutputItem): void {
    const index = this.add(item);
    if (item.type === 'function_call') {
      this.emit('response.function_call_arguments.delta', { output_index: index, item_id: item.id, delta: item.arguments });
      this.emit('response.function_call_arguments.done', { output_index: index, item_id: item.id, arguments: item.arguments });
    }
    this.done(index);
  }

  /**
   * The assistant's final `message` item, its text streamed as deltas; a refusal (the chat message's `refusal`) as a
   * `refusal` part. With `logprobs` (asked for with `include`), the `output_text` part and its done event carry them.
   */
  message(text: string, refusal?: string, logprobs?: unknown[]): void {
    const id = newId('msg');
    const index = this.add({ type: 'message', id, role: 'assistant', status: 'in_progress', content: [] });
    if (refusal !== undefined) {
      const part = { type: 'refusal', refusal: '' };
      this.emit('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { ...part } });
      this.emit('response.refusal.delta', { item_id: id, output_index: index, content_index: 0, delta: refusal });
      this.emit('response.refusal.done', { item_id: id, output_index: index, content_index: 0, refusal });
      part.refusal = refusal;
      this.emit('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part: { ...part } });
      Object.assign(this.output[index]!, { status: 'completed', content: [part] });
      this.done(index);
      return;
    }
    const part: Record<string, unknown> = { type: 'output_text', text: '', annotations: [] as unknown[], ...(logprobs ? { logprobs: [] } : {}) };
    this.emit('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { ...part } });
    for (let at = 0; at < text.length; at += DELTA_CHARS) {
      this.emit('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta: text.slice(at, at + DELTA_CHARS), logprobs: [] });
    }
    this.emit('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text, logprobs: logprobs ?? [] });
    part.text = text;
    if (logprobs) part.logprobs = logprobs;
    this.emit('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part: { ...part } });
    Object.assign(this.output[index]!, { status: 'completed', content: [part] });
    this.done(index);
  }

  /** Ends the response: emits response.completed (or response.incomplete) and answers the final object. */
  finish(incompleteReason?: string): Record<string, unknown> {
    const response = incompleteReason
      ? this.snapshot('incomplete', { incomplete_details: { reason: incompleteReason } })
      : this.snapshot('completed');
    this.emit(incompleteReason ? 'response.incomplete' : 'response.completed', { response });
    return response;
  }

  /** Drops the items of the given types (those carrying the model's text), for a response whose answer a guardrail withheld. */
  withhold(types: ReadonlySet<string>): void {
    for (let at = this.output.length - 1; at >= 0; at--) if (types.has(this.output[at]!.type)) this.output.splice(at, 1);
  }

  /** Ends the response as failed. */
  fail(error: { code: string; message: string }): Record<string, unknown> {
    const response = this.snapshot('failed', { error: { code: error.code, message: error.message } });
    this.emit('response.failed', { response });
    return response;
  }
}

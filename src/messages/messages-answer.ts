// OpenAI chat answers written as Anthropic Messages: a whole `message`, or a stream's events from its chunks.
import { randomBytes } from 'node:crypto';
import { Errors } from '../errors/error-registry.js';
import { anthropicStopReason, anthropicUsageOf, countsOfOpenAiUsage, stopSequenceOf } from '../../plugins/providers/anthropic/mapping.js';
import { reasoningText, streamedThinking, thinkingBlocksOf } from './messages-thinking.js';

type Json = Record<string, unknown>;

/** A new message id in Anthropic's style, for answers whose upstream id is not one. */
const messageId = (): string => `msg_${randomBytes(12).toString('hex')}`;

/** The id to answer: the upstream's when it is Anthropic's own (`msg_…`), else a new one. */
const idOf = (id: unknown): string => (typeof id === 'string' && id.startsWith('msg_') ? id : messageId());

/** The `input` of a tool call: its JSON arguments as an object, or `{}` when they are not one. */
function toolInput(args: unknown): Json {
  if (typeof args !== 'string' || args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

/**
 * An OpenAI `chat.completion` as an Anthropic `message`: thinking first (see {@link thinkingBlocksOf}), the text as a
 * text block, a `refusal` as a text block after it (with `stop_reason: "refusal"`), tool calls as `tool_use` blocks,
 * the finish reason as `stop_reason`, and usage with cached input apart.
 */
export function chatToMessage(answer: Json, model: string): Json {
  const choice = (Array.isArray(answer.choices) ? answer.choices[0] : undefined) as { message?: Json; finish_reason?: unknown; stop_reason?: unknown } | undefined;
  const message = choice?.message ?? {};
  const content: Json[] = thinkingBlocksOf(message);
  if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content });
  // An OpenAI model's refusal (structured outputs) is its answer's text, and the message stops as Anthropic's refusals do.
  const refused = typeof message.refusal === 'string' && message.refusal !== '';
  if (refused) content.push({ type: 'text', text: message.refusal });
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : []) {
    const fn = (call.function ?? {}) as Json;
    content.push({ type: 'tool_use', id: call.id, name: fn.name, input: toolInput(fn.arguments) });
  }
  return {
    id: idOf(answer.id),
    type: 'message',
    role: 'assistant',
    model: typeof answer.model === 'string' ? answer.model : model,
    content,
    ...(refused ? { stop_reason: 'refusal', stop_sequence: null } : stopOf(choice?.finish_reason ?? 'stop', stopSequenceOf(choice))),
    usage: anthropicUsageOf(countsOfOpenAiUsage(answer.usage)),
  };
}

/** `stop_reason` and `stop_sequence` of a message: `stop_sequence` and the sequence when the upstream named one. */
function stopOf(finish: unknown, sequence: string | undefined): { stop_reason: string | null; stop_sequence: string | null } {
  return sequence === undefined ? { stop_reason: anthropicStopReason(finish), stop_sequence: null } : { stop_reason: 'stop_sequence', stop_sequence: sequence };
}

/** One server-sent event in Anthropic's framing. */
const sse = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The message of an OpenAI mid-stream error payload (`{"error":{"message"}}` or `{"error":"…"}`); undefined for any other chunk. */
function streamErrorMessage(chunk: Json): string | undefined {
  const error = chunk.error;
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return error;
  const message = typeof error === 'object' ? (error as Json).message : undefined;
  return typeof message === 'string' ? message : 'an error without a message';
}

/** One streamed tool call: its `tool_use` block is open (deltas flow), pending (arguments held), or closed. */
interface StreamedCall {
  id: unknown;
  name: unknown;
  args: string;
  state: 'open' | 'pending' | 'closed';
}

/** True when a tool call's arguments so far are a whole JSON value: the call is complete. */
function wholeJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the events of one Anthropic stream from OpenAI chunk payloads: `message_start` on the first chunk (with the
 * first chunk's `usage` when it has one: the Anthropic adapter's input counts; an OpenAI-format upstream reports usage
 * only at the end, so its `message_start` counts are 0), a
 * `content_block_start`/`content_block_delta`/`content_block_stop` run per thinking text (`reasoning_content`, closed by
 * a `thinking_blocks` signature as `signature_delta`; a redacted block as it came), text (a `refusal` delta is text,
 * and makes the stop reason `refusal`) or tool call, and at the end
 * (Anthropic's blocks come one after another, while OpenAI may interleave parallel tool calls: a call that starts while
 * another's arguments are still incomplete is held and written whole, in its own block, when that block closes or at
 * the end),
 * `message_delta` (stop reason and usage, from the usage chunk) then `message_stop`. A stream that reported an error
 * (`{"error":…}`) or ended with neither a finish reason nor `[DONE]` is not ended as a finished message: `end` throws
 * `upstream_stream_error`, and the relay ends the stream with an `error` event instead.
 */
export class MessageStreamWriter {
  private started = false;
  private blocks = 0;
  private open: { kind: 'text' } | { kind: 'thinking' } | { kind: 'redacted' } | { kind: 'tool'; call: number } | undefined;
  private readonly calls = new Map<number, StreamedCall>();
  private finish: unknown = null;
  private stopSequence: string | undefined;
  private refused = false;
  private usage: unknown;
  private done = false;
  private failure: string | undefined;

  constructor(
    private readonly model: string,
    private readonly provider = 'upstream',
  ) {}

  /** The events for one OpenAI payload (`[DONE]`, unreadable payloads and anything after an error payload give none). */
  chunk(payload: string): string {
    if (this.failure !== undefined) return '';
    if (payload === '[DONE]') {
      this.done = true;
      return '';
    }
    let chunk: Json;
    try {
      chunk = JSON.parse(payload) as Json;
    } catch {
      return '';
    }
    this.failure = streamErrorMessage(chunk);
    if (this.failure !== undefined) return '';
    let out = this.start(chunk);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as { delta?: Json; finish_reason?: unknown; stop_reason?: unknown } | undefined;
    const delta = choice?.delta ?? {};
    out += this.thinking(delta);
    out += this.text(delta.content);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refused = true;
      out += this.text(delta.refusal);
    }
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : []) out += this.toolCall(call);
    if (choice?.finish_reason) {
      this.finish = choice.finish_reason;
      this.stopSequence = stopSequenceOf(choice);
    }
    return out;
  }

  /**
   * The closing events: the open block's stop, `message_delta` and `message_stop`. Throws `upstream_stream_error`
   * (502) when the upstream reported an error or ended before its finish reason and `[DONE]`.
   */
  end(): string {
    if (this.failure !== undefined) throw Errors.upstreamStreamError([this.provider, this.failure]);
    if (this.finish === null && !this.done) throw Errors.upstreamStreamError([this.provider, 'the stream ended before its finish reason']);
    const counts = countsOfOpenAiUsage(this.usage);
    return (
      this.start({}) +
      this.closeBlock() +
      this.flushPending() +
      sse('message_delta', { delta: this.refused ? { stop_reason: 'refusal', stop_sequence: null } : stopOf(this.finish ?? 'stop', this.stopSequence), usage: anthropicUsageOf(counts) }) +
      sse('message_stop', {})
    );
  }

  private start(chunk: Json): string {
    if (this.started) return '';
    this.started = true;
    const model = typeof chunk.model === 'string' && chunk.model !== '' ? chunk.model : this.model;
    const usage = typeof chunk.usage === 'object' && chunk.usage !== null ? anthropicUsageOf(countsOfOpenAiUsage(chunk.usage)) : { input_tokens: 0, output_tokens: 0 };
    const message = { id: idOf(chunk.id), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage };
    return sse('message_start', { message });
  }

  /** The events for text (a delta's content or refusal): into the open text block, opened if need be. */
  private text(text: unknown): string {
    if (typeof text !== 'string' || text === '') return '';
    const open = this.open?.kind === 'text' ? '' : this.openBlock({ kind: 'text' }, { type: 'text', text: '' });
    return open + sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'text_delta', text } });
  }

  /** The events for a delta's thinking: its text into the open thinking block (opened if need be), then its signatures and redacted blocks. */
  private thinking(delta: Json): string {
    let out = '';
    const text = reasoningText(delta);
    if (text !== undefined) {
      if (this.open?.kind !== 'thinking') out += this.openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
      out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'thinking_delta', thinking: text } });
    }
    for (const block of streamedThinking(delta)) {
      if (block.type === 'redacted_thinking') {
        out += this.openBlock({ kind: 'redacted' }, block) + this.closeBlock();
        continue;
      }
      if (this.open?.kind !== 'thinking') out += this.openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
      out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'signature_delta', signature: block.signature } }) + this.closeBlock();
    }
    return out;
  }

  /** The events for one tool call delta: into its open block, held while pending, or opening its block. */
  private toolCall(call: Json): string {
    const index = typeof call.index === 'number' ? call.index : 0;
    const fn = (call.function ?? {}) as Json;
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    let record = this.calls.get(index);
    let out = '';
    if (!record) {
      record = { id: call.id ?? messageId().replace('msg_', 'toolu_'), name: fn.name ?? '', args: '', state: 'pending' };
      this.calls.set(index, record);
      const current = this.open?.kind === 'tool' ? this.calls.get(this.open.call) : undefined;
      if (!current || wholeJson(current.args)) out += this.openTool(index, record);
    }
    if (args === '') return out;
    if (record.state === 'open') out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'input_json_delta', partial_json: args } });
    if (record.state !== 'closed') record.args += args;
    return out;
  }

  /** Opens the block of a tool call, with the arguments held while it was pending. */
  private openTool(index: number, record: StreamedCall): string {
    const held = record.args;
    let out = this.openBlock({ kind: 'tool', call: index }, { type: 'tool_use', id: record.id, name: record.name, input: {} });
    record.state = 'open';
    if (held !== '') out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'input_json_delta', partial_json: held } });
    return out;
  }

  /** The held tool calls, each in a block of its own, in call order. */
  private flushPending(): string {
    let out = '';
    for (const [index, record] of [...this.calls].sort(([a], [b]) => a - b)) {
      if (record.state === 'pending') out += this.openTool(index, record) + this.closeBlock();
    }
    return out;
  }

  private openBlock(kind: NonNullable<MessageStreamWriter['open']>, contentBlock: Json): string {
    const out = this.closeBlock() + sse('content_block_start', { index: this.blocks, content_block: contentBlock });
    this.open = kind;
    this.blocks += 1;
    return out;
  }

  private closeBlock(): string {
    if (!this.open) return '';
    if (this.open.kind === 'tool') this.calls.get(this.open.call)!.state = 'closed';
    this.open = undefined;
    return sse('content_block_stop', { index: this.blocks - 1 });
  }
}

/** An error event in Anthropic's stream framing. */
export function streamErrorEvent(error: { type: string; message: string }): string {
  return sse('error', { error });
}

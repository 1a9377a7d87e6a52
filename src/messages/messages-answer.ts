// OpenAI chat answers written as Anthropic Messages: a whole `message`, or a stream's events from its chunks.
import { randomBytes } from 'node:crypto';
import { anthropicStopReason, anthropicUsageOf, countsOfOpenAiUsage } from '../../plugins/providers/anthropic/mapping.js';

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
 * An OpenAI `chat.completion` as an Anthropic `message`: the text as a text block, tool calls as `tool_use` blocks,
 * the finish reason as `stop_reason`, and usage with cached input apart.
 */
export function chatToMessage(answer: Json, model: string): Json {
  const choice = (Array.isArray(answer.choices) ? answer.choices[0] : undefined) as { message?: Json; finish_reason?: unknown } | undefined;
  const message = choice?.message ?? {};
  const content: Json[] = [];
  if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content });
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
    stop_reason: anthropicStopReason(choice?.finish_reason ?? 'stop'),
    stop_sequence: null,
    usage: anthropicUsageOf(countsOfOpenAiUsage(answer.usage)),
  };
}

/** One server-sent event in Anthropic's framing. */
const sse = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * Writes the events of one Anthropic stream from OpenAI chunk payloads: `message_start` on the first chunk, a
 * `content_block_start`/`content_block_delta`/`content_block_stop` run per text or tool call, and at the end
 * `message_delta` (stop reason and usage, from the usage chunk) then `message_stop`.
 */
export class MessageStreamWriter {
  private started = false;
  private blocks = 0;
  private open: { kind: 'text' } | { kind: 'tool'; call: number } | undefined;
  private finish: unknown = null;
  private usage: unknown;

  constructor(private readonly model: string) {}

  /** The events for one OpenAI payload (`[DONE]` and unreadable payloads give none). */
  chunk(payload: string): string {
    if (payload === '[DONE]') return '';
    let chunk: Json;
    try {
      chunk = JSON.parse(payload) as Json;
    } catch {
      return '';
    }
    let out = this.start(chunk);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as { delta?: Json; finish_reason?: unknown } | undefined;
    const delta = choice?.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      if (this.open?.kind !== 'text') out += this.openBlock({ kind: 'text' }, { type: 'text', text: '' });
      out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'text_delta', text: delta.content } });
    }
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : []) {
      const index = typeof call.index === 'number' ? call.index : 0;
      const fn = (call.function ?? {}) as Json;
      if (this.open?.kind !== 'tool' || this.open.call !== index) {
        out += this.openBlock({ kind: 'tool', call: index }, { type: 'tool_use', id: call.id ?? messageId().replace('msg_', 'toolu_'), name: fn.name ?? '', input: {} });
      }
      if (typeof fn.arguments === 'string' && fn.arguments !== '') {
        out += sse('content_block_delta', { index: this.blocks - 1, delta: { type: 'input_json_delta', partial_json: fn.arguments } });
      }
    }
    if (choice?.finish_reason) this.finish = choice.finish_reason;
    return out;
  }

  /** The closing events: the open block's stop, `message_delta` and `message_stop`. */
  end(): string {
    const counts = countsOfOpenAiUsage(this.usage);
    return (
      this.start({}) +
      this.closeBlock() +
      sse('message_delta', { delta: { stop_reason: anthropicStopReason(this.finish ?? 'stop'), stop_sequence: null }, usage: anthropicUsageOf(counts) }) +
      sse('message_stop', {})
    );
  }

  private start(chunk: Json): string {
    if (this.started) return '';
    this.started = true;
    const model = typeof chunk.model === 'string' && chunk.model !== '' ? chunk.model : this.model;
    const message = { id: idOf(chunk.id), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    return sse('message_start', { message });
  }

  private openBlock(kind: NonNullable<MessageStreamWriter['open']>, contentBlock: Json): string {
    const out = this.closeBlock() + sse('content_block_start', { index: this.blocks, content_block: contentBlock });
    this.open = kind;
    this.blocks += 1;
    return out;
  }

  private closeBlock(): string {
    if (!this.open) return '';
    this.open = undefined;
    return sse('content_block_stop', { index: this.blocks - 1 });
  }
}

/** An error event in Anthropic's stream framing. */
export function streamErrorEvent(error: { type: string; message: string }): string {
  return sse('error', { error });
}

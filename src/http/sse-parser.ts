// Incremental server-sent events parser (WHATWG "event stream interpretation") and the matching formatter.
import { TextDecoder } from 'node:util';
import { Errors } from '../errors/error-registry.js';
import type { SseEvent } from '../plugins/plugin-types.js';

/** One parsed event: the {@link SseEvent} plus the last event ID seen, when the stream sets one. */
export interface ParsedSseEvent extends SseEvent {
  id?: string;
}

/** Options of {@link createSseParser}. */
export interface SseParserOptions {
  /**
   * Largest number of characters one pending line or event may hold before the parser gives up with
   * `upstream_invalid_response`; protects the gateway from an upstream that never ends a line. Default 16 Mi.
   */
  maxEventLength?: number;
}

/** An incremental parser: feed it chunks in order, then call `end()`. */
export interface SseParser {
  /** Parses one chunk; a chunk may split a line, a `\r\n` pair or a UTF-8 sequence anywhere. Feed bytes or strings, not both. */
  push(chunk: string | Uint8Array): void;
  /** Flushes the decoder. An event without its closing blank line is discarded, as the spec says. */
  end(): void;
}

/**
 * Creates an incremental SSE parser that calls `onEvent` once per dispatched event.
 *
 * Follows the spec: lines end with `\r\n`, `\n` or `\r`; a line starting with `:` is a comment;
 * `field: value` loses one leading space of its value; several `data:` lines join with `\n`;
 * a blank line dispatches the event (nothing is dispatched when no `data` was given); `event:` sets
 * the event type of that event only; `id:` persists across events (a value with NUL is ignored);
 * `retry:` and unknown fields are ignored; a leading byte-order mark is dropped.
 * @example
 * const parser = createSseParser((event) => console.log(event.event, event.data));
 * for await (const chunk of response.body) parser.push(chunk);
 * parser.end();
 */
export function createSseParser(onEvent: (event: ParsedSseEvent) => void, options: SseParserOptions = {}): SseParser {
  const maxLength = options.maxEventLength ?? 16 * 1024 * 1024;
  const decoder = new TextDecoder('utf-8');
  /**
   * The unfinished last line, in the parts it arrived in: a chunk without a line break only adds a part, so a line
   * that never ends costs one copy when it does (or never), not a copy of all of it per chunk (quadratic time).
   */
  let pendingParts: string[] = [];
  let pendingLength = 0;
  let sawCarriageReturn = false;
  let data: string[] = [];
  let dataLength = 0;
  let eventType: string | undefined;
  let lastEventId: string | undefined;
  let ended = false;
  let started = false;

  function dispatch(): void {
    if (data.length === 0) {
      eventType = undefined;
      return;
    }
    const event: ParsedSseEvent = { data: data.join('\n') };
    if (eventType !== undefined) event.event = eventType;
    if (lastEventId !== undefined) event.id = lastEventId;
    data = [];
    dataLength = 0;
    eventType = undefined;
    onEvent(event);
  }

  function processLine(line: string): void {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataLength += value.length + 1;
      if (dataLength > maxLength) throw Errors.upstreamInvalidResponse([`a stream event exceeds ${maxLength} characters`]);
      data.push(value);
    } else if (field === 'event') {
      eventType = value;
    } else if (field === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    }
  }

  function processText(text: string): void {
    if (!started && text.length > 0) {
      started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    if (!sawCarriageReturn && !text.includes('\n') && !text.includes('\r')) {
      pendingLength += text.length;
      if (pendingLength > maxLength) throw Errors.upstreamInvalidResponse([`a stream line exceeds ${maxLength} characters`]);
      if (text.length > 0) pendingParts.push(text);
      return;
    }
    const pending = pendingParts.length === 0 ? '' : pendingParts.length === 1 ? pendingParts[0]! : pendingParts.join('');
    let buffer = pending + text;
    let start = 0;
    // `pending` holds no line break, so the first search may skip it.
    let searchFrom = pending.length;
    if (sawCarriageReturn && buffer.startsWith('\n')) start = searchFrom = 1;
    sawCarriageReturn = false;
    for (;;) {
      const from = Math.max(start, searchFrom);
      const lf = buffer.indexOf('\n', from);
      const cr = buffer.indexOf('\r', from);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      processLine(buffer.slice(start, end));
      if (buffer[end] === '\r') {
        if (end + 1 === buffer.length) {
          sawCarriageReturn = true;
          start = end + 1;
          break;
        }
        start = buffer[end + 1] === '\n' ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
    buffer = buffer.slice(start);
    if (buffer.length > maxLength) throw Errors.upstreamInvalidResponse([`a stream line exceeds ${maxLength} characters`]);
    pendingParts = buffer === '' ? [] : [buffer];
    pendingLength = buffer.length;
  }

  return {
    push(chunk) {
      if (ended) throw new Error('The SSE parser has ended.');
      processText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (ended) return;
      ended = true;
      const rest = decoder.decode();
      if (rest) processText(rest);
      pendingParts = [];
      pendingLength = 0;
      data = [];
    },
  };
}

/**
 * Formats one payload as an SSE frame; a payload with line breaks becomes several `data:` lines.
 * @example
 * res.write(formatSse(JSON.stringify(chunk)));   // "data: {...}\n\n"
 * res.write(formatSse('[DONE]'));
 */
export function formatSse(payload: string, event?: string): string {
  if (event !== undefined && /[\r\n]/.test(event)) throw new TypeError('An SSE event name cannot contain a line break.');
  const lines = payload.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `${event === undefined ? '' : `event: ${event}\n`}${lines.join('')}\n`;
}

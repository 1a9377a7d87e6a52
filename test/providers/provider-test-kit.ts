// Shared pieces of the provider adapter tests: a context builder, and sending an adapter's request over real HTTP.
import assert from 'node:assert/strict';
import { createSseParser } from '../../src/http/sse-parser.js';
import { isGatewayError, type ProviderRequestContext, type SseEvent, type StreamTranslator, type UpstreamRequest } from '../../src/index.js';

/** A request context with defaults: chat, not streaming, one user message, no key. */
export function makeContext(type: string, overrides: Partial<ProviderRequestContext> = {}): ProviderRequestContext {
  const model = overrides.model ?? 'test-model';
  return {
    endpoint: 'chat',
    model,
    stream: false,
    body: { model, messages: [{ role: 'user', content: 'Hi' }] },
    provider: { name: `my-${type}`, type, config: {} },
    ...overrides,
  };
}

/** The request body as JSON. */
export function bodyOf(request: UpstreamRequest): Record<string, unknown> {
  return JSON.parse(request.body as string) as Record<string, unknown>;
}

/** SSE events from `[event, data]` pairs; data objects are serialised. */
export function events(...pairs: Array<[string | undefined, unknown]>): SseEvent[] {
  return pairs.map(([event, data]) => {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    return event === undefined ? { data: text } : { event, data: text };
  });
}

/** Feeds events through a translator, then ends it; answers every payload. */
export function translateAll(translator: StreamTranslator, input: SseEvent[]): string[] {
  return [...input.flatMap((event) => translator.onEvent(event)), ...translator.onEnd()];
}

/** The payloads as objects; `[DONE]` must be last and appear once. */
export function chunksOf(payloads: string[]): Array<Record<string, unknown>> {
  assert.equal(payloads.at(-1), '[DONE]');
  assert.equal(payloads.filter((payload) => payload === '[DONE]').length, 1);
  return payloads.slice(0, -1).map((payload) => JSON.parse(payload) as Record<string, unknown>);
}

/** The deltas of choice 0 of chunks, in order (the usage chunk has none). */
export function deltasOf(chunks: Array<Record<string, unknown>>): unknown[] {
  return chunks.flatMap((chunk) => (chunk.choices as Array<{ delta: unknown }>).map((choice) => choice.delta));
}

/** The concatenated text of a stream's content deltas. */
export function streamedText(chunks: Array<Record<string, unknown>>): string {
  return deltasOf(chunks).map((delta) => (delta as { content?: string }).content ?? '').join('');
}

/** Asserts that `fn` throws a GatewayError with this code and status. */
export function assertCoded(fn: () => unknown, code: string, statusCode: number): void {
  assert.throws(fn, (error: unknown) => isGatewayError(error) && error.code === code && error.statusCode === statusCode);
}

/** Sends the request and parses the JSON answer. */
export async function sendJson(request: UpstreamRequest): Promise<{ status: number; body: unknown }> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: await response.json() };
}

/** Sends the request, parses the SSE answer as bytes arrive, and feeds each event to the translator (when given). */
export async function sendStream(request: UpstreamRequest, translator?: StreamTranslator): Promise<{ events: SseEvent[]; payloads: string[] }> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
  const received: SseEvent[] = [];
  const payloads: string[] = [];
  const parser = createSseParser((event) => {
    received.push(event);
    if (translator) payloads.push(...translator.onEvent(event));
  });
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) parser.push(chunk);
  parser.end();
  if (translator) payloads.push(...translator.onEnd());
  return { events: received, payloads };
}

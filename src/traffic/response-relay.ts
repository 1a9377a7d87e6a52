// Writes a successful upstream answer to the client: JSON as is or translated, streams chunk by chunk, checked when a policy asks.
import type { Response } from 'express';
import { toGatewayError } from '../errors/error-middleware.js';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import { chunkChoiceTexts, chunkText } from '../guardrails/pipeline/message-text.js';
import { DEFAULT_WINDOWING, type OutputGuard } from '../guardrails/pipeline/output-guard.js';
import { createSseParser, formatSse } from '../http/sse-parser.js';
import type { ProviderPlugin, ProviderRequestContext } from '../plugins/plugin-types.js';
import { SecretFormMatcher } from '../secrets/secret-form-matcher.js';
import { StreamGate } from './stream-gate.js';
import { StreamTextKeyMask } from './stream-text-key-mask.js';
import { StreamTextTransform } from './stream-text-transform.js';
import type { UpstreamResponse } from './upstream-client.js';
import { withoutProviderKey } from './upstream-error.js';
import { withoutStreamUsage } from '../usage/stream-usage.js';
import { answerUsage } from '../usage/usage-extractor.js';

/** What the relay saw of an answer, for the request log. */
export interface RelayOutcome {
  /** The answer in OpenAI's format as sent (JSON answers only). */
  bytes?: Buffer;
  /** The answer as parsed when it was checked (JSON answers only), so the request log need not parse it again. */
  answer?: Record<string, unknown>;
  /** The OpenAI-format stream payloads, in order (streams only); under an output transform, transformed, as sent. */
  payloads?: string[];
  /** The error the stream was cut with, after its first byte. */
  streamError?: string;
  /**
   * The answer broke off on the provider's side (it failed, or stalled past the timeout) after it began, while the
   * client was still there. A raw relay then has to drop the connection, which is not the client leaving (499).
   */
  brokeOff?: boolean;
  /** An output check withheld the answer: this error is answered instead (JSON) or ended the stream. */
  rejected?: GatewayError;
  /**
   * The provider's usage of a JSON answer an output check withheld (OpenAI's shape): the provider billed it, so it is
   * priced and counted against budgets and token limits like a sent answer's, though its text is not kept.
   */
  withheldUsage?: Record<string, unknown>;
  /** A stream an output check cut: how many characters of answer text the client had received. */
  cutAfterChars?: number;
  /** The answer in OpenAI's format, when it was captured rather than sent. */
  json?: Record<string, unknown>;
  /**
   * The forms of the attempt's provider key (streams only): a text joined from `payloads` (the stream's answer the
   * response cache assembles) is masked with them, as a key cut across two events is whole there.
   */
  keyForms?: SecretFormMatcher;
}

/** The framing of one stream for an endpoint that speaks another API; each method answers the text to write ('' for none). */
export interface StreamFraming {
  /** The frames for one OpenAI-format payload. */
  chunk(payload: string): string;
  /** The frames after the last payload. */
  end(): string;
  /** The frame that ends a stream cut by an error. */
  error(error: GatewayError): string;
}

/** How an endpoint that speaks another API (POST /v1/messages) writes answers; without it, OpenAI's format is written. */
export interface AnswerFormat {
  /** The JSON answer to send, from the OpenAI-format one (after output checks). */
  json(answer: Record<string, unknown>, model: string): Record<string, unknown>;
  /** The framing of one stream from the provider named `provider`. */
  stream(model: string, provider: string): StreamFraming;
}

/** The headers of every SSE answer the gateway writes. */
export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** One OpenAI-format payload as an SSE event (a payload with line breaks, as several `data:` lines). */
const frame = (payload: string): string => (payload.includes('\n') ? formatSse(payload) : `data: ${payload}\n\n`);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw Errors.upstreamInvalidResponse(['the answer is not JSON']);
  }
}

/** Sends a JSON answer with writeHead/end: no ETag hashing or content-type negotiation on the model path. */
function sendJson(res: Response, bytes: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

/** A whole answer's bytes, at most `upstream.maxAnswerBytes` of them: past it the body is dropped and the answer is a 502. */
async function readBounded(upstream: UpstreamResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const part of upstream.body as AsyncIterable<Buffer>) {
    length += part.length;
    if (length > upstream.maxAnswerBytes) {
      upstream.body.destroy();
      throw Errors.upstreamInvalidResponse([`the answer is over the limit of ${upstream.maxAnswerBytes} bytes`]);
    }
    parts.push(part);
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
}

/**
 * Reads a whole answer: its text with every form of the attempt's provider key masked (an upstream may echo the key
 * it was sent, as is or encoded), and its bytes, the upstream's own unless a form was masked.
 */
async function readUnechoed(upstream: UpstreamResponse, context: ProviderRequestContext): Promise<{ bytes: Buffer; text: string }> {
  const bytes = await readBounded(upstream);
  const text = bytes.toString('utf8');
  const masked = SecretFormMatcher.of(context.apiKey?.value, 'text')?.mask(text) ?? text;
  return masked === text ? { bytes, text } : { bytes: Buffer.from(masked, 'utf8'), text: masked };
}

/**
 * Reads a whole JSON answer and sends it: compatible answers byte for byte (once they parse as JSON; every form of the
 * provider key masked), others translated. With an output guard, the answer is checked (and DLP-transformed) first, and
 * withheld when rejected. An answer that is not JSON throws 502 `upstream_invalid_response` before
 * anything is sent, so the proxy may retry or fall back as for a network failure.
 */
export async function relayJson(
  res: Response,
  upstream: UpstreamResponse,
  adapter: ProviderPlugin,
  context: ProviderRequestContext,
  guard?: OutputGuard,
  format?: AnswerFormat,
): Promise<RelayOutcome> {
  const { bytes, text } = await readUnechoed(upstream, context);
  const compatible = adapter.openaiCompatible || !adapter.translateResponse;
  if (compatible && !guard && !format) {
    const parsed = parseJson(text);
    if (parsed === null || typeof parsed !== 'object') throw Errors.upstreamInvalidResponse(['the answer is not a JSON object']);
    sendJson(res, bytes);
    return { bytes, answer: parsed as Record<string, unknown> };
  }
  const parsed = parseJson(text);
  const answer = compatible ? (parsed as Record<string, unknown>) : adapter.translateResponse!(parsed, context);
  const rejected = await guard?.checkAnswer(answer);
  if (rejected) {
    const usage = answerUsage(answer);
    return usage ? { rejected, withheldUsage: usage } : { rejected };
  }
  const sent = Buffer.from(JSON.stringify(format ? format.json(answer, context.model) : answer));
  sendJson(res, sent);
  return { bytes: sent, answer };
}

/** Reads a whole JSON answer and keeps it, translated into OpenAI's format, for the caller (the Responses tool loop). */
export async function captureJson(upstream: UpstreamResponse, adapter: ProviderPlugin, context: ProviderRequestContext): Promise<RelayOutcome> {
  const parsed = parseJson((await readUnechoed(upstream, context)).text);
  const compatible = adapter.openaiCompatible || !adapter.translateResponse;
  return { json: compatible ? (parsed as Record<string, unknown>) : adapter.translateResponse!(parsed, context) };
}

/**
 * Relays a stream. The first upstream chunk is read and translated before anything is written, so a failure
 * before the first byte, or in the first chunk's events, can still be retried or fall back (it is thrown). After that, a failure or
 * an output check that rejects ends the stream with an SSE `error` event, never a silent clean end.
 * With `hideUsage`, usage stays in `payloads` (for the request log) but is not sent: the usage-only chunk is dropped and
 * the `usage` member of other chunks taken out. Every form of the provider key (as is, any case, base64, URL, hex) is
 * masked in what is sent and in `payloads` (which the response cache keeps), a form split across chunks or across
 * events included: with a key, the stream goes event by event, and the texts a client joins (content, tool-call
 * arguments, refusals, reasoning, completion text) are held back only as far as their end may begin a form
 * ({@link StreamTextKeyMask}). Without one (and without reframing or usage to take out), it goes byte for byte.
 */
export async function relayStream(
  res: Response,
  upstream: UpstreamResponse,
  adapter: ProviderPlugin,
  context: ProviderRequestContext,
  onChunk: () => void,
  guard?: OutputGuard,
  payloads: string[] = [],
  framing?: StreamFraming,
  hideUsage = false,
): Promise<RelayOutcome> {
  const iterator = (upstream.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  onChunk();
  const translator = adapter.openaiCompatible ? undefined : adapter.createStreamTranslator?.(context);
  const gate = new StreamGate(res, guard);
  const forms = SecretFormMatcher.of(context.apiKey?.value, 'text');
  // The texts a client joins are masked as joined: a key cut across events (delta by delta) is caught too.
  const split = forms && new StreamTextKeyMask(forms);
  // Under an output transform, the provider's payloads wait in `incoming` to be transformed, and `payloads` holds what is sent.
  const transform = guard?.transform && new StreamTextTransform(guard.transform, guard.windowing.holdChars ?? DEFAULT_WINDOWING.holdChars!, guard.windowing.stepChars);
  const incoming: string[] = transform ? [] : payloads;
  const accept = (payload: string): void => {
    if (split) split.push(payload, incoming);
    else incoming.push(payload);
  };
  const parser = createSseParser((event) => {
    if (translator) for (const payload of translator.onEvent(event)) accept(payload);
    else accept(event.data);
  });
  // Byte for byte only when there is no key to mask, no reframing, no usage chunk the gateway asked for to take out, and no
  // output check: a check releases whole events, never the start of one whose text it has not read yet.
  const bytewise = !guard && !translator && !framing && !hideUsage && !forms;
  /** Sends a chunk whose events the parser has read (`before`: the payloads there were before them). */
  const sendParsed = async (chunk: Buffer, before: number): Promise<GatewayError | undefined> => {
    if (bytewise) return gate.push(chunk, []);
    return transform ? transformIncoming() : sendPayloads(before);
  };
  const forward = async (chunk: Buffer): Promise<GatewayError | undefined> => {
    const before = payloads.length;
    parser.push(chunk);
    return sendParsed(chunk, before);
  };
  // The usage the gateway asked for is kept from an OpenAI-format client; a reframed stream (Anthropic's) reports usage itself.
  const shown = hideUsage && !framing ? withoutStreamUsage : (payload: string): string | undefined => payload;
  const framed = (from: number): string => {
    let text = '';
    for (let index = from; index < payloads.length; index++) {
      const payload = shown(payloads[index]!);
      if (payload !== undefined) text += framing ? framing.chunk(payload) : frame(payload);
    }
    return text;
  };
  const sendPayloads = async (from: number): Promise<GatewayError | undefined> => {
    if (!guard) {
      // Unchecked: the chunk's events in one write.
      const text = framed(from);
      return text === '' ? undefined : gate.push(text, []);
    }
    for (let index = from; index < payloads.length; index++) {
      const payload = shown(payloads[index]!);
      if (payload === undefined) continue;
      const frames = framing ? framing.chunk(payload) : frame(payload);
      // A payload that writes nothing yet (a tool call the framing holds to write whole later) still adds its text.
      const rejected = await gate.push(frames, chunkChoiceTexts(payload));
      if (rejected) return rejected;
    }
    return undefined;
  };
  // Each provider payload is transformed and what it releases goes out; checks read the provider's text, as a JSON answer's do.
  const transformIncoming = async (end = false): Promise<GatewayError | undefined> => {
    const pushed = async (added: ReadonlyArray<[string, string]>, work: (from: number) => Promise<void>): Promise<GatewayError | undefined> => {
      const from = payloads.length;
      try {
        await work(from);
      } catch (error) {
        return toGatewayError(error);
      }
      return gate.push(framed(from), added, payloads.length);
    };
    for (const payload of incoming.splice(0)) {
      const rejected = await pushed(chunkChoiceTexts(payload), () => transform!.push(payload, payloads));
      if (rejected) return rejected;
    }
    return end ? pushed([], () => transform!.end(payloads)) : undefined;
  };
  const cut = (error: GatewayError): void => {
    if (!res.destroyed) res.end(framing ? framing.error(error) : `event: error\ndata: ${JSON.stringify(error.toJSON())}\n\n`);
  };
  // The stream's events are kept while it flows (the log, the cache): past maxStreamBytes it is cut, not held on.
  let streamed = 0;
  const counted = (chunk: Buffer): Buffer => {
    streamed += chunk.length;
    if (streamed <= upstream.maxStreamBytes) return chunk;
    upstream.body.destroy();
    throw Errors.upstreamStreamError([context.provider.name, `the stream went over the limit of ${upstream.maxStreamBytes} bytes`]);
  };
  // The first chunk's events are translated before the answer starts: an upstream whose first events say it failed (an
  // error event, a finish reason saying the model failed) throws here, so it is retried or falls back.
  const firstBefore = payloads.length;
  const firstChunk = first.done ? undefined : counted(first.value);
  if (firstChunk) parser.push(firstChunk);
  res.status(200).set(SSE_HEADERS);
  res.flushHeaders();
  try {
    let rejected = firstChunk ? await sendParsed(firstChunk, firstBefore) : undefined;
    for (let next = rejected ? undefined : await iterator.next(); next && !next.done; next = rejected ? undefined : await iterator.next()) {
      onChunk();
      rejected = await forward(counted(next.value));
    }
    if (!rejected) {
      parser.end();
      if (!bytewise) {
        // The translator's last payloads, then whatever text is still held (a stream that ended without `[DONE]`).
        const before = payloads.length;
        if (translator) for (const payload of translator.onEnd()) accept(payload);
        split?.end(incoming);
        rejected = transform ? await transformIncoming(true) : await sendPayloads(before);
      }
      if (!rejected && framing) rejected = await gate.push(framing.end(), []);
    }
    rejected ??= await gate.finish();
    if (rejected) {
      upstream.body.destroy();
      cut(rejected);
      // Transformed payloads the gate still held were never sent: the log keeps what the client got.
      if (transform) payloads.length = gate.sentPayloads;
      const cutAfterChars = transform ? payloads.map(chunkText).join('').length : gate.sentChars;
      return { payloads, rejected, streamError: rejected.message, cutAfterChars };
    }
    res.end();
    return forms ? { payloads, keyForms: forms } : { payloads };
  } catch (error) {
    const gatewayError = toGatewayError(error);
    // Translators build these from the upstream's events, which may echo the key it was sent.
    const failure = gatewayError.code === 'internal_error' ? Errors.upstreamStreamError([context.provider.name, 'the stream broke off']) : withoutProviderKey(gatewayError, context.apiKey?.value);
    cut(failure);
    return { payloads, streamError: failure.message };
  }
}

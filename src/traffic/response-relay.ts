// Writes a successful upstream answer to the client: JSON as is or translated, streams chunk by chunk, checked when a policy asks.
import { once } from 'node:events';
import type { Response } from 'express';
import { toGatewayError } from '../errors/error-middleware.js';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import { chunkChoiceTexts, chunkText } from '../guardrails/pipeline/message-text.js';
import type { OutputGuard } from '../guardrails/pipeline/output-guard.js';
import { createSseParser, formatSse } from '../http/sse-parser.js';
import type { ProviderPlugin, ProviderRequestContext } from '../plugins/plugin-types.js';
import { SecretFormMatcher } from '../secrets/secret-form-matcher.js';
import { StreamTextKeyMask } from './stream-text-key-mask.js';
import type { UpstreamResponse } from './upstream-client.js';
import { withoutProviderKey } from './upstream-error.js';
import { withoutStreamUsage } from '../usage/stream-usage.js';

/** What the relay saw of an answer, for the request log. */
export interface RelayOutcome {
  /** The answer in OpenAI's format as sent (JSON answers only). */
  bytes?: Buffer;
  /** The answer as parsed when it was checked (JSON answers only), so the request log need not parse it again. */
  answer?: Record<string, unknown>;
  /** The OpenAI-format stream payloads, in order (streams only). */
  payloads?: string[];
  /** The error the stream was cut with, after its first byte. */
  streamError?: string;
  /** An output check withheld the answer: this error is answered instead (JSON) or ended the stream. */
  rejected?: GatewayError;
  /** A stream an output check cut: how many characters of answer text the client had received. */
  cutAfterChars?: number;
  /**
   * A stream's text as the request log keeps it, when the policy's output DLP transformed it (null: the transform
   * failed, so no text is kept); the client got the stream as it came. See {@link OutputGuard.recordedText}.
   */
  recordedOutput?: string | null;
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

/** Writes and waits for drain when the socket's buffer is full. */
async function write(res: Response, chunk: string | Uint8Array): Promise<void> {
  if (!res.write(chunk) && !res.destroyed) await once(res, 'drain');
}

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

/**
 * Reads a whole answer: its text with every form of the attempt's provider key masked (an upstream may echo the key
 * it was sent, as is or encoded), and its bytes, the upstream's own unless a form was masked.
 */
async function readUnechoed(upstream: UpstreamResponse, context: ProviderRequestContext): Promise<{ bytes: Buffer; text: string }> {
  const bytes = Buffer.from(await upstream.body.arrayBuffer());
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
  if (rejected) return { rejected };
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

/** Holds streamed output until its window passes the output checks (reject mode), or lets it flow. */
class StreamGate {
  private held: Array<string | Uint8Array> = [];
  private heldChars = 0;
  private totalChars = 0;
  /**
   * Each text so far (per choice: content, refusal, reasoning, each tool call's arguments; see chunkChoiceTexts), and how
   * many of its characters are held: each is checked on its own.
   */
  private readonly choices = new Map<string, { text: string; held: number }>();

  constructor(
    private readonly res: Response,
    private readonly guard: OutputGuard | undefined,
  ) {}

  /** Queues output carrying `added` text (per text key); checks and releases it when enough text is held. */
  async push(chunk: string | Uint8Array, added: ReadonlyArray<[string, string]>): Promise<GatewayError | undefined> {
    if (!this.guard) {
      await write(this.res, chunk);
      return undefined;
    }
    for (const [index, text] of added) {
      const choice = this.choices.get(index);
      if (choice) {
        choice.text += text;
        choice.held += text.length;
      } else this.choices.set(index, { text, held: text.length });
      this.heldChars += text.length;
      this.totalChars += text.length;
    }
    this.held.push(chunk);
    if (!this.guard.blocking) return this.release();
    return this.heldChars >= this.guard.windowing.stepChars ? this.check() : undefined;
  }

  /** Characters of answer text written to the client so far (checked text minus what is still held). */
  get sentChars(): number {
    return this.totalChars - this.heldChars;
  }

  /** Checks at the end of the stream: the last window in reject mode, the whole text in inspect mode. */
  async finish(): Promise<GatewayError | undefined> {
    return this.guard ? this.check(!this.guard.blocking) : undefined;
  }

  private async check(whole = false): Promise<GatewayError | undefined> {
    // Each choice's window reaches back over all its held text, however much one chunk brought: nothing is released unchecked.
    const windowChars = this.guard!.windowing.windowChars;
    const windows = [...this.choices.values()].map((choice) => (whole ? choice.text : choice.text.slice(-Math.max(windowChars, choice.held))));
    const rejected = await this.guard!.checkWindows(windows.length > 0 ? windows : ['']);
    if (rejected) return rejected;
    return this.release();
  }

  private async release(): Promise<undefined> {
    for (const chunk of this.held) if (chunk.length > 0) await write(this.res, chunk);
    this.held = [];
    this.heldChars = 0;
    for (const choice of this.choices.values()) choice.held = 0;
    return undefined;
  }
}

/**
 * Relays a stream. The first upstream chunk is read before anything is written, so a failure
 * before the first byte can still be retried or fall back (it is thrown). After that, a failure or
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
  res.status(200).set(SSE_HEADERS);
  res.flushHeaders();
  const translator = adapter.openaiCompatible ? undefined : adapter.createStreamTranslator?.(context);
  const gate = new StreamGate(res, guard);
  const forms = SecretFormMatcher.of(context.apiKey?.value, 'text');
  // The texts a client joins are masked as joined: a key cut across events (delta by delta) is caught too.
  const split = forms && new StreamTextKeyMask(forms);
  const accept = (payload: string): void => {
    if (split) split.push(payload, payloads);
    else payloads.push(payload);
  };
  const parser = createSseParser((event) => {
    if (translator) for (const payload of translator.onEvent(event)) accept(payload);
    else accept(event.data);
  });
  // Byte for byte only when there is no key to mask, no reframing, no usage chunk the gateway asked for to take out, and no
  // output check: a check releases whole events, never the start of one whose text it has not read yet.
  const bytewise = !guard && !translator && !framing && !hideUsage && !forms;
  const forward = async (chunk: Buffer): Promise<GatewayError | undefined> => {
    const before = payloads.length;
    parser.push(chunk);
    if (bytewise) return gate.push(chunk, []);
    return sendPayloads(before);
  };
  // The usage the gateway asked for is kept from an OpenAI-format client; a reframed stream (Anthropic's) reports usage itself.
  const shown = hideUsage && !framing ? withoutStreamUsage : (payload: string): string | undefined => payload;
  const sendPayloads = async (from: number): Promise<GatewayError | undefined> => {
    if (!guard) {
      // Unchecked: the chunk's events in one write.
      let text = '';
      for (let index = from; index < payloads.length; index++) {
        const payload = shown(payloads[index]!);
        if (payload !== undefined) text += framing ? framing.chunk(payload) : frame(payload);
      }
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
  const cut = (error: GatewayError): void => {
    if (!res.destroyed) res.end(framing ? framing.error(error) : `event: error\ndata: ${JSON.stringify(error.toJSON())}\n\n`);
  };
  try {
    let rejected = first.done ? undefined : await forward(first.value);
    for (let next = rejected ? undefined : await iterator.next(); next && !next.done; next = rejected ? undefined : await iterator.next()) {
      onChunk();
      rejected = await forward(next.value);
    }
    if (!rejected) {
      parser.end();
      if (!bytewise) {
        // The translator's last payloads, then whatever text is still held (a stream that ended without `[DONE]`).
        const before = payloads.length;
        if (translator) for (const payload of translator.onEnd()) accept(payload);
        split?.end(payloads);
        rejected = await sendPayloads(before);
      }
      if (!rejected && framing) rejected = await gate.push(framing.end(), []);
    }
    rejected ??= await gate.finish();
    // The log's copy of the text, with the output DLP transform (worked out before the end, so the entry has it).
    const sentText = (): string => payloads.map(chunkText).join('').slice(0, rejected ? gate.sentChars : undefined);
    const recordedOutput = guard?.transformsRecord ? await guard.recordedText(sentText()) : undefined;
    const recorded = recordedOutput === undefined ? {} : { recordedOutput };
    if (rejected) {
      upstream.body.destroy();
      cut(rejected);
      return { payloads, rejected, streamError: rejected.message, cutAfterChars: gate.sentChars, ...recorded };
    }
    res.end();
    return forms ? { payloads, keyForms: forms, ...recorded } : { payloads, ...recorded };
  } catch (error) {
    const gatewayError = toGatewayError(error);
    // Translators build these from the upstream's events, which may echo the key it was sent.
    const failure = gatewayError.code === 'internal_error' ? Errors.upstreamStreamError([context.provider.name, 'the stream broke off']) : withoutProviderKey(gatewayError, context.apiKey?.value);
    cut(failure);
    return { payloads, streamError: failure.message };
  }
}

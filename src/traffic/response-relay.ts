// Writes a successful upstream answer to the client: JSON as is or translated, streams chunk by chunk without buffering.
import { once } from 'node:events';
import type { Response } from 'express';
import { toGatewayError } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { ProviderPlugin, ProviderRequestContext } from '../plugins/plugin-types.js';
import { createSseParser } from '../http/sse-parser.js';
import type { UpstreamResponse } from './upstream-client.js';

/** What the relay saw of an answer, for the request log. */
export interface RelayOutcome {
  /** The answer in OpenAI's format as sent (JSON answers only); parse it off the request path. */
  bytes?: Buffer;
  /** The OpenAI-format stream payloads, in order (streams only). */
  payloads?: string[];
  /** The error the stream was cut with, after its first byte. */
  streamError?: string;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** Writes and waits for drain when the socket's buffer is full. */
async function write(res: Response, chunk: string | Uint8Array): Promise<void> {
  if (!res.write(chunk) && !res.destroyed) await once(res, 'drain');
}

/** Reads a whole JSON answer and sends it: compatible answers byte for byte, others translated. */
export async function relayJson(
  res: Response,
  upstream: UpstreamResponse,
  adapter: ProviderPlugin,
  context: ProviderRequestContext,
): Promise<RelayOutcome> {
  const bytes = Buffer.from(await upstream.body.arrayBuffer());
  if (adapter.openaiCompatible || !adapter.translateResponse) {
    res.status(200).type('application/json').end(bytes);
    return { bytes };
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw Errors.upstreamInvalidResponse(['the answer is not JSON']);
  }
  const translated = Buffer.from(JSON.stringify(adapter.translateResponse(json, context)));
  res.status(200).type('application/json').end(translated);
  return { bytes: translated };
}

/**
 * Relays a stream. The first upstream chunk is read before anything is written, so a failure
 * before the first byte can still be retried or fall back (it is thrown). After that, a failure
 * ends the stream with an SSE `error` event, never a silent clean end.
 */
export async function relayStream(
  res: Response,
  upstream: UpstreamResponse,
  adapter: ProviderPlugin,
  context: ProviderRequestContext,
  onChunk: () => void,
): Promise<RelayOutcome> {
  const iterator = (upstream.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  onChunk();
  res.status(200).set(SSE_HEADERS);
  res.flushHeaders();
  const payloads: string[] = [];
  const translator = adapter.openaiCompatible ? undefined : adapter.createStreamTranslator?.(context);
  const pending: string[] = [];
  const parser = createSseParser((event) => {
    if (translator) for (const payload of translator.onEvent(event)) pending.push(payload);
    else payloads.push(event.data);
  });
  const forward = async (chunk: Buffer): Promise<void> => {
    parser.push(chunk);
    if (!translator) {
      await write(res, chunk);
      return;
    }
    for (const payload of pending.splice(0)) {
      payloads.push(payload);
      await write(res, `data: ${payload}\n\n`);
    }
  };
  try {
    if (!first.done) await forward(first.value);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      onChunk();
      await forward(next.value);
    }
    parser.end();
    if (translator) {
      for (const payload of [...pending.splice(0), ...translator.onEnd()]) {
        payloads.push(payload);
        await write(res, `data: ${payload}\n\n`);
      }
    }
    res.end();
    return { payloads };
  } catch (error) {
    const gatewayError = toGatewayError(error);
    const failure = gatewayError.code === 'internal_error' ? Errors.upstreamStreamError([context.provider.name, 'the stream broke off']) : gatewayError;
    if (!res.destroyed) res.end(`event: error\ndata: ${JSON.stringify(failure.toJSON())}\n\n`);
    return { payloads, streamError: failure.message };
  }
}

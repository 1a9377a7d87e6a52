// Relays an answer that is not a chat answer (audio, images, transcripts) byte for byte, with its content type, without buffering it.
import { once } from 'node:events';
import type { Response } from 'express';
import { Errors } from '../errors/error-registry.js';
import { ChunkedSecretMask } from '../secrets/chunked-secret-mask.js';
import type { RelayOutcome } from './response-relay.js';
import type { UpstreamResponse } from './upstream-client.js';
import { maskProviderKey } from './upstream-error.js';
import { TranscriptStreamReader } from './transcript-stream-reader.js';

/** JSON answers up to this size are also parsed for the request log (usage); larger ones only pass through. */
const MAX_LOGGED_JSON_BYTES = 1024 * 1024;

/** Media bodies (audio, video, raster images) relayed unmasked: binary data, not text a client reads (README, "Provider keys in answers"). */
const MEDIA_TYPE = /^\s*(?:audio|video)\/|^\s*image\/(?!svg)/i;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Writes the upstream answer as it arrives, keeping its `content-type` (and `content-length` when given). The first
 * chunk is read before anything is written, so a failure before it can still be retried or fall back (it is thrown);
 * after that, a failure destroys the connection, as a byte stream has no way to carry an error. A JSON answer of up
 * to 1 MB is kept, parsed, for the request log. Every form of the provider key `secret` (as is, any case, base64, URL,
 * hex) is masked in the content type and in any body but a media one (audio, video, raster image); a masked body is
 * sent without `content-length`, as masking may change its length, and holds back at most a key's encoded length.
 * An event stream (a streamed transcription) is read as it is sent, for its text and usage (see TranscriptStreamReader).
 */
export async function relayRaw(res: Response, upstream: UpstreamResponse, onChunk: () => void, secret?: string): Promise<RelayOutcome> {
  const iterator = (upstream.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  onChunk();
  const type = maskProviderKey(single(upstream.headers['content-type']) ?? 'application/octet-stream', secret);
  const mask = MEDIA_TYPE.test(type) ? undefined : ChunkedSecretMask.of(secret);
  const length = mask ? undefined : single(upstream.headers['content-length']);
  res.writeHead(200, { 'content-type': type, ...(length && /^\d+$/.test(length) ? { 'content-length': length } : {}) });
  let kept: Buffer[] | undefined = /\bjson\b/i.test(type) ? [] : undefined;
  // An event stream here is a streamed transcription: its text and usage are read as it passes, for the request log.
  const transcript = /^\s*text\/event-stream\b/i.test(type) ? new TranscriptStreamReader() : undefined;
  let size = 0;
  const send = async (bytes: Buffer): Promise<void> => {
    if (bytes.length === 0) return;
    size += bytes.length;
    transcript?.read(bytes);
    if (kept && size <= MAX_LOGGED_JSON_BYTES) kept.push(bytes);
    else kept = undefined;
    if (!res.write(bytes) && !res.destroyed) await once(res, 'drain');
  };
  try {
    for (let next = first; !next.done; next = await iterator.next()) {
      onChunk();
      await send(mask ? mask.chunk(next.value) : next.value);
    }
    if (mask) await send(mask.flush());
  } catch (error) {
    res.destroy();
    return { streamError: Errors.upstreamStreamError(['upstream', maskProviderKey((error as Error).message ?? 'the answer broke off', secret)]).message };
  }
  res.end();
  const heard = transcript?.answer();
  if (heard) return { answer: heard };
  if (!kept) return {};
  try {
    const bytes = Buffer.concat(kept);
    const answer: unknown = JSON.parse(bytes.toString('utf8'));
    return answer !== null && typeof answer === 'object' ? { bytes, answer: answer as Record<string, unknown> } : {};
  } catch {
    return {};
  }
}

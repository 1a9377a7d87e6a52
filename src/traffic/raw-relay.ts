// Relays an answer that is not a chat answer (audio, images, transcripts) byte for byte, with its content type, without buffering it.
import { once } from 'node:events';
import type { Response } from 'express';
import { Errors } from '../errors/error-registry.js';
import type { RelayOutcome } from './response-relay.js';
import type { UpstreamResponse } from './upstream-client.js';

/** JSON answers up to this size are also parsed for the request log (usage); larger ones only pass through. */
const MAX_LOGGED_JSON_BYTES = 1024 * 1024;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Writes the upstream answer as it arrives, keeping its `content-type` (and `content-length` when given). The first
 * chunk is read before anything is written, so a failure before it can still be retried or fall back (it is thrown);
 * after that, a failure destroys the connection, as a byte stream has no way to carry an error. A JSON answer of up
 * to 1 MB is kept, parsed, for the request log.
 */
export async function relayRaw(res: Response, upstream: UpstreamResponse, onChunk: () => void): Promise<RelayOutcome> {
  const iterator = (upstream.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  onChunk();
  const type = single(upstream.headers['content-type']) ?? 'application/octet-stream';
  const length = single(upstream.headers['content-length']);
  res.writeHead(200, { 'content-type': type, ...(length && /^\d+$/.test(length) ? { 'content-length': length } : {}) });
  let kept: Buffer[] | undefined = /\bjson\b/i.test(type) ? [] : undefined;
  let size = 0;
  try {
    for (let next = first; !next.done; next = await iterator.next()) {
      onChunk();
      size += next.value.length;
      if (kept && size <= MAX_LOGGED_JSON_BYTES) kept.push(next.value);
      else kept = undefined;
      if (!res.write(next.value) && !res.destroyed) await once(res, 'drain');
    }
  } catch (error) {
    res.destroy();
    return { streamError: Errors.upstreamStreamError(['upstream', (error as Error).message ?? 'the answer broke off']).message };
  }
  res.end();
  if (!kept) return {};
  try {
    const bytes = Buffer.concat(kept);
    const answer: unknown = JSON.parse(bytes.toString('utf8'));
    return answer !== null && typeof answer === 'object' ? { bytes, answer: answer as Record<string, unknown> } : {};
  } catch {
    return {};
  }
}

// Reads a plain (identity-encoded, UTF-8) JSON request body in one pass: bytes counted against the limit, depth scanned, parsed once.
import type { IncomingMessage } from 'node:http';
import { Errors } from '../errors/error-registry.js';
import { invalidJsonError } from './invalid-json-error.js';
import { jsonDepthExceeds } from './json-depth.js';

const UTF8_CHARSET = /;\s*charset\s*=\s*"?utf-?8"?\s*(;|$)/i;

/**
 * True when the request's body can be read by {@link readPlainJson}: no content encoding (or `identity`) and no
 * charset other than UTF-8. Others (gzip, UTF-16 and so on) go through body-parser.
 */
export function isPlainJson(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  return !declaresOtherCharset(req);
}

/**
 * True when the content type names a charset other than UTF-8 (UTF-16, UTF-7, ...). Such a body's bytes are not its
 * text: a bracket may be two bytes, or none, so nesting can only be measured once it is decoded.
 */
export function declaresOtherCharset(req: IncomingMessage): boolean {
  const type = req.headers['content-type'] ?? '';
  return type.toLowerCase().includes('charset') && !UTF8_CHARSET.test(type);
}

/** A read failure in body-parser's shape (`status`, `type`), so the one error middleware maps it as before. */
function readError(message: string, type: string): Error {
  return Object.assign(new Error(message), { status: 400, type });
}

/**
 * Reads the body: 413 `body_too_large` past `limitBytes` (the rest is not buffered), 400 `json_too_deep` past
 * `maxDepth` (scanned before parsing), 400 `invalid_json` when it does not parse. Resolves to the parsed value.
 */
export function readPlainJson(req: IncomingMessage, limitBytes: number, maxDepth: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (req.readableEnded) {
      reject(Object.assign(new Error('the request body was already read'), { status: 500, type: 'stream.not.readable' }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: unknown, value?: unknown): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', finish);
      if (error) {
        req.resume(); // the rest is read and dropped, not buffered
        reject(error);
      } else resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) finish(Errors.bodyTooLarge([String(limitBytes)]));
      else chunks.push(chunk);
    };
    const onAborted = (): void => finish(readError('request aborted', 'request.aborted'));
    const onEnd = (): void => {
      const expected = req.headers['content-length'];
      if (expected !== undefined && Number(expected) !== size) {
        finish(readError('request size did not match content length', 'request.size.invalid'));
        return;
      }
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (jsonDepthExceeds(raw, maxDepth)) {
        finish(Errors.jsonTooDeep([String(maxDepth)]));
        return;
      }
      let text = raw.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        finish(undefined, JSON.parse(text));
      } catch (error) {
        finish(invalidJsonError(error));
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', finish);
  });
}

// JSON body parsing for gateway routes: 501 on a transfer coding but chunked, 415 on a wrong content type, 413 over the limit, 400 on bad JSON, deep nesting or a non-object.
import zlib from 'node:zlib';
import express, { type RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth.js';
import { declaresOtherCharset, isPlainJson, readPlainJson } from './plain-json-reader.js';
import { preParsedBodyError, valueDepthExceeds } from './pre-parsed-body.js';
import { transferCodingError } from './transfer-coding.js';

/** The content encodings a JSON body may arrive in besides `identity`: what body-parser inflates on this Node. */
export const JSON_CONTENT_ENCODINGS: readonly string[] = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])];

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Largest accepted body in bytes; default 1 MB. */
  limitBytes?: number;
  /** Deepest nesting of objects and arrays accepted; deeper bodies are refused 400 `json_too_deep` before parsing. Default 64. */
  maxDepth?: number;
}

/** True when the request carries a body of at least one byte (a `content-length` above 0, or any `transfer-encoding`). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/**
 * Parses a JSON object body into `req.body`. Requests without a body leave `req.body` undefined. A body sent with a
 * transfer coding other than chunked is 501 before it is read (see {@link transferCodingError}).
 * @example
 * router.post('/things', jsonBody(), handler);
 */
export function jsonBody(options: JsonBodyOptions = {}): RequestHandler {
  const limit = options.limitBytes ?? 1024 * 1024;
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  // `verify` sees the raw (inflated) bytes before JSON.parse: hostile nesting is mostly refused by a linear scan, before
  // it is built. The scan reads UTF-8 bytes, so it is skipped for a declared other charset; the parsed value is
  // measured in every case (below).
  const parse = express.json({
    limit,
    strict: false,
    type: () => true,
    verify: (req, _res, raw) => {
      if (!declaresOtherCharset(req) && jsonDepthExceeds(raw, maxDepth)) throw Errors.jsonTooDeep([String(maxDepth)]);
    },
  });
  return function parseJsonObjectBody(req, res, next) {
    // A body framed with a coding Node does not decode (`gzip, chunked`) is refused before a byte of it is read.
    const framing = transferCodingError(req.headers);
    if (framing) {
      next(framing);
      return;
    }
    if (req.body !== undefined) {
      // A host app's express.json() ran first: its limit is not the gateway's.
      next(preParsedBodyError(req, limit, maxDepth));
      return;
    }
    if (!hasBody(req.headers)) {
      next();
      return;
    }
    // The usual header is matched by a comparison; any other goes through Express's full media-type match.
    const contentType = req.headers['content-type'];
    if (contentType !== 'application/json' && !req.is('application/json')) {
      next(Errors.unsupportedMediaType([req.headers['content-type'] ?? 'none']));
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      next(Errors.bodyTooLarge([String(limit)]));
      return;
    }
    const parsed = (error?: unknown): void => {
      if (error) next(error);
      else if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) next(Errors.bodyNotObject());
      else next();
    };
    // Plain UTF-8 bodies are read and parsed in one pass; encoded ones (gzip, other charsets) go through body-parser.
    if (!isPlainJson(req)) {
      // The parsed value is measured whatever the header says: body-parser decodes by the first charset parameter, so
      // `charset=utf-16le; charset=utf-8` is UTF-16 text that the byte scan took for UTF-8. JSON.parse does not
      // recurse, so a deep value can be built and then walked (iteratively) before anything else sees it.
      parse(req, res, (error?: unknown) => {
        if (!error && valueDepthExceeds(req.body, maxDepth)) {
          req.body = undefined;
          next(Errors.jsonTooDeep([String(maxDepth)]));
        } else parsed(error);
      });
      return;
    }
    readPlainJson(req, limit, maxDepth).then((value) => {
      req.body = value;
      parsed();
    }, parsed);
  };
}

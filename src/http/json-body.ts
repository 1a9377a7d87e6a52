// JSON body parsing for gateway routes: 415 on a wrong content type, 413 over the limit, 400 on bad JSON or a non-object.
import express, { type RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Largest accepted body in bytes; default 1 MB. */
  limitBytes?: number;
}

/**
 * Parses a JSON object body. Requests without a body (GET, DELETE) pass through untouched.
 * @example
 * router.post('/things', jsonBody(), handler);
 */
export function jsonBody(options: JsonBodyOptions = {}): RequestHandler[] {
  const limit = options.limitBytes ?? 1024 * 1024;
  const parse = express.json({ limit, strict: false, type: () => true });
  const requireJson: RequestHandler = function requireJsonContentType(req, _res, next) {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) {
      req.body = undefined;
      next();
      return;
    }
    if (!req.is('application/json')) {
      next(Errors.unsupportedMediaType([req.headers['content-type'] ?? 'none']));
      return;
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      next(Errors.bodyTooLarge([String(limit)]));
      return;
    }
    next();
  };
  const requireObject: RequestHandler = function requireJsonObject(req, _res, next) {
    if (req.body !== undefined && (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))) {
      next(Errors.bodyNotObject());
      return;
    }
    next();
  };
  return [requireJson, parse, requireObject];
}

// The one Express error middleware: answers every error in OpenAI's shape and never leaks internals.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Errors, GatewayError, isGatewayError } from './error-registry.js';
import { invalidJsonError } from '../http/invalid-json-error.js';
import { JSON_CONTENT_ENCODINGS } from '../http/json-body.js';
import { requestIdOf } from '../observability/request-id.js';

/** Where the gateway reports unexpected errors. Secrets must never be passed to it. */
export interface GatewayLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Maps body-parser and other foreign errors onto coded gateway errors. */
export function toGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  const status = (error as { status?: number; statusCode?: number } | null)?.status;
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return Errors.bodyTooLarge([String((error as { limit?: number }).limit ?? '')], { cause: error });
  if (type === 'entity.parse.failed') return invalidJsonError(error);
  // body-parser's 415s: a content encoding it cannot inflate, a charset it cannot decode.
  if (type === 'encoding.unsupported') {
    const encoding = String((error as { encoding?: unknown }).encoding ?? '').slice(0, 100);
    return Errors.unsupportedContentEncoding([JSON.stringify(encoding), `identity or ${JSON_CONTENT_ENCODINGS.join(', ')}`], { cause: error, headers: { 'accept-encoding': JSON_CONTENT_ENCODINGS.join(', ') } });
  }
  if (type === 'charset.unsupported') return Errors.unsupportedCharset([JSON.stringify(String((error as { charset?: unknown }).charset ?? '').slice(0, 100))], { cause: error });
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return Errors.validation([(error as Error).message || 'The request is not valid.'], { cause: error });
  }
  return Errors.internal([], { cause: error });
}

/** The longest `cause` a `request failed` line carries, in characters. */
export const MAX_LOGGED_CAUSE_CHARS = 1024;

/** Characters a key (or its base64, hex or URL form) is made of. */
const KEY_CHAR = /[A-Za-z0-9_\-+/=%.]/;

/**
 * The message cut to {@link MAX_LOGGED_CAUSE_CHARS}. A word the cut goes through is dropped whole: the logger scrubs
 * secrets after this, and the start of a key would no longer read as that key.
 */
function cutCause(message: string): string {
  if (message.length <= MAX_LOGGED_CAUSE_CHARS) return message;
  let end = MAX_LOGGED_CAUSE_CHARS;
  while (end > 0 && KEY_CHAR.test(message[end - 1]!)) end--;
  return `${message.slice(0, end)}…`;
}

/**
 * Creates the error middleware mounted at the end of every gateway router. `bodyOf` writes the answer's body:
 * OpenAI's shape by default; an endpoint that speaks another API (POST /v1/messages) passes its own.
 * @example
 * app.use(errorMiddleware(console));
 */
export function errorMiddleware(logger?: GatewayLogger, bodyOf: (error: GatewayError) => unknown = (error) => error.toJSON()): ErrorRequestHandler {
  return function gatewayErrorMiddleware(error, req, res, next) {
    const gatewayError = toGatewayError(error);
    if (gatewayError.statusCode >= 500 && !gatewayError.expected) {
      logger?.error('request failed', {
        request_id: requestIdOf(req),
        method: req.method,
        // The whole path: req.path is relative to the router's mount point ('/' inside the /readyz router).
        path: (req.originalUrl.split('?')[0] ?? '').slice(0, 256),
        code: gatewayError.code,
        // A plugin's error may quote what it was given (a whole prompt): the line keeps its start only.
        cause: gatewayError.cause instanceof Error ? cutCause(gatewayError.cause.message) : undefined,
      });
    }
    res.locals.gatewayError = gatewayError;
    if (res.headersSent) {
      next(error);
      return;
    }
    for (const [name, value] of Object.entries(gatewayError.headers ?? {})) res.setHeader(name, value);
    res.status(gatewayError.statusCode).json(bodyOf(gatewayError));
  };
}

/**
 * Answers 404 in the gateway's error shape; for standalone servers, mounted after everything else. The path named is
 * the whole one (`req.baseUrl` too), also when it runs inside a mounted router such as the admin API's.
 */
export const notFoundHandler: RequestHandler = function gatewayNotFound(req, _res, next) {
  next(Errors.routeNotFound([req.method, req.baseUrl + req.path]));
};

// Errors of POST /v1/messages in Anthropic's shape, {"type":"error","error":{type,message}}, so Anthropic's SDK reads them.
import type { GatewayError } from '../errors/error-registry.js';

/** Anthropic's error type for an HTTP status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status < 500 ? 'invalid_request_error' : 'api_error';
  }
}

/** The error object of Anthropic's shape, with the gateway's own error code beside the type. */
export function anthropicError(error: GatewayError): { type: string; message: string; code: string } {
  return { type: anthropicErrorType(error.statusCode), message: error.message, code: error.code };
}

/** A block's `type` as the client sent it, for an error message: its JSON, cut to 80 characters (a type may be any size). */
export function shownType(value: unknown): string {
  return String(JSON.stringify(value)).slice(0, 80);
}

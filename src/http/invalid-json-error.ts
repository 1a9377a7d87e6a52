// The 400 invalid_json error of a request body that does not parse, without V8's excerpt of the body (it may hold a secret).
import { Errors, type GatewayError } from '../errors/error-registry.js';

/** V8's messages that quote the text being parsed end so: `Unexpected token 'x', ..."…"... is not valid JSON`. */
const QUOTES_THE_TEXT = /is not valid JSON\s*$/;

/**
 * What JSON.parse reported, as safe to answer: V8 quotes up to 20 characters around the fault (and the offending
 * character), and a body may carry a provider key or token there. Messages that quote the text are cut to their kind;
 * the others (`Unexpected end of JSON input`, `Expected ',' or '}' after property value in JSON at position 44`) hold
 * only a position and are kept.
 */
export function invalidJsonDetail(message: string): string {
  if (!QUOTES_THE_TEXT.test(message)) return message;
  return message.startsWith('Unexpected token') ? 'Unexpected token' : 'the body is not a JSON value';
}

/** The 400 `invalid_json` error of a body whose parse failed with `cause`, its message free of the body's text. */
export function invalidJsonError(cause: unknown): GatewayError {
  return Errors.invalidJson([invalidJsonDetail(cause instanceof Error ? cause.message : String(cause))], { cause });
}

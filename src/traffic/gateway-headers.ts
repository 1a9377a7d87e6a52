// The x-gateway-* headers every model answer carries: request id, route, provider, model and attempt count.
import type { Response } from 'express';
import type { ModelRequestContext } from './model-request-context.js';
import { encodeUriComponentSafe } from '../http/uri-component.js';

const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A name as an answer header value: as it is when Node accepts it (printable Latin-1), else percent-encoded. Model
 * and route names may come from the client; one Node refuses would otherwise throw after the provider answered.
 */
export function headerValue(name: string): string {
  return HEADER_SAFE.test(name) ? name : encodeUriComponentSafe(name);
}

/** Sets the gateway's answer headers from the context and the last attempt. */
export function setGatewayHeaders(res: Response, context: ModelRequestContext): void {
  if (res.headersSent) return;
  const last = context.attempts.at(-1);
  res.setHeader('x-gateway-request-id', context.id);
  res.setHeader('x-gateway-route', headerValue(context.routeName));
  if (last) {
    res.setHeader('x-gateway-provider', headerValue(last.provider));
    res.setHeader('x-gateway-model', headerValue(last.model));
  }
  res.setHeader('x-gateway-attempts', String(context.attempts.length));
}

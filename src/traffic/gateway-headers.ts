// The x-gateway-* headers every model answer carries: request id, route, provider, model and attempt count.
import type { Response } from 'express';
import type { ModelRequestContext } from './model-request-context.js';

/** Sets the gateway's answer headers from the context and the last attempt. */
export function setGatewayHeaders(res: Response, context: ModelRequestContext): void {
  if (res.headersSent) return;
  const last = context.attempts.at(-1);
  res.setHeader('x-gateway-request-id', context.id);
  res.setHeader('x-gateway-route', context.routeName);
  if (last) {
    res.setHeader('x-gateway-provider', last.provider);
    res.setHeader('x-gateway-model', last.model);
  }
  res.setHeader('x-gateway-attempts', String(context.attempts.length));
}

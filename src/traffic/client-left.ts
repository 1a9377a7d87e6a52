// Whether a model request's client left before its answer ended: the one rule behind the 499 of metrics, spans and Chronicles.
import type { Response } from 'express';
import type { ModelRequestContext } from './model-request-context.js';

/**
 * True when the answer did not end and the reason was the client: an answer the provider broke off, which a byte
 * relay (audio, images) ends by dropping the connection, is the provider's failure, recorded with the status it was
 * sent with and its stream error, not as the client leaving.
 */
export function clientLeft(res: Response, context: ModelRequestContext | undefined): boolean {
  return !res.writableFinished && context?.relay?.brokeOff !== true;
}

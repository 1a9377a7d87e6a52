// Reads the parsed JSON object body of an admin request, or answers 400 when there is none.
import type { Request } from 'express';
import { Errors } from '../errors/error-registry.js';

/** The request's JSON object body; a missing body is a 400. */
export function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.bodyNotObject();
  return body as Record<string, unknown>;
}

/** A path parameter as a string. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}
